// A fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on every file named on the
// command line (every file inside a named directory), so the normal build (g++, no sanitizers)
// replays the seed corpus and the regressions in CTest. A broken contract aborts, and so does
// any single allocation over 64 MiB (libFuzzer's -malloc_limit_mb in the fuzz runs): the inputs
// are a few KiB, so a header that lies about its sizes must be refused before it allocates.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

constexpr std::size_t allocation_limit = std::size_t{64} << 20;

} // namespace

// Every operator new and new[] of the process comes here (the replaceable global forms).
void* operator new(std::size_t size) {
  if (size > allocation_limit) {
    std::fprintf(stderr, "contract broken: one allocation of %zu bytes (limit %zu)\n", size,
                 allocation_limit);
    std::abort();
  }
  if (void* p = std::malloc(size == 0 ? 1 : size))
    return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

void replay(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  // An exact-size copy, as libFuzzer passes it, so reading past the end is not hidden.
  const auto copy = std::make_unique<std::uint8_t[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), copy.get());
  std::printf("%s\n", p.c_str());
  std::fflush(stdout);
  LLVMFuzzerTestOneInput(copy.get(), bytes.size());
}

} // namespace

int main(int argc, char** argv) {
  int replayed = 0;
  for (int k = 1; k < argc; ++k) {
    const std::filesystem::path arg(argv[k]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(arg);
    }
    for (const auto& f : files) {
      replay(f);
      ++replayed;
    }
  }
  std::printf("replayed %d input(s)\n", replayed);
  return replayed > 0 ? 0 : 1;
}

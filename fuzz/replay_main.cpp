// A fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on every file named on the
// command line (every file inside a named directory), so the normal build (g++, no sanitizers)
// replays the seed corpus and the regressions in CTest. A broken contract aborts.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

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

// How fast can an n x n int32 matrix come down from the GPU into a memory-mapped output file?
// Compares, on one machine, (a) the cuda back end's way: pinned staging chunks, then a parallel
// memcpy into the file's pages (and the same with streaming stores, alternating), with (b)
// page-locking the file mapping itself
// (cudaHostRegister) and one DMA straight into it, timing the registration, the copy and the
// unregistration apart. Prints one line per method. Not a test: a measurement for issue 12.
//   apsp_download_probe N DIR [CHUNK_MiB]   (chunks of n^2 * 4 / 8 bytes, at least 4 MiB, unless
//   given; the file is DIR/apsp_download_probe.bin, removed at the end;
//   target apsp_download_probe, or nvcc -O2 -std=c++17 -Xcompiler -fopenmp download_probe.cpp)

#include <cuda_runtime.h>
#include <fcntl.h>
#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e_));                                         \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

unsigned char* map_file(const std::string& path, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(bytes)) != 0)
    return nullptr;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  return p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
}

/// A copy with non-temporal (streaming) stores: no read-for-ownership of the destination.
__attribute__((target("avx2"))) void stream_piece(unsigned char* dst, const unsigned char* src,
                                                  std::size_t len) {
  std::size_t head = (64 - (reinterpret_cast<std::uintptr_t>(dst) & 63)) & 63;
  head = std::min(head, len);
  std::memcpy(dst, src, head);
  std::size_t i = head;
  for (; i + 64 <= len; i += 64) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
  }
  std::memcpy(dst + i, src + i, len - i);
}

/// `copy_piece` over 1 MiB pieces on every core, as the back end's copy_rows does (memcpy, or
/// stream_piece), then a store fence for the streaming stores.
template <class Piece>
void parallel_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                   Piece copy_piece) {
  const std::size_t piece = std::size_t{1} << 20;
  const long pieces = static_cast<long>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < pieces; ++k) {
    const std::size_t at = static_cast<std::size_t>(k) * piece;
    copy_piece(dst + at, src + at, std::min(piece, bytes - at));
  }
  _mm_sfence();
}

void prefault(unsigned char* p, std::size_t bytes) {
#pragma omp parallel for schedule(static)
  for (std::size_t at = 0; at < bytes; at += 4096)
    p[at] = 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::printf("usage: apsp_download_probe N DIR\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const std::string path = std::string(argv[2]) + "/apsp_download_probe.bin";
  const std::size_t bytes = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * 4;
  CHECK(cudaFree(nullptr));
  void* dev = nullptr;
  CHECK(cudaMalloc(&dev, bytes));
  CHECK(cudaMemset(dev, 1, bytes));
  CHECK(cudaDeviceSynchronize());

  // (a) staging: two pinned chunks of bytes / 8 (at least 4 MiB), memcpy into the mapping;
  // then the same with streaming stores (NT), alternating, three times each.
  for (int run = 0; run < 6; ++run) {
    const bool nt = run % 2 == 1;
    const auto copy = [nt](unsigned char* d, const unsigned char* src, std::size_t len) {
      if (nt)
        parallel_copy(d, src, len, stream_piece);
      else
        parallel_copy(d, src, len, [](unsigned char* to, const unsigned char* from, std::size_t k) {
          std::memcpy(to, from, k);
        });
    };
    unsigned char* out = map_file(path, bytes);
    if (out == nullptr)
      return 1;
    prefault(out, bytes);
    const std::size_t chunk = argc > 3 ? std::size_t(std::atol(argv[3])) << 20
                                       : std::max<std::size_t>(bytes / 8, std::size_t{4} << 20);
    double t0 = now();
    unsigned char* stage[2];
    CHECK(cudaMallocHost(&stage[0], chunk));
    CHECK(cudaMallocHost(&stage[1], chunk));
    const double t_alloc = now() - t0;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t done[2];
    CHECK(cudaEventCreate(&done[0]));
    CHECK(cudaEventCreate(&done[1]));
    t0 = now();
    std::size_t at = 0;
    int k = 0;
    std::size_t pending_at[2] = {0, 0}, pending_len[2] = {0, 0};
    while (at < bytes || pending_len[0] || pending_len[1]) {
      if (at < bytes) {
        const std::size_t len = std::min(chunk, bytes - at);
        if (pending_len[k]) { // the buffer's previous chunk must be copied out first
          CHECK(cudaEventSynchronize(done[k]));
          copy(out + pending_at[k], stage[k], pending_len[k]);
        }
        CHECK(cudaMemcpyAsync(stage[k], static_cast<unsigned char*>(dev) + at, len,
                              cudaMemcpyDeviceToHost, s));
        CHECK(cudaEventRecord(done[k], s));
        pending_at[k] = at;
        pending_len[k] = len;
        at += len;
      } else if (pending_len[k]) {
        CHECK(cudaEventSynchronize(done[k]));
        copy(out + pending_at[k], stage[k], pending_len[k]);
        pending_len[k] = 0;
      }
      k ^= 1;
    }
    const double t_copy = now() - t0;
    std::printf("n=%ld staging (%zu MiB chunks, %s on all cores): pinned alloc %.4f s, "
                "download %.4f s (%.1f GB/s)\n",
                n, chunk >> 20, nt ? "streaming stores" : "memcpy", t_alloc, t_copy,
                bytes / t_copy / 1e9);
    CHECK(cudaFreeHost(stage[0]));
    CHECK(cudaFreeHost(stage[1]));
    ::munmap(out, bytes);
  }
  // (b) register the mapping, one DMA into it.
  {
    unsigned char* out = map_file(path, bytes);
    if (out == nullptr)
      return 1;
    prefault(out, bytes);
    double t0 = now();
    const cudaError_t reg = cudaHostRegister(out, bytes, cudaHostRegisterDefault);
    const double t_reg = now() - t0;
    if (reg != cudaSuccess) {
      std::printf("n=%ld register: %s (after %.4f s)\n", n, cudaGetErrorString(reg), t_reg);
    } else {
      t0 = now();
      CHECK(cudaMemcpy(out, dev, bytes, cudaMemcpyDeviceToHost));
      const double t_copy = now() - t0;
      t0 = now();
      CHECK(cudaHostUnregister(out));
      const double t_unreg = now() - t0;
      std::printf("n=%ld registered mapping: register %.4f s, download %.4f s (%.1f GB/s), "
                  "unregister %.4f s\n",
                  n, t_reg, t_copy, bytes / t_copy / 1e9, t_unreg);
    }
    ::munmap(out, bytes);
  }
  ::unlink(path.c_str());
  CHECK(cudaFree(dev));
  return 0;
}

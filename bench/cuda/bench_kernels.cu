// Peak microbenchmark and baselines for bench_cuda; see bench_kernels.hpp.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_kernels.hpp"

namespace apsp::bench {
namespace {

#define BENCH_CUDA_TRY(x)                                                                          \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int peak_chains = 16;
constexpr int peak_iters = 1 << 15;

// Each thread runs 16 independent chains acc = min(acc + b, c): one fused instruction per
// update on sm_90 for the DPX forms. b and c come from arguments so nothing folds.
__global__ void peak_int32(int* out, int b, int c) {
  int acc[peak_chains];
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    acc[i] = threadIdx.x + i;
  for (int it = 0; it < peak_iters; ++it) {
#pragma unroll
    for (int i = 0; i < peak_chains; ++i)
      acc[i] = __viaddmin_s32(acc[i], b, c + i);
  }
  int s = 0;
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    s ^= acc[i];
  if (s == 0x12345678)
    out[0] = s;
}

__global__ void peak_float32(float* out, float b, float c) {
  float acc[peak_chains];
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    acc[i] = threadIdx.x + i;
  for (int it = 0; it < peak_iters; ++it) {
#pragma unroll
    for (int i = 0; i < peak_chains; ++i)
      acc[i] = fminf(acc[i] + b, c + i);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    s += acc[i];
  if (s == 1234.5f)
    out[0] = s;
}

// Two updates per step: sums with positive b and c (the values keep a clear sign bit), one
// three-way minimum of the bit patterns.
__global__ void peak_float32_three_way(float* out, float b, float c) {
  float acc[peak_chains];
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    acc[i] = threadIdx.x + i;
  for (int it = 0; it < peak_iters; ++it) {
#pragma unroll
    for (int i = 0; i < peak_chains; ++i) {
      const float s0 = acc[i] + b;
      const float s1 = acc[i] + (c + i);
      acc[i] = __int_as_float(
          __vimin3_s32(__float_as_int(acc[i]), __float_as_int(s0), __float_as_int(s1)));
    }
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    s += acc[i];
  if (s == 1234.5f)
    out[0] = s;
}

__global__ void peak_int16x2(unsigned* out, unsigned b, unsigned c) {
  unsigned acc[peak_chains];
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    acc[i] = threadIdx.x * 65537u + i;
  for (int it = 0; it < peak_iters; ++it) {
#pragma unroll
    for (int i = 0; i < peak_chains; ++i)
      acc[i] = __viaddmin_s16x2(acc[i], b, c + i);
  }
  unsigned s = 0;
#pragma unroll
  for (int i = 0; i < peak_chains; ++i)
    s ^= acc[i];
  if (s == 0x12345678u)
    out[0] = s;
}

constexpr int inf32 = 1073741823;

__global__ void naive_step(std::int32_t* d, std::int64_t n, std::int64_t k) {
  const std::int64_t j = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t i = blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y;
  if (i >= n || j >= n)
    return;
  const int s = d[i * n + k] + d[k * n + j];
  if (s < d[i * n + j])
    d[i * n + j] = s;
}

constexpr int b32 = 32;

__global__ void blocked32_phase1(std::int32_t* d, std::int64_t ld, int r) {
  __shared__ int s[b32][b32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t base = static_cast<std::int64_t>(r) * b32;
  s[ty][tx] = d[(base + ty) * ld + base + tx];
  __syncthreads();
  for (int k = 0; k < b32; ++k) {
    const int v = s[ty][k] + s[k][tx];
    __syncthreads();
    if (v < s[ty][tx])
      s[ty][tx] = v;
    __syncthreads();
  }
  d[(base + ty) * ld + base + tx] = s[ty][tx];
}

// blockIdx.x = other tile index, blockIdx.y = 0 for the pivot row, 1 for the pivot column.
__global__ void blocked32_phase2(std::int32_t* d, std::int64_t ld, int r) {
  __shared__ int s_p[b32][b32];
  __shared__ int s_t[b32][b32];
  const int t = blockIdx.x + (static_cast<int>(blockIdx.x) >= r);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t base = static_cast<std::int64_t>(r) * b32;
  const bool row = blockIdx.y == 0;
  const std::int64_t ti = row ? base : static_cast<std::int64_t>(t) * b32;
  const std::int64_t tj = row ? static_cast<std::int64_t>(t) * b32 : base;
  s_p[ty][tx] = d[(base + ty) * ld + base + tx];
  s_t[ty][tx] = d[(ti + ty) * ld + tj + tx];
  __syncthreads();
  for (int k = 0; k < b32; ++k) {
    const int v = row ? s_p[ty][k] + s_t[k][tx] : s_t[ty][k] + s_p[k][tx];
    __syncthreads();
    if (v < s_t[ty][tx])
      s_t[ty][tx] = v;
    __syncthreads();
  }
  d[(ti + ty) * ld + tj + tx] = s_t[ty][tx];
}

__global__ void blocked32_phase3(std::int32_t* d, std::int64_t ld, int r) {
  __shared__ int s_a[b32][b32];
  __shared__ int s_b[b32][b32];
  const int i_t = blockIdx.y + (static_cast<int>(blockIdx.y) >= r);
  const int j_t = blockIdx.x + (static_cast<int>(blockIdx.x) >= r);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t base = static_cast<std::int64_t>(r) * b32;
  const std::int64_t i = static_cast<std::int64_t>(i_t) * b32 + ty;
  const std::int64_t j = static_cast<std::int64_t>(j_t) * b32 + tx;
  s_a[ty][tx] = d[i * ld + base + tx];
  s_b[ty][tx] = d[(base + ty) * ld + j];
  __syncthreads();
  int best = d[i * ld + j];
#pragma unroll
  for (int k = 0; k < b32; ++k)
    best = min(best, s_a[ty][k] + s_b[k][tx]);
  d[i * ld + j] = best;
}

} // namespace

double measure_minplus_peak(peak_op op, int repeats, cudaStream_t s) {
  int sms = 0;
  int device = 0;
  BENCH_CUDA_TRY(cudaGetDevice(&device));
  BENCH_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const dim3 grid(sms * 8);
  const dim3 block(256);
  void* out = nullptr;
  BENCH_CUDA_TRY(cudaMalloc(&out, 64));
  cudaEvent_t e0, e1;
  BENCH_CUDA_TRY(cudaEventCreate(&e0));
  BENCH_CUDA_TRY(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int rep = 0; rep <= repeats; ++rep) { // the first launch is a warm-up
    BENCH_CUDA_TRY(cudaEventRecord(e0, s));
    switch (op) {
    case peak_op::int32_dpx:
      peak_int32<<<grid, block, 0, s>>>(static_cast<int*>(out), -1, 1 << 29);
      break;
    case peak_op::float32:
      peak_float32<<<grid, block, 0, s>>>(static_cast<float*>(out), -1.0f, 1e9f);
      break;
    case peak_op::int16x2_dpx:
      peak_int16x2<<<grid, block, 0, s>>>(static_cast<unsigned*>(out), 0xffffffffu, 0x3fff3fffu);
      break;
    case peak_op::float32_three_way:
      peak_float32_three_way<<<grid, block, 0, s>>>(static_cast<float*>(out), 1.0f, 2.0f);
      break;
    }
    BENCH_CUDA_TRY(cudaGetLastError());
    BENCH_CUDA_TRY(cudaEventRecord(e1, s));
    BENCH_CUDA_TRY(cudaEventSynchronize(e1));
    float t = 0;
    BENCH_CUDA_TRY(cudaEventElapsedTime(&t, e0, e1));
    if (rep > 0)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double updates =
      static_cast<double>(grid.x) * block.x * peak_chains * peak_iters *
      (op == peak_op::int16x2_dpx || op == peak_op::float32_three_way ? 2.0 : 1.0);
  BENCH_CUDA_TRY(cudaFree(out));
  BENCH_CUDA_TRY(cudaEventDestroy(e0));
  BENCH_CUDA_TRY(cudaEventDestroy(e1));
  return updates / (ms[ms.size() / 2] * 1e-3);
}

float naive_fw_ms(std::int32_t* d, std::int64_t n, cudaStream_t s) {
  cudaEvent_t e0, e1;
  BENCH_CUDA_TRY(cudaEventCreate(&e0));
  BENCH_CUDA_TRY(cudaEventCreate(&e1));
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((n + 31) / 32), static_cast<unsigned>((n + 7) / 8));
  BENCH_CUDA_TRY(cudaEventRecord(e0, s));
  for (std::int64_t k = 0; k < n; ++k)
    naive_step<<<grid, block, 0, s>>>(d, n, k);
  BENCH_CUDA_TRY(cudaGetLastError());
  BENCH_CUDA_TRY(cudaEventRecord(e1, s));
  BENCH_CUDA_TRY(cudaEventSynchronize(e1));
  float ms = 0;
  BENCH_CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

float blocked32_fw_ms(std::int32_t* d, std::int64_t ld, cudaStream_t s) {
  cudaEvent_t e0, e1;
  BENCH_CUDA_TRY(cudaEventCreate(&e0));
  BENCH_CUDA_TRY(cudaEventCreate(&e1));
  const int tiles = static_cast<int>(ld / b32);
  const dim3 block(b32, b32);
  BENCH_CUDA_TRY(cudaEventRecord(e0, s));
  for (int r = 0; r < tiles; ++r) {
    blocked32_phase1<<<1, block, 0, s>>>(d, ld, r);
    if (tiles > 1) {
      blocked32_phase2<<<dim3(tiles - 1, 2), block, 0, s>>>(d, ld, r);
      blocked32_phase3<<<dim3(tiles - 1, tiles - 1), block, 0, s>>>(d, ld, r);
    }
  }
  BENCH_CUDA_TRY(cudaGetLastError());
  BENCH_CUDA_TRY(cudaEventRecord(e1, s));
  BENCH_CUDA_TRY(cudaEventSynchronize(e1));
  float ms = 0;
  BENCH_CUDA_TRY(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

} // namespace apsp::bench

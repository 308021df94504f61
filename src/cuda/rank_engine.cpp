// The GPU engine of a distributed rank: see rank_engine.hpp.

#include "cuda/rank_engine.hpp"

#include <cuda_runtime_api.h>
#include <omp.h>

#include <algorithm>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/gemm_driver.hpp"
#include "cuda/resources.hpp"
#include "cuda/tile_config.hpp"

namespace apsp::cuda {
namespace {

using apsp::detail::grid_layout;

std::int64_t padded(std::int64_t x) {
  return (x + kernels::fw_tile - 1) / kernels::fw_tile * kernels::fw_tile;
}

template <class T> class rank_engine final : public apsp::detail::cpu::bulk_engine<T> {
public:
  rank_engine(int device, const grid_layout& L, T* d, std::int32_t* via, bool clamp)
      : L_(L), host_d_(d), host_via_(via), device_(device), clamp_(clamp),
        rows_(padded(L.local_rows())), cols_(padded(L.local_cols())), k_(padded(L.b)),
        guard_(device), d_(static_cast<std::size_t>(rows_ * cols_)),
        via_(via != nullptr ? static_cast<std::size_t>(rows_ * cols_) : 0),
        a_(static_cast<std::size_t>(rows_ * k_)), b_(static_cast<std::size_t>(k_ * cols_)),
        a_host_(static_cast<std::size_t>(rows_ * k_)),
        b_host_(static_cast<std::size_t>(k_ * cols_)) {
    APSP_EXPECTS(L.b % kernels::fw_tile == 0, invalid_argument_error,
                 "GPU ranks need a tile edge (--block) that is a multiple of 128, got " +
                     std::to_string(L.b));
    std::fill(a_host_.data(), a_host_.data() + a_host_.size(), weight_traits<T>::infinity);
    std::fill(b_host_.data(), b_host_.data() + b_host_.size(), weight_traits<T>::infinity);
    configure_gemm<T>(clamp, via != nullptr);
  }

  void start() override {
    const device_guard on(device_);
    enqueue_fill_rect<T>(d_.data(), cols_, 0, rows_, 0, cols_, weight_traits<T>::infinity,
                         s_.get());
    copy_rect(d_.data(), host_d_, 0, 0, L_.local_rows(), L_.local_cols(), cudaMemcpyHostToDevice);
    if (host_via_ != nullptr) {
      enqueue_fill_rect<std::int32_t>(via_.data(), cols_, 0, rows_, 0, cols_, no_via, s_.get());
      copy_rect(via_.data(), host_via_, 0, 0, L_.local_rows(), L_.local_cols(),
                cudaMemcpyHostToDevice);
    }
    s_.synchronize();
  }

  void fetch_lines(std::int64_t r) override { move_lines(r, cudaMemcpyDeviceToHost); }

  void update(std::int64_t r, const T* col_snaps, const T* row_snaps, std::int64_t ld,
              std::int64_t tile) override {
    const device_guard on(device_);
    move_lines(r, cudaMemcpyHostToDevice);
    const std::int64_t kb = L_.edge(r);
    const std::int64_t ltr = L_.tile_rows();
    const std::int64_t ltc = L_.tile_cols();
    const std::int64_t b = L_.b;
    constexpr T inf = weight_traits<T>::infinity;
    // A [local row][k] = column snapshot k of its tile; B [k][local col] = row snapshot k.
#pragma omp parallel for schedule(static)
    for (std::int64_t li = 0; li < ltr; ++li) {
      const T* snap = col_snaps + li * tile;
      for (std::int64_t x = 0; x < L_.edge(L_.tile_row(li)); ++x) {
        T* row = a_host_.data() + (li * b + x) * k_;
        for (std::int64_t k = 0; k < k_; ++k)
          row[k] = k < kb ? snap[k * ld + x] : inf;
      }
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < k_; ++k) {
      T* row = b_host_.data() + k * cols_;
      for (std::int64_t lj = 0; lj < ltc; ++lj) {
        const T* snap = row_snaps + lj * tile + k * ld;
        const std::int64_t w = L_.edge(L_.tile_col(lj));
        if (k < kb)
          std::copy(snap, snap + w, row + lj * b);
        else
          std::fill(row + lj * b, row + lj * b + w, inf);
      }
    }
    APSP_CUDA_TRY(cudaMemcpyAsync(a_.data(), a_host_.data(), a_host_.size() * sizeof(T),
                                  cudaMemcpyHostToDevice, s_.get()));
    APSP_CUDA_TRY(cudaMemcpyAsync(b_.data(), b_host_.data(), b_host_.size() * sizeof(T),
                                  cudaMemcpyHostToDevice, s_.get()));
    gemm_args<T> g;
    g.c = d_.data();
    g.ldc = cols_;
    g.a = a_.data();
    g.lda = k_;
    g.b = b_.data();
    g.ldb = cols_;
    g.via = host_via_ != nullptr ? via_.data() : nullptr;
    g.rows = rows_;
    g.cols = cols_;
    g.k = k_;
    g.k_base = r * b;
    g.clamp = clamp_;
    enqueue_gemm<T>(g, s_.get());
    // The host reuses the snapshot and operand buffers next round: wait for this one.
    s_.synchronize();
  }

  void finish() override {
    const device_guard on(device_);
    copy_rect(host_d_, d_.data(), 0, 0, L_.local_rows(), L_.local_cols(), cudaMemcpyDeviceToHost);
    if (host_via_ != nullptr)
      copy_rect(host_via_, via_.data(), 0, 0, L_.local_rows(), L_.local_cols(),
                cudaMemcpyDeviceToHost);
    s_.synchronize();
  }

private:
  /// Tile row r (kb x local cols) and tile column r (local rows x kb) between host and device.
  void move_lines(std::int64_t r, cudaMemcpyKind kind) {
    const device_guard on(device_);
    const std::int64_t kb = L_.edge(r);
    if (L_.owns_row(r))
      move_rect(L_.local_tile_row(r) * L_.b, 0, kb, L_.local_cols(), kind);
    if (L_.owns_col(r))
      move_rect(0, L_.local_tile_col(r) * L_.b, L_.local_rows(), kb, kind);
    s_.synchronize();
  }
  void move_rect(std::int64_t i0, std::int64_t j0, std::int64_t rows, std::int64_t cols,
                 cudaMemcpyKind kind) {
    const bool down = kind == cudaMemcpyDeviceToHost;
    copy_rect(down ? host_d_ : d_.data(), down ? d_.data() : host_d_, i0, j0, rows, cols, kind);
    if (host_via_ != nullptr)
      copy_rect(down ? host_via_ : via_.data(), down ? via_.data() : host_via_, i0, j0, rows, cols,
                kind);
  }
  /// rows x cols at (i0, j0) between a host matrix (stride local cols) and a device one
  /// (stride cols_), on the stream.
  template <class V>
  void copy_rect(V* dst, const V* src, std::int64_t i0, std::int64_t j0, std::int64_t rows,
                 std::int64_t cols, cudaMemcpyKind kind) {
    if (rows <= 0 || cols <= 0)
      return;
    const std::int64_t host_ld = L_.local_cols();
    const bool to_device = kind == cudaMemcpyHostToDevice;
    const std::int64_t dst_ld = to_device ? cols_ : host_ld;
    const std::int64_t src_ld = to_device ? host_ld : cols_;
    APSP_CUDA_TRY(cudaMemcpy2DAsync(dst + i0 * dst_ld + j0, dst_ld * sizeof(V),
                                    src + i0 * src_ld + j0, src_ld * sizeof(V), cols * sizeof(V),
                                    rows, kind, s_.get()));
  }

  grid_layout L_;
  T* host_d_;
  std::int32_t* host_via_;
  int device_;
  bool clamp_;
  std::int64_t rows_;
  std::int64_t cols_;
  std::int64_t k_;
  device_guard guard_;
  device_buffer<T> d_;
  device_buffer<std::int32_t> via_;
  device_buffer<T> a_;
  device_buffer<T> b_;
  pinned_buffer<T> a_host_;
  pinned_buffer<T> b_host_;
  stream s_;
};

} // namespace

rank_device pick_rank_device(int node_rank) {
  rank_device out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    out.name = "no CUDA device";
    return out;
  }
  out.device = node_rank % count;
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, out.device));
  out.name = prop.name;
  const device_guard on(out.device);
  std::size_t free_bytes = 0;
  std::size_t total = 0;
  APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  out.free_bytes = free_bytes;
  out.available = true;
  return out;
}

std::uint64_t rank_engine_bytes(const grid_layout& L, std::size_t element_size, bool paths) {
  const auto rows = static_cast<std::uint64_t>(padded(L.local_rows()));
  const auto cols = static_cast<std::uint64_t>(padded(L.local_cols()));
  const auto k = static_cast<std::uint64_t>(padded(L.b));
  return rows * cols * (element_size + (paths ? 4 : 0)) + (rows + cols) * k * element_size;
}

template <class T>
std::unique_ptr<apsp::detail::cpu::bulk_engine<T>>
make_rank_engine(int device, const grid_layout& layout, T* d, std::int32_t* via, bool clamp) {
  return std::make_unique<rank_engine<T>>(device, layout, d, via, clamp);
}

template std::unique_ptr<apsp::detail::cpu::bulk_engine<std::int32_t>>
make_rank_engine(int, const grid_layout&, std::int32_t*, std::int32_t*, bool);
template std::unique_ptr<apsp::detail::cpu::bulk_engine<float>>
make_rank_engine(int, const grid_layout&, float*, std::int32_t*, bool);

} // namespace apsp::cuda

// host_tiles (host_tiles.hpp): packing of the pivot blocks and the cpu min-plus kernels.

#include "cuda/host_tiles.hpp"

#include <algorithm>

#include "apsp/types.hpp"
#include "cpu/blocked_fw.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/packed_buffer.hpp"
#include "cpu/tile_ops.hpp"

namespace apsp::cuda {
namespace {

/// Sub-tile edge of the CPU products: a 256 x 256 output block stays in L2 while the pivots
/// stream past it (as in the cpu back end).
constexpr std::int64_t sub = 256;

} // namespace

template <class T> struct host_tiles<T>::impl {
  std::int64_t bo;
  std::int64_t ld; // packed row stride
  apsp::detail::cpu::tile_ops<T> ops;
  // a[k][i] = h[i0 + i][k0 + k] (the column block, transposed); b[k][j] = h[k0 + k][j0 + j].
  // Unused rows and columns hold infinity (the kernels may read a little past the valid ones).
  apsp::detail::cpu::packed_buffer<T> a, b;
  std::int64_t a_i0 = -1, a_k0 = -1; // what `a` holds now
};

template <class T>
host_tiles<T>::host_tiles(std::int64_t bo, bool negative) : impl_(std::make_unique<impl>()) {
  namespace cpu = apsp::detail::cpu;
  impl_->bo = bo;
  impl_->ld = cpu::packed_stride(bo, sizeof(T));
  impl_->ops = cpu::select_tile_ops<T>(cpu::selected_isa(), negative, /*paths=*/false);
  const std::int64_t cells = bo * impl_->ld + cpu::packed_slack;
  impl_->a = cpu::make_filled<T>(cells, weight_traits<T>::infinity);
  impl_->b = cpu::make_filled<T>(cells, weight_traits<T>::infinity);
}

template <class T> host_tiles<T>::~host_tiles() = default;

template <class T>
void host_tiles<T>::update(T* h, std::int64_t n, std::int64_t i0, std::int64_t iv, std::int64_t j0,
                           std::int64_t jv, std::int64_t k0, std::int64_t kv) {
  impl& s = *impl_;
  const std::int64_t ld = s.ld;
  T* a = s.a.get();
  T* b = s.b.get();
  // The pivot rows and columns past kv stay infinity from the start (kv < bo only in the last
  // round, whose pivots the kernels are told about: kb = kv).
  if (s.a_i0 != i0 || s.a_k0 != k0) {
    // Transpose in 64 x 64 blocks: rows of h are read, rows of a written, both a line at a time.
    const std::int64_t bi = (iv + 63) / 64;
    const std::int64_t bk = (kv + 63) / 64;
#pragma omp parallel for schedule(static) collapse(2)
    for (std::int64_t x = 0; x < bi; ++x) {
      for (std::int64_t y = 0; y < bk; ++y) {
        const std::int64_t ie = std::min(iv, (x + 1) * 64);
        const std::int64_t ke = std::min(kv, (y + 1) * 64);
        for (std::int64_t i = x * 64; i < ie; ++i) {
          const T* row = h + (i0 + i) * n + k0;
          for (std::int64_t k = y * 64; k < ke; ++k)
            a[k * ld + i] = row[k];
        }
      }
    }
    // Rows of a past iv: infinity (a smaller block row than before, at the matrix's end).
    for (std::int64_t k = 0; k < kv; ++k)
      std::fill(a + k * ld + iv, a + k * ld + s.bo, weight_traits<T>::infinity);
    s.a_i0 = i0;
    s.a_k0 = k0;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < kv; ++k) {
    const T* row = h + (k0 + k) * n + j0;
    std::copy(row, row + jv, b + k * ld);
    std::fill(b + k * ld + jv, b + k * ld + s.bo, weight_traits<T>::infinity);
  }
  const std::int64_t si = (iv + sub - 1) / sub;
  const std::int64_t sj = (jv + sub - 1) / sub;
#pragma omp parallel for schedule(dynamic, 1) collapse(2)
  for (std::int64_t x = 0; x < si; ++x) {
    for (std::int64_t y = 0; y < sj; ++y) {
      const std::int64_t r0 = x * sub;
      const std::int64_t c0 = y * sub;
      const int rows = static_cast<int>(std::min(sub, iv - r0));
      const int cols = static_cast<int>(std::min(sub, jv - c0));
      s.ops.product(a + r0, b + c0, ld, static_cast<int>(kv), h + (i0 + r0) * n + j0 + c0, nullptr,
                    n, rows, cols, static_cast<std::int32_t>(k0), nullptr, nullptr);
    }
  }
}

template class host_tiles<std::int32_t>;
template class host_tiles<float>;

} // namespace apsp::cuda

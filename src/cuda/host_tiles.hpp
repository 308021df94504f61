#pragma once
// The CPU's share of the out-of-core phase 3 (the "Blocked United" idea): while the GPU streams
// most tiles of a round, the host's cores update a few tiles of the host matrix in place with
// the cpu back end's min-plus kernels (src/cpu/tile_ops.hpp). Distances only.

#include <cstdint>
#include <memory>

namespace apsp::cuda {

template <class T> class host_tiles {
public:
  /// For outer blocks of edge `bo`; `negative`: the graph has negative weights (clamped sums).
  host_tiles(std::int64_t bo, bool negative);
  ~host_tiles();
  host_tiles(const host_tiles&) = delete;
  host_tiles& operator=(const host_tiles&) = delete;

  /// h[i0.., j0..] (iv x jv, row stride n) = min(itself, h[i0.., k0..] (x) h[k0.., j0..]) over
  /// the kv pivots k0..k0+kv-1, in pivot order, on all cores. The pivot row and column blocks
  /// must be final for this round.
  void update(T* h, std::int64_t n, std::int64_t i0, std::int64_t iv, std::int64_t j0,
              std::int64_t jv, std::int64_t k0, std::int64_t kv);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class host_tiles<std::int32_t>;
extern template class host_tiles<float>;

} // namespace apsp::cuda

#pragma once
// The downward sweep of PHAST and RPHAST (Delling, Goldberg, Nowatzyk, Werneck 2011): one pass
// over positions in increasing order (ranks decreasing) that relaxes each position's incoming
// downward arcs, K sources at once, one SIMD lane each. PHAST sweeps the whole hierarchy
// (cpu/phast.hpp); RPHAST the targets' upward closure, renumbered compactly (cpu/rphast.hpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "cpu/contraction_hierarchy.hpp"

namespace apsp::cpu {

/// A distance found by a source's upward search: where the sweep starts from, in `lane`.
template <class T> struct sweep_seed {
  std::int32_t position;
  std::int32_t lane;
  T dist;
};

/// What one sweep reads and writes. Positions 0..count-1; the downward arcs into position p are
/// arcs[offsets[p] .. offsets[p + 1]), their `other` a position < p. `d` holds K lanes per
/// position (count * K values); each is the minimum of its seeds and of its arcs' tails plus
/// their weights, `cap` where none. Values stay <= cap and weights < cap, so a sum fits T.
template <class T> struct sweep_args {
  std::int64_t count;
  const std::int64_t* offsets;
  const ch_arc<T>* arcs;
  const sweep_seed<T>* seeds; ///< sorted by position
  std::size_t seed_count;
  T* d;
  T cap;
};

/// A sweep's lanes (count * K values) aligned to a cache line, so that a position's lanes
/// share as few lines as they can.
template <class T> struct aligned_lanes {
  struct release {
    void operator()(T* p) const noexcept { std::free(p); }
  };
  explicit aligned_lanes(std::size_t count) {
    const std::size_t bytes = std::max<std::size_t>(64, (count * sizeof(T) + 63) / 64 * 64);
    data.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!data)
      throw std::bad_alloc();
  }
  std::unique_ptr<T, release> data;
};

template <class T> using sweep_fn = void (*)(const sweep_args<T>&);

/// The sweep for `lanes` sources at once (1, 4, 8 or 16; else invalid_argument_error), built for
/// the instruction set the cpu back end selected (cpu_isa.hpp). T: int32 or int64.
template <class T> [[nodiscard]] sweep_fn<T> downward_sweep(int lanes);

} // namespace apsp::cpu

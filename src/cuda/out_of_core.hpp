#pragma once
// Out-of-core solving on one GPU, for matrices larger than its (possibly capped) memory. The
// matrix stays in host memory (page-locked in place with cudaHostRegister when the OS allows);
// per outer round R with outer block Bo:
//   1. the pivot row panel (Bo x n) and column panel (n x Bo) are copied in; the Bo x Bo pivot
//      block is solved with the in-core kernels (a complete small FW problem);
//   2. both panels are updated by min-plus products with the closed pivot block and stay
//      resident;
//   3. every other Bo x Bo tile streams in, C = min(C, column panel (x) row panel), streams out,
//      on three streams with a buffer each, so copies in, products and copies out overlap.
// With several devices, each does steps 1-2 for itself (2 Bo / n of the round's work), the
// first one writes the panels back, and block rows of step 3 are dealt out round-robin; events
// order every device's round after all devices' previous one. The rounds are an executor of the
// shared round schedule (out_of_core_rounds.hpp), so checkpoints save and resume the host
// matrices between them (core/process_checkpoints.hpp).
// Each round moves the matrix in and out once (8 n^2 bytes) and does n^2 Bo updates, so a
// large Bo keeps the GPU busy over PCIe. Integer distances are bit-identical to the in-core
// solve (the blocked FW result does not depend on the blocking); via entries may differ and are
// valid.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "core/backend.hpp"

namespace apsp::cuda {

/// Device bytes of an out-of-core solve of n vertices with outer block bo; with paths and
/// `tagged`, including the tagged-slice workspaces (tagged_panels.hpp).
[[nodiscard]] std::uint64_t out_of_core_device_bytes(std::int64_t n, std::int64_t bo,
                                                     std::size_t elem_bytes, bool paths,
                                                     bool tagged = true);

/// The largest outer block (a multiple of the tile edge, at most 4096 and at most n rounded up)
/// whose buffers fit in `usable` bytes; 0 when even one tile's worth does not fit. With paths
/// the tagged-slice workspaces are counted, unless no block fits with them; *tagged (when
/// given) says which.
[[nodiscard]] std::int64_t choose_outer_block(std::int64_t n, std::size_t elem_bytes, bool paths,
                                              std::uint64_t usable, bool* tagged = nullptr);

/// The cap set by APSP_CUDA_FORCE_OUT_OF_CORE_BYTES (bytes, suffixes K, M, G), which also forces
/// the out-of-core path when the matrix would fit; 0 when unset. For tests.
[[nodiscard]] std::uint64_t forced_out_of_core_bytes();

/// Turns `p` (an in-core plan for `device_label`) into an out-of-core one on `devices` (its
/// driver: drivers::cuda_out_of_core, with whether the tagged-slice workspaces fit) when some
/// outer block fits in `usable` bytes and the host matrices fit in RAM; returns whether it did.
/// A distance matrix in a file (o.distances_file) needs no RAM; a resume (o.resume_dir) keeps
/// the outer block its checkpoint was saved with where that block fits.
bool plan_out_of_core(plan& p, const std::string& device_label, std::uint64_t usable,
                      const solve_options& o, const std::vector<int>& devices);

/// Runs the out-of-core solve of `d` (and `via` when non-null) on `devices` (one or more; a
/// device may be listed twice, for tests), outer block bo; `tagged`: the plan has room for the
/// tagged-slice workspaces (drivers::cuda_out_of_core::tagged_paths). Saves and resumes checkpoints as the options
/// ask (checkpoint_dir, resume_dir).
template <class T>
void solve_out_of_core(dense_matrix<T>& d, via_matrix* via, apsp::detail::run_context& ctx,
                       const std::vector<int>& devices, std::int64_t bo, bool tagged);

extern template void solve_out_of_core<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                                     apsp::detail::run_context&,
                                                     const std::vector<int>&, std::int64_t, bool);
extern template void solve_out_of_core<float>(dense_matrix<float>&, via_matrix*,
                                              apsp::detail::run_context&, const std::vector<int>&,
                                              std::int64_t, bool);

} // namespace apsp::cuda

#pragma once
// RPHAST's tables on one GPU (docs/tables.md, "On the GPU"; drivers::cuda_table): the targets'
// upward closure (cpu/rphast.hpp's rphast_targets, made on the cpu) handed to the GPU's sweeps
// as their structure, so that each batch sweeps only the closure's slots and arcs, and the
// sources' upward searches cut to it (rphast_seeds_of) as their seeds. Host-only: a build
// without CUDA links stand-ins that throw backend_unavailable_error.

#include <cstdint>
#include <span>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"
#include "cpu/rphast.hpp"
#include "cuda/phast_table.hpp"
#include "cuda/sweep_structure.hpp"

namespace apsp::cuda {

/// The sweep structure of a closure: its slots in sweep order and the downward arcs into each
/// (their tails already slots). Borrows `sel`'s arrays.
[[nodiscard]] sweep_structure structure_of(const cpu::rphast_targets<std::int32_t>& sel);

/// The rows x targets.size() table (row-major in `out`) of distances from sources[i] to
/// targets[j] (vertex ids, repeats allowed) in the graph whose reweighted copy `ch` (complete)
/// is the hierarchy of, with potentials `h` in vertex order (empty: none): `sel` the closure of
/// `targets` (rphast_select), swept on device cfg.device, cfg.lanes sources a sweep whose
/// upward searches run on cfg.threads cpu threads. The same values as cpu::rphast_rows and
/// Dijkstra: d + h(t) - h(s), weight_traits<int32>::infinity where no path leads.
void rphast_table_on_gpu(const cpu::contraction_hierarchy<std::int32_t>& ch,
                         const cpu::rphast_targets<std::int32_t>& sel,
                         const std::vector<std::int32_t>& h, std::span<const std::int32_t> sources,
                         std::span<const std::int32_t> targets, const gpu_sweep_config& cfg,
                         std::int32_t* out);

} // namespace apsp::cuda

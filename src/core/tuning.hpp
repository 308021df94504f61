#pragma once
// The tuning record: every developer knob of the library, one field each, filled once from the
// environment (tuning.cpp is the one file that reads APSP_* variables) and carried in the run
// context (run_context::tuning()). Code without a run context (planning, static helpers) reads
// current_tuning(); tests set fields with scoped_tuning instead of the environment.
// docs/tuning.md lists every knob of APSP_TUNING_KNOBS (tests/unit/tuning_test.cpp checks it).
// Internal: not installed.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace apsp::detail {

// X(field, type, "ENV", default, how the value is read, "doc line"). How a value is read (each
// as the code read it before the record existed; unset always leaves the default):
//   present:    true when the variable is set, to anything (even empty or 0)
//   present_off: false when the variable is set, to anything
//   zero_off:   false when the value starts with '0'
//   exact_zero_off: false when the value is exactly "0"
//   one_on:     true when the value starts with '1'
//   nonzero_on: true when the value is not empty and does not start with '0'
//   optional_switch: empty leaves it unset; else false when it starts with '0', true otherwise
//   positive_int: the value when atoi gives > 0, else the default
//   optional_int: empty leaves it unset; else atoi of the value
//   byte_count: digits with an optional K, M or G suffix (powers of 1024); empty: 0
//   text:       the value as it is
#define APSP_TUNING_KNOBS(X)                                                                       \
  X(cpu_isa, std::string, "APSP_CPU_ISA", "", text,                                                \
    "cpu kernels: auto (empty), avx512, avx2 or scalar; an unknown or unsupported one is refused") \
  X(cpu_lookahead, bool, "APSP_CPU_LOOKAHEAD", true, zero_off,                                     \
    "cpu blocked solver: look-ahead inside one process")                                           \
  X(cpu_rank_overlap, bool, "APSP_CPU_RANK_OVERLAP", true, zero_off,                               \
    "cpu ranks with look-ahead: pivot and panel broadcasts overlap the tiles (0: they wait)")      \
  X(cpu_prefetch, bool, "APSP_CPU_PREFETCH", true, zero_off,                                       \
    "cpu blocked solver: phase-3 tiles fetch their next tile's operands")                          \
  X(cpu_panels_first, bool, "APSP_CPU_PANELS_FIRST", true, zero_off,                               \
    "cpu blocked solver with look-ahead: next round's panel tiles go before this round's rest")    \
  X(cpu_panel_affinity, bool, "APSP_CPU_PANEL_AFFINITY", true, zero_off,                           \
    "cpu blocked solver: a panel tile goes first to the thread that computed its line tile")       \
  X(cpu_profile, bool, "APSP_CPU_PROFILE", false, one_on,                                          \
    "cpu blocked solver: each thread's seconds per phase and waits on stderr")                     \
  X(cpu_spin, std::optional<int>, "APSP_CPU_SPIN", std::nullopt, optional_int,                     \
    "cpu thread team: pauses spun at a barrier before sleeping (0 sleeps at once)")                \
  X(cpu_phast, bool, "APSP_CPU_PHAST", true, zero_off,                                             \
    "metrics rows on road-like integer graphs: contraction hierarchy sweeps (PHAST)")              \
  X(cpu_phast_lanes, int, "APSP_CPU_PHAST_LANES", 0, positive_int,                                 \
    "PHAST: sources per sweep, 1, 4, 8 or 16 (0: 16 for int32, 8 for int64)")                      \
  X(cpu_phast_verbose, bool, "APSP_CPU_PHAST_VERBOSE", false, present,                             \
    "PHAST: the hierarchy's seconds, shortcuts, levels (RPHAST: the closure) on stderr")          \
  X(table_engine, std::string, "APSP_TABLE_ENGINE", "", text,                                     \
    "tables from a contraction hierarchy: rphast or buckets instead of the cost model's choice")   \
  X(supernodal_verbose, bool, "APSP_SUPERNODAL_VERBOSE", false, present,                           \
    "supernodal solver: fill, steps and relabelling seconds on stderr")                            \
  X(cuda_verbose, bool, "APSP_CUDA_VERBOSE", false, present,                                       \
    "GPU drivers: where the host's time goes, on stderr")                                          \
  X(cuda_phast_lanes, int, "APSP_CUDA_PHAST_LANES", 0, positive_int,                               \
    "GPU sweeps (PHAST): sources per sweep, a power of two >= 32 (0: 256)")                        \
  X(cuda_phast_graph, bool, "APSP_CUDA_PHAST_GRAPH", true, zero_off,                               \
    "GPU sweeps (PHAST): the levels' launches replayed as one CUDA graph (0: a launch each)")      \
  X(cuda_lookahead, std::optional<bool>, "APSP_CUDA_LOOKAHEAD", std::nullopt, optional_switch,     \
    "GPU rounds: look-ahead on or off (unset: in core on; a split by its size)")                   \
  X(cuda_tagged_paths, bool, "APSP_CUDA_TAGGED_PATHS", true, exact_zero_off,                       \
    "GPU products with paths from tagged pivot slices (off: always by rescanning)")                \
  X(cuda_deferred_pivots, bool, "APSP_CUDA_DEFERRED_PIVOTS", true, exact_zero_off,                 \
    "GPU in core with paths: the rescan finds its pivots once after the rounds")                   \
  X(cuda_three_way, bool, "APSP_CUDA_THREE_WAY", true, zero_off,                                   \
    "GPU float32 without negative weights: minima two pivots at a time on the bit patterns")       \
  X(cuda_trim_padding, bool, "APSP_CUDA_TRIM_PADDING", true, zero_off,                             \
    "GPU kernels skip the padding's part of the last tiles")                                       \
  X(cuda_staging_mb, int, "APSP_CUDA_STAGING_MB", 0, positive_int,                                 \
    "GPU copies: staging buffer chunk in MiB (0: by the matrix's size)")                           \
  X(cuda_prefault, bool, "APSP_CUDA_PREFAULT", true, zero_off,                                     \
    "GPU in core: fault the host matrix's pages in during the solve")                              \
  X(cuda_rank_times, bool, "APSP_CUDA_RANK_TIMES", false, one_on,                                  \
    "GPU ranks and split devices: where each one's rounds went, on stderr")                        \
  X(cuda_sync_launches, bool, "APSP_CUDA_SYNC_LAUNCHES", false, nonzero_on,                        \
    "GPU: synchronise after every kernel launch (read once per process)")                          \
  X(cuda_force_out_of_core_bytes, std::uint64_t, "APSP_CUDA_FORCE_OUT_OF_CORE_BYTES", 0,           \
    byte_count, "GPU planning: treat the device as having this many bytes (0: its own)")           \
  X(cuda_force_multi_gpu, bool, "APSP_CUDA_FORCE_MULTI_GPU", false, nonzero_on,                    \
    "GPU: the multi-GPU driver even for one device, which may be listed twice")                    \
  X(cuda_ooc_pin, bool, "APSP_CUDA_OOC_NO_PIN", true, present_off,                                 \
    "GPU out of core: page-lock the host matrices (set: pageable copies)")                         \
  X(cuda_ooc_cpu, bool, "APSP_CUDA_OOC_CPU", true, exact_zero_off,                                 \
    "GPU out of core: the host computes a share of phase 3")                                       \
  X(nccl, bool, "APSP_NCCL", true, exact_zero_off,                                                 \
    "GPU ranks: panels through NCCL where every rank has its own GPU")

/// One field per knob of APSP_TUNING_KNOBS, with its default.
struct tuning {
#define APSP_TUNING_FIELD(field, type, env, def, how, doc) type field = def;
  APSP_TUNING_KNOBS(APSP_TUNING_FIELD)
#undef APSP_TUNING_FIELD
};

/// What docs/tuning.md says of a knob: its field, variable, default and doc line.
struct tuning_knob {
  std::string_view field;
  std::string_view env;
  std::string_view default_text;
  std::string_view doc;
};
#define APSP_TUNING_COUNT(field, type, env, def, how, doc) +1
inline constexpr std::size_t tuning_knob_count = 0 APSP_TUNING_KNOBS(APSP_TUNING_COUNT);
#undef APSP_TUNING_COUNT
/// Every knob, in the order of APSP_TUNING_KNOBS.
[[nodiscard]] const std::array<tuning_knob, tuning_knob_count>& tuning_knobs();

/// A variable's value, or null when unset.
using environment_lookup = std::function<const char*(const char* name)>;

/// The record from `lookup` (tests give a fake environment); never throws for odd values, each
/// knob keeps the reading above.
[[nodiscard]] tuning tuning_from(const environment_lookup& lookup);
/// The record from the process's environment.
[[nodiscard]] tuning tuning_from_environment();

/// The number of processes an MPI launcher started this one with, from the launcher's own
/// variables (Open MPI, PMI, PMIx, srun's step size: not apsp knobs, but read here, the one
/// file of the library that reads the environment); 1 when no launcher says.
[[nodiscard]] int launcher_size_from_environment() noexcept;

/// The process's record: the environment's, read once at the first call, unless a
/// scoped_tuning replaces it. A run context copies it when it is made.
[[nodiscard]] const tuning& current_tuning();

/// Replaces current_tuning() for its lifetime (tests; nests, restores the one before).
class scoped_tuning {
public:
  explicit scoped_tuning(tuning t);
  /// The current record with `edit` applied.
  explicit scoped_tuning(const std::function<void(tuning&)>& edit);
  ~scoped_tuning();
  scoped_tuning(const scoped_tuning&) = delete;
  scoped_tuning& operator=(const scoped_tuning&) = delete;
  /// The record in force: a test may change fields between solves (a solve's run context
  /// copies it when the solve starts).
  [[nodiscard]] tuning& record() noexcept { return record_; }

private:
  tuning record_;
  const tuning* previous_;
};

} // namespace apsp::detail

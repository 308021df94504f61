#pragma once
// The apsp command's own developer knobs (its process tricks and test hooks): the one file of
// cli/ that reads APSP_* variables is process_knobs.cpp. The library's knobs are in
// src/core/tuning.hpp; docs/tuning.md lists both (tests/unit/tuning_test.cpp checks it).
// Header-only list, no other dependency, so that the test can include it.

#include <optional>

namespace apsp::cli {

// X(field, type, "ENV", default, how the value is read, "doc line"):
//   trace_switch:    true when the value is neither empty nor exactly "0"
//   optional_switch: empty leaves it unset; else false when it starts with '0', true otherwise
//   int_value:       atoi of the value
#define APSP_CLI_KNOBS(X)                                                                         \
  X(trace, bool, "APSP_TRACE", false, trace_switch,                                               \
    "timestamped stage lines on stderr (read once)")                                             \
  X(output_prefill, std::optional<bool>, "APSP_OUTPUT_PREFILL", std::nullopt, optional_switch,    \
    "create the output and fault its pages in while a GPU starts (unset: GPU solves only)")      \
  X(detached_exit, std::optional<bool>, "APSP_DETACHED_EXIT", std::nullopt, optional_switch,      \
    "a helper process takes the exit's teardown (unset: when a GPU's device files are open)")    \
  X(release_early, std::optional<bool>, "APSP_CUDA_RELEASE_EARLY", std::nullopt, optional_switch, \
    "release the devices on a thread beside the statistics (unset: by the results' size)")      \
  X(test_pause_in_write, int, "APSP_TEST_PAUSE_IN_WRITE", 0, int_value,                           \
    "test hook: pause after the K-th output is complete (read once)")                            \
  X(source_batch_cells, int, "APSP_SOURCE_BATCH_CELLS", 0, int_value,                             \
    "distances per batch of solve --sources/--targets and paths (0 or less: 2^24)")

struct process_knobs {
#define APSP_CLI_FIELD(field, type, env, def, how, doc) type field = def;
  APSP_CLI_KNOBS(APSP_CLI_FIELD)
#undef APSP_CLI_FIELD
};

/// The command's knobs, read from the environment at the first call.
[[nodiscard]] const process_knobs& knobs() noexcept;

} // namespace apsp::cli

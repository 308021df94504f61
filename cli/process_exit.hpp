#pragma once
// How the `apsp` process ends once a command's outputs are complete.
//
// A process that used a GPU spends a noticeable time in its exit after its last line (the driver
// tears the CUDA context down when the process's device files close, and the kernel unmaps the
// address space), a large share of a whole run on a small graph (measured:
// docs/dev/benchmark-log.md, 'Figures from code comments'). The command's
// results are final by then, so the tool leaves that work to a helper: a child that shares the
// address space and holds copies of the device files, closes every other file (so a caller
// reading the tool's stdout sees its end with the tool's exit), waits until the tool is gone and
// then exits itself, which is when the context is torn down. Set APSP_DETACHED_EXIT=0 to keep
// the teardown in the tool's own exit, 1 to detach even without a GPU (tests).

namespace apsp::cli {

/// Whether end_process() hands the teardown to a helper: a GPU's device files are open
/// (or APSP_DETACHED_EXIT=1), this is not one of several MPI ranks, and APSP_DETACHED_EXIT is
/// not 0.
[[nodiscard]] bool exit_detaches() noexcept;

/// Flushes stdio (a success whose stdout could not be written, e.g. to a full disk, ends with 1
/// and a message instead) and ends the process with `code`, without static destructors, through the
/// helper when exit_detaches(). Call only when every output is complete (closed and renamed).
[[noreturn]] void end_process(int code) noexcept;

} // namespace apsp::cli

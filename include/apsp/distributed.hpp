#pragma once
/// @file distributed.hpp
/// The distributed solver: blocked Floyd-Warshall over MPI ranks (2D block-cyclic tiles on a
/// process grid), each rank computing on its own tiles with a GPU (int32, float32; chosen by
/// node-local rank) or the cpu back end's threads, the
/// outputs written in parallel with MPI-IO so that no rank ever holds the whole matrix.
/// Available when the library was built with MPI (`apsp::distributed::available()`); link
/// `apsp::distributed`. Start the program with `mpirun -np P` or `srun`; every rank calls the
/// same functions with the same arguments. docs/distributed.md has the details.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/io.hpp"
#include "apsp/metrics.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/types.hpp"

namespace apsp::distributed {

/// Whether the library was built with MPI.
[[nodiscard]] bool available() noexcept;

/// Number of processes an MPI launcher (mpirun, srun, mpiexec) started this program with,
/// read from its environment without initialising MPI; 1 when not started by one.
[[nodiscard]] int launched_size() noexcept;

/// MPI for the lifetime of the object: initialised (thread level FUNNELED) unless the program
/// already did, finalised by the destructor if it initialised it. One per process.
struct session_access;

class session {
public:
  session();
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  [[nodiscard]] int rank() const noexcept;
  [[nodiscard]] int size() const noexcept;
  /// Ranks on this rank's node, and this rank's index among them.
  [[nodiscard]] int node_size() const noexcept;
  [[nodiscard]] int node_rank() const noexcept;
  /// Waits for every rank.
  void barrier() const;
  /// Runs `f` on every rank; when it throws on some rank, every rank throws the same exception
  /// type with the message of the lowest such rank, so all exit alike.
  template <class F> void agree(F&& f) const;
  /// The message and type of the lowest failing rank, rethrown everywhere (used by agree()).
  void agree_on_failure(std::exception_ptr local) const;

private:
  friend struct session_access;
  struct state;
  std::unique_ptr<state> s_;
};

template <class F> void session::agree(F&& f) const {
  std::exception_ptr local;
  try {
    f();
  } catch (...) {
    local = std::current_exception();
  }
  agree_on_failure(local);
}

/// Where a rank's threads run. `automatic`: a rank that its launcher left on the same CPUs as
/// other ranks of its node (mpirun's default for more than two ranks, --bind-to none, srun
/// without --cpu-bind) takes a share of them, in node-local rank order and nearest its GPU
/// where the GPUs sit near different CPUs, for all of its threads; a binding the launcher chose
/// is kept. `off`: the launcher's placement, whatever it is.
enum class placement_mode { automatic, off };

/// What place_ranks did on this rank.
struct placement {
  std::string cpus;     ///< the CPUs its threads run on, e.g. "16-31"
  int cpu_count = 0;    ///< how many CPUs `cpus` names
  std::string how;      ///< one line: the share it took and of what, or why it kept its CPUs
  bool changed = false; ///< it moved its threads
  /// Ranks of its node (itself included) whose CPUs overlap these: its share of them, when
  /// they are the same for all, is their number divided by this.
  int sharing = 1;
};

/// Places every rank's threads (collective; call it before the solve, as early as possible,
/// and with `gpu` when the ranks will compute on GPUs, so that the GPU's nearest CPUs are
/// preferred). Also caps OpenMP's default team at the CPUs kept.
placement place_ranks(const session& s, placement_mode mode, bool gpu);

struct options {
  /// Process grid rows x columns; 0 x 0 = near-square (rows <= columns).
  int grid_rows = 0;
  int grid_cols = 0;
  /// Compute round r + 1's pivot and panels before round r's bulk update, so the broadcasts
  /// travel while ranks compute. Unset: on, except for GPU ranks on one node whose panels all
  /// travel GPU to GPU (NCCL) from n = 50,000 on, where splitting the update cost more than the
  /// broadcasts it hides (measured on 2x H200 at n = 80,000 and 140,000).
  std::optional<bool> lookahead;
  /// Outputs (empty: not written): the distances as .npy or course binary (int32), the path
  /// matrix as .npy (int32; needs solve_options::paths).
  std::filesystem::path distances_file;
  io::format distances_format = io::format::npy;
  std::filesystem::path paths_file;
  /// Asked on every rank once the outputs are complete in their partial files, before they
  /// replace their targets: false on any rank cancels (cancelled_error on every rank, the
  /// partial files removed, no target touched). Unset: always commit.
  std::function<bool()> commit_outputs;
};

/// Plans the solve on this session's ranks (collective), without allocating: a plan whose
/// driver is drivers::distributed (the grid, what each rank computes with, the look-ahead asked
/// in `d`), with the tile edge and rounds, and per rank: host_bytes (the largest rank's tiles
/// and workspace), device_bytes (GPU ranks: the largest rank's GPU memory), fits and reason
/// (the ranks of a node must fit its memory, those sharing a GPU its free memory). Throws
/// invalid_argument_error for a grid that does not multiply to the number of ranks.
[[nodiscard]] plan make_plan(const session& s, std::int64_t n, const solve_options& o,
                             const options& d);

/// What a rank sent and received in the rounds. A broadcast from this rank counts one message
/// (and its bytes) to every other rank of its process row or column; one it receives, one
/// message.
struct traffic {
  std::int64_t sent_messages = 0;
  std::int64_t sent_bytes = 0;
  std::int64_t received_messages = 0;
  std::int64_t received_bytes = 0;
};

/// Busy threads of a rank during the rounds, by thread name (from /proc).
struct thread_group {
  std::string name;
  int threads = 0;
  double cpu_seconds = 0;
  std::int64_t voluntary_switches = 0;   ///< it waited
  std::int64_t involuntary_switches = 0; ///< the kernel gave its CPU to another thread
  std::int64_t migrations = -1;          ///< moves between CPUs (-1: not known)
};

/// Where one rank's time went in the rounds. GPU ranks: compute is the GPU's compute stream
/// busy, communication the panel broadcasts on its exchange stream (hidden or not) plus any
/// staged through the host, wait the compute stream idle for panels plus the host's time in
/// the per-round agreement. cpu ranks: communication is the host's time in broadcasts and their
/// waits, wait its time in the agreement, compute the rest of its rounds.
struct rank_report {
  int rank = 0;
  std::string host;
  std::string cpus;        ///< where its threads ran
  std::string placement;   ///< how they got there (place_ranks)
  std::string computes_on; ///< e.g. "GPU 1" or "cpu, 16 threads"
  double rounds_seconds = 0;
  double compute_seconds = 0;
  double communication_seconds = 0;
  double wait_seconds = 0;
  double download_seconds = 0; ///< GPU ranks: the tiles back to host memory (part of rounds)
  traffic pivots;          ///< blocking broadcasts through MPI (pivot tiles)
  traffic panels;          ///< non-blocking broadcasts through MPI (panels)
  traffic device;          ///< GPU-to-GPU broadcasts (NCCL)
  std::int64_t waits = 0;      ///< waits for non-blocking broadcasts
  std::int64_t agreements = 0; ///< all-rank agreements (one per round)
  std::vector<thread_group> threads; ///< the busiest, most CPU time first
};

struct summary {
  apsp::plan plan; ///< the plan that ran (drivers::distributed)
  /// Every rank's report on the first rank (rank order); this rank's alone elsewhere.
  std::vector<rank_report> ranks;
  /// The rank whose compute and communication took longest (the one the others waited for).
  int slowest_rank = 0;
  double setup_seconds = 0; ///< filling (or loading) the tiles
  /// GPU ranks, part of setup_seconds: making and connecting the NCCL communicators (beside
  /// the tiles' setup, on a thread of their own).
  double connect_seconds = 0;
  double solve_seconds = 0; ///< the rounds
  double finish_seconds = 0;
  double write_seconds = 0;
  std::uint64_t reachable_pairs = 0; ///< finite off-diagonal distances
  std::string distance_sum;          ///< their sum: exact digits for integer types
  double max_distance = 0;
  bool integral = true;
  /// GPU ranks: how the panels travel (NCCL, or host memory and why); empty for cpu ranks.
  std::string exchange;
  bool lookahead = false; ///< whether the rounds ran with look-ahead
};

/// Solves `g` (the same graph on every rank) on all ranks of `s` and writes the outputs
/// (collective). Same semantics and errors as apsp::solve, raised on every rank alike; nothing
/// is left at the output paths after a failure or cancel. `o.progress` is called on every rank
/// after every round (return false there to stop all ranks at the next round boundary);
/// checkpoint_dir / resume_dir work as for one process, each rank saving its own tiles.
[[nodiscard]] summary solve(const session& s, const graph& g, const solve_options& o,
                            const options& d);

/// The metrics of `g`'s shortest distances (apsp/metrics.hpp) on all ranks of `s`
/// (collective): the distributed solve of `d`'s grid and look-ahead, then every rank reduces
/// its own tiles with the accumulators of apsp::compute_metrics and MPI reductions combine the
/// per-vertex partials and graph totals; no rank holds the n x n matrix and nothing is written
/// (`d`'s output files must be empty). The result, on every rank, has the plan that ran as
/// executed_plan. Float sums are added per rank, then across ranks, so their last digits may
/// differ from one process's. `m.progress` (else `o.progress`) is called after every round.
/// Errors as for compute_metrics, raised on every rank alike.
[[nodiscard]] graph_metrics compute_metrics(const session& s, const graph& g,
                                            const solve_options& o, const metrics_options& m,
                                            const options& d);

/// Runs `p` (from make_plan on these ranks, for this graph and these options) as it is: the
/// grid, block, back end of the ranks and look-ahead are the plan's, not decided again.
[[nodiscard]] summary solve(const session& s, const graph& g, const plan& p, const solve_options& o,
                            const options& d);

} // namespace apsp::distributed

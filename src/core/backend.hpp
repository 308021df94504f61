#pragma once
// The interface every back end implements (the row engines' is core/row_sink.hpp). Internal:
// not installed.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/solve.hpp"
#include "apsp/types.hpp"
#include "core/matrix_partials.hpp"
#include "core/tuning.hpp"

namespace apsp::cpu {
template <class W> struct contraction_hierarchy;
template <class T> struct rphast_targets;
} // namespace apsp::cpu

namespace apsp::detail {

/// Takes the reductions of a solved matrix from a back end that makes them where the matrix
/// lives (backend::reduces_where_solved), for the metrics; take() may be called from several
/// threads, one block of rows at a time.
class matrix_reduction {
public:
  virtual ~matrix_reduction() = default;
  /// What to reduce.
  [[nodiscard]] virtual metrics_request request() const = 0;
  /// A block of rows reduced (throws internal_error for a type the metrics were not set up
  /// for).
  virtual void take(const matrix_partials<std::int32_t>& p) = 0;
  virtual void take(const matrix_partials<float>& p) = 0;
};

/// What a back end needs besides the matrices: progress/cancel, the weights' facts and the
/// tuning record (a copy of current_tuning() when the context is made).
class run_context {
public:
  run_context(const solve_options& options, std::int64_t n, bool negative_weights,
              const graph* initial_edges = nullptr)
      : options_(options), n_(n), negative_weights_(negative_weights),
        initial_edges_(initial_edges), start_(std::chrono::steady_clock::now()) {}
  /// Non-null when the back end said builds_initial_matrix(): the matrix passed to run() is
  /// then unset, and the back end builds it from these edges (as fill_initial would).
  [[nodiscard]] const graph* initial_edges() const noexcept { return initial_edges_; }

  /// Integer types must clamp sums at -infinity (a negative cycle would otherwise overflow).
  [[nodiscard]] bool negative_weights() const noexcept { return negative_weights_; }
  /// Some weight has a fraction (weight_facts::has_fraction; false when not told).
  [[nodiscard]] bool fractional_weights() const noexcept { return fractional_weights_; }
  void set_fractional_weights(bool f) noexcept { fractional_weights_ = f; }
  [[nodiscard]] const solve_options& options() const noexcept { return options_; }
  /// The developer knobs of this solve (core/tuning.hpp).
  [[nodiscard]] const ::apsp::detail::tuning& tuning() const noexcept { return tuning_; }
  [[nodiscard]] std::int64_t n() const noexcept { return n_; }

  /// A hash of the input (graph or initial matrix), set when the options ask for checkpoints or
  /// a resume; checkpoints record it, and a resume must match it.
  void set_input_hash(std::uint64_t h) noexcept { input_hash_ = h; }
  [[nodiscard]] std::uint64_t input_hash() const noexcept { return input_hash_; }

  /// Non-null when the solved matrix goes to these reductions where it lives instead of into
  /// the matrix passed to run() (which is then unset): backend::reduces_where_solved.
  [[nodiscard]] matrix_reduction* reduction() const noexcept { return reduction_; }
  void set_reduction(matrix_reduction* r) noexcept { reduction_ = r; }

  /// Call after each pivot round from the orchestrating thread. Throws cancelled_error when the
  /// progress callback returns false.
  void round_done(std::int64_t rounds_done, std::int64_t rounds_total);
  /// For engines that make rows: `sources` rows in rounds of `per_round`, so that round_done
  /// reports sources and their rate instead of Floyd-Warshall's updates.
  void count_sources(std::int64_t sources, std::int64_t per_round) noexcept {
    sources_total_ = sources;
    sources_per_round_ = per_round < 1 ? 1 : per_round;
  }
  /// Announces a stage before the counted work (progress_info::stage); throws cancelled_error
  /// when the progress callback returns false.
  void stage(const std::string& what);
  /// Reports something that went wrong without stopping the solve (solve_options::warning).
  void warn(const std::string& sentence) const;

private:
  const solve_options& options_;
  std::int64_t n_;
  bool negative_weights_;
  bool fractional_weights_ = false;
  const graph* initial_edges_;
  matrix_reduction* reduction_ = nullptr;
  std::uint64_t input_hash_ = 0;
  std::int64_t sources_total_ = 0; ///< count_sources: 0 when the rounds are not rows
  std::int64_t sources_per_round_ = 1;
  std::chrono::steady_clock::time_point start_;
  ::apsp::detail::tuning tuning_ = current_tuning();
};

class backend {
public:
  virtual ~backend() = default;
  [[nodiscard]] virtual backend_kind kind() const noexcept = 0;
  /// Whether it can run here and on what (device name, or the reason it cannot).
  [[nodiscard]] virtual backend_status status() const = 0;
  /// Tile size, rounds and memory for an n-vertex solve; allocates nothing.
  [[nodiscard]] virtual plan make_plan(std::int64_t n, const solve_options& options) const = 0;
  /// Whether run() under plan `p` builds the initial matrix itself from the graph's edges
  /// (run_context::initial_edges) rather than reading a filled one: the cuda back end does, on
  /// the device.
  [[nodiscard]] virtual bool builds_initial_matrix(const plan& p) const {
    (void)p;
    return false;
  }
  /// Whether run() under plan `p` can hand the solved matrix to run_context::reduction() where
  /// it lives (a GPU), building the initial matrix from the edges, so that no n x n matrix is
  /// made in host memory.
  [[nodiscard]] virtual bool reduces_where_solved(const plan& p) const {
    (void)p;
    return false;
  }
  /// Turns `p` into its packed 16-bit driver where the back end has one for p's driver (the
  /// planning then derives plan::narrow); else leaves it. Called by the planning when packed
  /// 16-bit arithmetic is asked for and provably exact for the graph's weights (every value,
  /// "no path" = narrow_infinity included, fits with INF + INF < 2^15), or required.
  virtual void plan_packed16(plan& p) const { (void)p; }
  /// All pairs in place on `d` (Floyd-Warshall, or the algorithm the plan names) (n x n, diagonal
  /// already min(0, self-loop), infinity = no edge; unset when initial edges are given). When `via`
  /// is non-null it has the same n and the back end fills every element.
  virtual void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) = 0;
};

[[nodiscard]] std::unique_ptr<backend> make_reference_backend();
/// The back end that runs plan `p`'s driver (stateless, or holding the plan's analysis); throws
/// invalid_argument_error for a plan without a driver.
[[nodiscard]] std::unique_ptr<backend> backend_for(const plan& p);
[[nodiscard]] std::unique_ptr<backend> make_cpu_backend();
/// Johnson's algorithm on the cpu (kind() is cpu; its plans say algorithm_kind::johnson).
[[nodiscard]] std::unique_ptr<backend> make_johnson_backend();

// The supernodal Floyd-Warshall (src/cpu): what the core's engine choice asks of it, so that
// core names no cpu header.

/// kind() is cpu; its plans say algorithm_kind::supernodal. `ep`, when given, is the analysis
/// already made for the graph to be solved (the cost model makes it to choose); else run()
/// makes it.
[[nodiscard]] std::unique_ptr<backend>
make_supernodal_backend(std::shared_ptr<const ::apsp::cpu::elimination_plan> ep = nullptr);
/// The supernodal Floyd-Warshall on one GPU (src/cuda; kind() is cuda, its plans say
/// algorithm_kind::supernodal and drivers::cuda_supernodal); never available without CUDA.
[[nodiscard]] std::unique_ptr<backend>
make_cuda_supernodal_backend(std::shared_ptr<const ::apsp::cpu::elimination_plan> ep = nullptr);
/// PHAST's sweeps on one GPU for the metrics (src/cuda/cuda_phast.cpp; drivers::cuda_phast,
/// int32): run() builds the hierarchy from run_context::initial_edges and hands its rows'
/// reductions to run_context::reduction(); never available without CUDA.
[[nodiscard]] std::unique_ptr<backend> make_cuda_phast_backend();
/// RPHAST's table on one GPU (src/cuda/rphast_gpu.cpp; drivers::cuda_table, int32): the rows
/// of `sources` to `targets` (vertex ids) from the hierarchy `ch` (reweighted by potentials
/// `h`, empty: none) and the targets' closure `sel`, into `out` (row-major), as
/// cpu::rphast_rows makes them; throws backend_unavailable_error without CUDA or a device.
void rphast_rows_on_gpu(const ::apsp::cpu::contraction_hierarchy<std::int32_t>& ch,
                        const ::apsp::cpu::rphast_targets<std::int32_t>& sel,
                        const std::vector<std::int32_t>& h, std::span<const std::int32_t> sources,
                        std::span<const std::int32_t> targets, const drivers::cuda_table& how,
                        std::int32_t* out);
/// Whether the analysis orders by nested dissection (the build has METIS).
[[nodiscard]] bool supernodal_has_nested_dissection() noexcept;
/// The analysis of `g` (n vertices): order, steps and fill, bounded by supernodal_fill_limit.
[[nodiscard]] std::shared_ptr<const ::apsp::cpu::elimination_plan> analyse_supernodal(std::int64_t n,
                                                                            const graph& g);
/// The min-plus updates an analysis will cost.
[[nodiscard]] double supernodal_updates(const ::apsp::cpu::elimination_plan& ep) noexcept;
/// Throws invalid_argument_error (saying why and what to use instead) when the analysis stopped
/// because the graph has no small separators.
void expect_supernodal_pays(const ::apsp::cpu::elimination_plan& ep);

/// A negative cycle found by Floyd-Warshall (which names vertices on cycles) again, with one
/// cycle in order and its weight, found on `g`'s edges by the cpu's Bellman-Ford potentials.
[[noreturn]] void rethrow_with_one_cycle(const graph& g, const negative_cycle_error& found);
/// Defined in src/cuda when built with CUDA, else by a stand-in that is never available.
[[nodiscard]] std::unique_ptr<backend> make_cuda_backend();
/// The cuda back end that planning and solve() use: make_cuda_backend()'s, or the stand-in a
/// test set with set_cuda_backend_for_tests.
[[nodiscard]] std::unique_ptr<backend> current_cuda_backend();
/// Tests: `make` gives the cuda back end instead of make_cuda_backend (a fake GPU, e.g. one that
/// counts its planner's calls); an empty function restores it.
void set_cuda_backend_for_tests(std::function<std::unique_ptr<backend>()> make);
/// apsp::release_devices for the cuda back end (a no-op in builds without CUDA).
void release_cuda_devices() noexcept;

/// "No path" in packed 16-bit arithmetic: 2^14-1, so INF + INF fits in a signed 16-bit lane.
inline constexpr std::int32_t narrow_infinity = 16383;

/// One relaxation d = min(d, a + b), with sums clamped at -infinity for integer types when
/// `Clamp` (graphs with negative weights), so negative cycles cannot overflow.
template <bool Clamp, class T> inline T relax(T d, T a, T b) noexcept {
  T s = a + b;
  if constexpr (Clamp && std::is_integral_v<T>) {
    constexpr T lo = -weight_traits<T>::infinity;
    s = s < lo ? lo : s;
  }
  return s < d ? s : d;
}

} // namespace apsp::detail

#pragma once
// Rows of distances without the matrix (apsp::compute_metrics): the row-sink interface that the
// core's reduction implements and the cpu's row engines (Dijkstra's rows, PHAST's sweeps) feed,
// apart from the back-end interface (core/backend.hpp). Internal: not installed.

#include <cstdint>
#include <string_view>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/types.hpp"

namespace apsp::detail {

class run_context;
struct tuning;

/// The rows of sources first .. first + count - 1 as a PHAST sweep leaves them: by sweep
/// position, not by vertex, and in reduced weights. With t = vertex_at[p] and s = first + k
/// (k < count <= stride), d(s, t) = values[p * stride + k] + h(t) - h(s), where
/// h(t) = potential_at[p] (none: 0), unless values[p * stride + k] >= infinity (no path); the
/// diagonal is 0. position and vertex_at invert each other and are the same on every call of
/// a run.
template <class T> struct sweep_rows {
  std::int64_t first;
  int count;
  std::int64_t n;
  const T* values; ///< n * stride, by position
  int stride;
  const std::int32_t* position;  ///< position[v], n values
  const std::int32_t* vertex_at; ///< vertex_at[p], n values
  const T* potential_at;         ///< h(vertex_at[p]), n values; null when there are none
};

/// Takes rows of distances, one source at a time, from several threads.
template <class T> class row_sink {
public:
  virtual ~row_sink() = default;
  /// Before the first row: how many threads will call take() (worker ids 0..workers-1).
  virtual void start(int workers) = 0;
  /// The distances from `source` to every vertex (n values, weight_traits<T>::infinity where
  /// unreachable, 0 at the source), on thread `worker`; `row` is valid during the call only.
  virtual void take(int worker, std::int64_t source, const T* row) = 0;
  /// A sweep's rows (sweep_rows), on thread `worker`. By default each row is put back in
  /// vertex order and true distances in `scratch` (kept by the caller from call to call, n *
  /// count values once used) and goes to take(); a sink that reduces rows in any column order
  /// overrides it to skip that pass and its buffer.
  virtual void take_sweep(int worker, const sweep_rows<T>& rows, std::vector<T>& scratch) {
    constexpr T inf = weight_traits<T>::infinity;
    const auto n = static_cast<std::size_t>(rows.n);
    const auto stride = static_cast<std::size_t>(rows.stride);
    const auto count = static_cast<std::size_t>(rows.count);
    scratch.resize(n * count);
    for (std::size_t k = 0; k < count; ++k) {
      const auto s = static_cast<std::size_t>(rows.first) + k;
      const T hs = rows.potential_at ? rows.potential_at[rows.position[s]] : T{0};
      T* out = scratch.data() + k * n;
      for (std::size_t t = 0; t < n; ++t) {
        const auto p = static_cast<std::size_t>(rows.position[t]);
        const T dp = rows.values[p * stride + k];
        const T ht = rows.potential_at ? rows.potential_at[p] : T{0};
        out[t] = dp >= inf ? inf : static_cast<T>(dp + (ht - hs));
      }
      out[s] = T{0};
      take(worker, rows.first + static_cast<std::int64_t>(k), out);
    }
  }
};

/// How dijkstra_rows makes its rows (the same values either way).
enum class row_engine {
  dijkstra, ///< Dijkstra from every source
  phast     ///< a contraction hierarchy, then one upward search and sweeps per source (PHAST)
};

/// The engine dijkstra_rows should run for `edges` with weights of `type` under tuning `t`:
/// PHAST for integer types on large sparse graphs (src/cpu/phast.hpp's phast_pays) unless
/// t.cpu_phast is off; else Dijkstra. Decided once, by the planning.
[[nodiscard]] row_engine choose_row_engine(const graph& edges, dtype type, const tuning& t);

/// What the plan says of `e`: "Dijkstra in batches" or "contraction hierarchy sweeps (PHAST)".
[[nodiscard]] std::string_view row_engine_name(row_engine e) noexcept;

/// Dijkstra's rows from every vertex of `edges` (src/cpu), each row handed to `sink` as it is
/// made: Bellman-Ford potentials first when some weight is negative (negative_cycle_error naming
/// one cycle, as Johnson's solve), then thread_count(ctx.options()) threads, ctx.round_done after
/// every `batch` sources. `engine` (from choose_row_engine) makes them by Dijkstra or by PHAST;
/// returns the engine that ran: Dijkstra when the hierarchy outgrew its budget (graphs without
/// small separators). Memory: the graph (and its hierarchy) and O(n) per thread (O(16 n) for
/// PHAST's lanes), never a matrix.
template <class T>
row_engine dijkstra_rows(const graph& edges, std::int64_t batch, row_engine engine,
                         row_sink<T>& sink, run_context& ctx);

} // namespace apsp::detail

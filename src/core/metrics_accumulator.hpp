#pragma once
// The reduction behind apsp::compute_metrics and apsp::metrics_of: rows of distances, from any
// engine and in any order, folded into per-vertex and per-thread sums. Internal: not installed.
//
// A row (the distances from one source s) is complete when it arrives, so the out-metrics of s
// (its eccentricity, reach, sum and sum of inverses) are finished at once, by the thread that
// holds the row. The in-metrics of a vertex v need column v, which every row touches: each
// thread keeps its own column sums, merged at the end. Memory: O(n) per thread. Under MPI each
// rank takes its tiles' parts of rows, and combine() reduces the per-vertex partials of all
// ranks (per row: max and sums over process columns; per column: over process rows).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/metrics.hpp"
#include "apsp/types.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/matrix_partials.hpp"
#include "core/metrics_histogram.hpp"
#include "core/row_sink.hpp"
#include "core/sweep_reduction.hpp"

namespace apsp::detail {

/// What a metrics run refuses (invalid_argument_error): outputs and checkpoints belong to a
/// solve that keeps a matrix; histogram_bins < 1, negative threads or block.
void check_metrics_options(const solve_options& s, const metrics_options& m);

/// Whether `v` is a path length, not "no path" (integer types: their infinity; floats: +inf).
template <class T> [[nodiscard]] inline bool finite_distance(T v) noexcept {
  return v < weight_traits<T>::infinity;
}

template <class T> class metrics_accumulator final : public row_sink<T> {
public:
  metrics_accumulator(std::int64_t n, const metrics_options& o)
      : n_(n), options_(o),
        columns_wanted_(contains(o.which, metric::in_eccentricity) ||
                        contains(o.which, metric::closeness) ||
                        contains(o.which, metric::harmonic) ||
                        contains(o.which, metric::reachable)),
        histogram_wanted_(contains(o.which, metric::histogram)),
        out_max_(size(), 0), reach_out_(size(), 0), row_sum_(size(), 0), row_inverse_(size(), 0) {
    (void)histogram_builder(o.histogram_bins, true); // refuses a bad bin count before any row
  }

  void start(int workers) override {
    workers_.assign(static_cast<std::size_t>(std::max(1, workers)), worker_state(*this));
  }

  void take(int worker, std::int64_t source, const T* row) override {
    take_part(worker, source, row, n_, [](std::int64_t t) { return t; });
  }

  /// Part of row `source`: values[k] = d(source, column(k)) for k < count (a rank's share of the
  /// row, from its tiles; take() passes the whole row). One part per source per accumulator;
  /// the parts held by other processes join through combine().
  template <class Column>
  void take_part(int worker, std::int64_t source, const T* values, std::int64_t count,
                 Column column) {
    worker_state& w = workers_[static_cast<std::size_t>(worker)];
    to_vertex_order(w);
    row_state r;
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t t = column(k);
      const T v = values[k];
      if (t != source && finite_distance(v)) {
        column_state c = columns_wanted_ ? w.column(t) : column_state{};
        add_pair(w, r, c, v);
        if (columns_wanted_)
          w.set_column(t, c);
      }
    }
    finish_row(source, r);
  }

  /// A PHAST sweep's rows by position (sweep_rows), without putting them back in vertex order:
  /// the worker's column sums are kept by position from its first sweep on (finish() and
  /// combine() put them back), and each position's lanes are one vector operation per sum.
  /// Counts, maxima and the histogram are those of take() exactly; so are the distance
  /// sums while below 2^53 (whole numbers: exact in a double in any order); the sums of 1/d
  /// see their values in another order (a row's by position, a column's batch pairwise), the
  /// same on every run with the same batches per thread.
  void take_sweep(int worker, const sweep_rows<T>& rows, std::vector<T>& scratch) override {
    if constexpr (!std::is_integral_v<T>) {
      row_sink<T>::take_sweep(worker, rows, scratch);
    } else {
      switch (rows.stride) {
      case 1:
        return take_sweep_lanes<1>(worker, rows);
      case 4:
        return take_sweep_lanes<4>(worker, rows);
      case 8:
        return take_sweep_lanes<8>(worker, rows);
      case 16:
        return take_sweep_lanes<16>(worker, rows);
      default:
        row_sink<T>::take_sweep(worker, rows, scratch);
      }
    }
  }

  /// What a back end reduced where the matrix lives, on thread `worker` (as take() has it):
  /// the rows' out-metrics are finished, the columns' sums added to that worker's.
  void take(int worker, const matrix_partials<T>& p) {
    worker_state& w = workers_[static_cast<std::size_t>(worker)];
    to_vertex_order(w);
    for (std::size_t i = 0; i < p.row_max.size(); ++i) {
      const auto s = static_cast<std::size_t>(p.first_row) + i;
      out_max_[s] = p.row_max[i];
      reach_out_[s] = p.row_reach[i];
      row_sum_[s] = p.row_sum[i];
      row_inverse_[s] = p.row_inverse[i];
    }
    if (columns_wanted_) {
      const auto held = static_cast<std::int64_t>(p.column_reach.size());
      APSP_EXPECTS(held == 0 || p.share.global(held - 1) < n_, internal_error,
                   "a back end reduced columns past the matrix's last");
      w.add_columns(p.column_reach, p.column_max, p.column_sum, p.column_inverse,
                    [&share = p.share](std::int64_t k) { return share.global(k); });
    }
    if (histogram_wanted_) {
      w.histogram.merge(histogram_builder(options_.histogram_bins, std::is_integral_v<T>,
                                          p.histogram_exponent, p.histogram_counts,
                                          p.histogram_negative));
    }
  }

  /// The reductions a back end must make for take(partials), with "no path" above
  /// `path_limit` (metrics_request).
  [[nodiscard]] metrics_request request(double path_limit) const {
    return {columns_wanted_, histogram_wanted_ ? options_.histogram_bins : 0, path_limit};
  }

  /// Combines the accumulators of several processes, each of which took parts of rows (its
  /// tiles), so that finish() gives the metrics of all the parts on every process: `all`
  /// reduces this one's per-vertex arrays across them, element by element (all.max and all.sum
  /// on arrays of T, int, std::int64_t, std::uint64_t and double).
  template <class Reduce> void combine(Reduce&& all) {
    if (workers_.empty())
      start(1);
    for (worker_state& each : workers_)
      to_vertex_order(each);
    worker_state& w = workers_.front();
    for (std::size_t i = 1; i < workers_.size(); ++i) {
      const worker_state& other = workers_[i];
      w.add_columns(other.in_count, other.in_max, other.in_sum, other.in_inverse);
      w.histogram.merge(other.histogram);
    }
    workers_.resize(1, worker_state(*this));
    all.max(out_max_.data(), size());
    all.sum(reach_out_.data(), size());
    all.sum(row_sum_.data(), size());
    all.sum(row_inverse_.data(), size());
    if (columns_wanted_) {
      all.sum(w.in_count.data(), size());
      all.max(w.in_max.data(), size());
      all.sum(w.in_sum.data(), size());
      all.sum(w.in_inverse.data(), size());
    }
    if (histogram_wanted_)
      w.histogram.combine(all);
  }

  /// The metrics asked for, after every row was taken (a source never taken counts as reaching
  /// nothing).
  [[nodiscard]] graph_metrics finish() const;

private:
  /// A column's sums (in-metrics) while a row or a batch of rows adds to them.
  struct column_state {
    std::int64_t count = 0;
    T max = 0;
    double sum = 0;
    double inverse = 0;
  };

  struct worker_state {
    explicit worker_state(const metrics_accumulator& a)
        : in_count(a.columns_wanted_ ? a.size() : 0, 0),
          in_max(a.columns_wanted_ ? a.size() : 0, T{0}),
          in_sum(a.columns_wanted_ ? a.size() : 0, 0),
          in_inverse(a.columns_wanted_ ? a.size() : 0, 0),
          histogram(a.options_.histogram_bins, std::is_integral_v<T>) {}
    /// Adds another's column counts and sums, and takes the larger maxima: entry k is column
    /// column(k) (every column in order by default).
    template <class Column = std::identity>
    void add_columns(const std::vector<std::int64_t>& count, const std::vector<T>& max,
                     const std::vector<double>& sum, const std::vector<double>& inverse,
                     Column column = {}) {
      for (std::size_t k = 0; k < count.size(); ++k) {
        const auto v = static_cast<std::size_t>(column(static_cast<std::int64_t>(k)));
        in_count[v] += count[k];
        in_max[v] = std::max(in_max[v], max[k]);
        in_sum[v] += sum[k];
        in_inverse[v] += inverse[k];
      }
    }
    /// Reorders the columns from vertex to sweep position order (`to_position`) or back.
    void permute_columns(const std::vector<std::int32_t>& vertex_at, bool to_position) {
      auto move = [&](auto& a) {
        const auto old = a;
        for (std::size_t p = 0; p < a.size(); ++p) {
          const auto v = static_cast<std::size_t>(vertex_at[p]);
          if (to_position)
            a[p] = old[v];
          else
            a[v] = old[p];
        }
      };
      move(in_count);
      move(in_max);
      move(in_sum);
      move(in_inverse);
    }
    [[nodiscard]] column_state column(std::int64_t t) const {
      const auto k = static_cast<std::size_t>(t);
      return {in_count[k], in_max[k], in_sum[k], in_inverse[k]};
    }
    void set_column(std::int64_t t, const column_state& c) {
      const auto k = static_cast<std::size_t>(t);
      in_count[k] = c.count;
      in_max[k] = c.max;
      in_sum[k] = c.sum;
      in_inverse[k] = c.inverse;
    }
    std::vector<std::int64_t> in_count;
    std::vector<T> in_max;
    std::vector<double> in_sum;
    std::vector<double> in_inverse;
    histogram_builder histogram;
    /// Columns indexed by sweep position (take_sweep), not by vertex.
    bool by_position = false;
    /// take_sweep's histogram counts, max_sweep_lanes x bins, by lane (flushed into `histogram`
    /// after each sweep), and the exponent of their width: the widest its values needed.
    std::vector<std::uint64_t> lane_counts;
    int lane_exponent = 0;
  };

  /// Puts a worker's columns back in vertex order after sweeps (a run that mixes take() and
  /// take_sweep() on one worker; combine()).
  void to_vertex_order(worker_state& w) const {
    if (!w.by_position)
      return;
    if (columns_wanted_)
      w.permute_columns(vertex_at_, false);
    w.by_position = false;
  }

  [[nodiscard]] std::size_t size() const noexcept { return static_cast<std::size_t>(n_); }

  /// A row's out-metrics while its values come in.
  struct row_state {
    T out_max = 0;
    std::int64_t reach = 0;
    double sum = 0;
    double inverse = 0;
  };

  /// One finite pair (v = d(source, t), t != source): its row's sums, column t's (`c`, held
  /// by the caller) and the histogram.
  [[gnu::always_inline]] void add_pair(worker_state& w, row_state& r, column_state& c, T v) {
    // 1/d of the pair (0 for d <= 0, which the inverse sums skip), made once for its row and
    // its column.
    const double inverse_d = v > T{0} ? 1.0 / static_cast<double>(v) : 0.0;
    ++r.reach;
    r.out_max = std::max(r.out_max, v);
    r.sum += static_cast<double>(v);
    if (v > T{0})
      r.inverse += inverse_d;
    if (columns_wanted_) {
      ++c.count;
      c.max = std::max(c.max, v);
      c.sum += static_cast<double>(v);
      if (v > T{0})
        c.inverse += inverse_d;
    }
    if (histogram_wanted_) {
      if constexpr (std::is_integral_v<T>)
        w.histogram.add(static_cast<std::int64_t>(v));
      else
        w.histogram.add(static_cast<double>(v));
    }
  }

  template <int K> void take_sweep_lanes(int worker, const sweep_rows<T>& rows) {
    worker_state& w = workers_[static_cast<std::size_t>(worker)];
    if (!w.by_position) {
      {
        const std::lock_guard<std::mutex> lock(vertex_at_mutex_);
        if (vertex_at_.empty())
          vertex_at_.assign(rows.vertex_at, rows.vertex_at + rows.n);
      }
      if (columns_wanted_)
        w.permute_columns(vertex_at_, true);
      w.by_position = true;
    }
    sweep_sums<T> sums;
    sums.columns = columns_wanted_;
    if (columns_wanted_) {
      sums.in_count = w.in_count.data();
      sums.in_max = w.in_max.data();
      sums.in_sum = w.in_sum.data();
      sums.in_inverse = w.in_inverse.data();
    }
    if (histogram_wanted_) {
      const auto bins = static_cast<std::size_t>(options_.histogram_bins);
      if (w.lane_counts.empty())
        w.lane_counts.assign(static_cast<std::size_t>(max_sweep_lanes) * bins, 0);
      sums.bins = bins;
      sums.lane_counts = w.lane_counts.data();
      sums.lane_exponent = &w.lane_exponent;
    }
    sweep_row_lanes<T, K> r;
    const std::uint64_t negatives = reduce_sweep<T, K>(rows, sums, r); // src/cpu
    if (histogram_wanted_)
      flush_lane_counts(w, negatives);
    for (int k = 0; k < rows.count; ++k)
      finish_row(rows.first + k,
                 {r.out_max[k], static_cast<std::int64_t>(r.reach[k]), r.sum[k], r.inverse[k]});
  }

  /// Adds the per-lane counts of a sweep to the worker's histogram and clears them: the same
  /// state as adding the values one by one (a builder's state depends on the values only).
  void flush_lane_counts(worker_state& w, std::uint64_t negative) const {
    const auto bins = static_cast<std::size_t>(options_.histogram_bins);
    std::vector<std::uint64_t> counts(bins, 0);
    for (std::size_t k = 0; k < static_cast<std::size_t>(max_sweep_lanes); ++k) {
      for (std::size_t i = 0; i < bins; ++i) {
        counts[i] += w.lane_counts[k * bins + i];
        w.lane_counts[k * bins + i] = 0;
      }
    }
    w.histogram.merge(histogram_builder(options_.histogram_bins, true, w.lane_exponent,
                                        std::move(counts), negative));
  }

  void finish_row(std::int64_t source, const row_state& r) {
    const auto s = static_cast<std::size_t>(source);
    out_max_[s] = r.out_max;
    reach_out_[s] = r.reach;
    row_sum_[s] = r.sum;
    row_inverse_[s] = r.inverse;
  }

  std::int64_t n_;
  metrics_options options_;
  bool columns_wanted_;
  bool histogram_wanted_;
  // Per source, written by the one thread that took its row.
  std::vector<T> out_max_;
  std::vector<std::int64_t> reach_out_;
  std::vector<double> row_sum_;
  std::vector<double> row_inverse_;
  std::vector<worker_state> workers_;
  /// The sweeps' vertex_at (take_sweep), learnt on the first one: the order of the columns of
  /// the workers that took sweeps.
  std::vector<std::int32_t> vertex_at_;
  std::mutex vertex_at_mutex_;
};

template <class T> graph_metrics metrics_accumulator<T>::finish() const {
  const metric_set which = options_.which;
  const std::size_t n = size();
  graph_metrics g;
  g.n = n_;
  g.computed = which;
  // Graph-level sums in vertex order, each row's own sum made in column order: the same
  // result whichever thread took which row.
  std::uint64_t pairs = 0;
  double total = 0;
  double inverse = 0;
  double diameter = 0;
  double radius = 0;
  bool any_reach = false;
  for (std::size_t v = 0; v < n; ++v) {
    pairs += static_cast<std::uint64_t>(reach_out_[v]);
    total += row_sum_[v];
    inverse += row_inverse_[v];
    const auto ecc = static_cast<double>(out_max_[v]);
    diameter = v == 0 ? ecc : std::max(diameter, ecc);
    if (reach_out_[v] > 0) {
      radius = any_reach ? std::min(radius, ecc) : ecc;
      any_reach = true;
    }
  }
  if (contains(which, metric::out_eccentricity))
    g.out_eccentricity.assign(out_max_.begin(), out_max_.end());
  if (contains(which, metric::diameter))
    g.diameter = diameter;
  if (contains(which, metric::radius))
    g.radius = radius;
  if (contains(which, metric::reachable_pairs))
    g.reachable_pairs = pairs;
  if (contains(which, metric::average_path_length))
    g.average_path_length = pairs > 0 ? total / static_cast<double>(pairs) : 0.0;
  if (contains(which, metric::global_efficiency)) {
    const double ordered = static_cast<double>(n_) * static_cast<double>(n_ - 1);
    g.global_efficiency = n_ > 1 ? inverse / ordered : 0.0;
  }
  if (columns_wanted_) {
    worker_state all(*this);
    for (const worker_state& w : workers_) {
      if (w.by_position)
        all.add_columns(w.in_count, w.in_max, w.in_sum, w.in_inverse,
                        [this](std::int64_t p) { return vertex_at_[static_cast<std::size_t>(p)]; });
      else
        all.add_columns(w.in_count, w.in_max, w.in_sum, w.in_inverse);
    }
    const std::vector<std::int64_t>& count = all.in_count;
    const std::vector<T>& max = all.in_max;
    const std::vector<double>& sum = all.in_sum;
    std::vector<double>& inv = all.in_inverse;
    if (contains(which, metric::in_eccentricity))
      g.in_eccentricity.assign(max.begin(), max.end());
    if (contains(which, metric::harmonic))
      g.harmonic = std::move(inv);
    if (contains(which, metric::reachable)) {
      g.reach_out = reach_out_;
      g.reach_in = count;
    }
    if (contains(which, metric::closeness)) {
      g.closeness.assign(n, 0.0);
      for (std::size_t v = 0; v < n; ++v) {
        const auto r = static_cast<double>(count[v]);
        if (sum[v] > 0 && n_ > 1) {
          g.closeness[v] = r / sum[v];
          if (options_.wf_improved)
            g.closeness[v] *= r / static_cast<double>(n_ - 1);
        }
      }
    }
  }
  if (histogram_wanted_) {
    histogram_builder all(options_.histogram_bins, std::is_integral_v<T>);
    for (const worker_state& w : workers_)
      all.merge(w.histogram);
    g.histogram = all.result();
  }
  return g;
}

/// Where "no path" starts among solved distances of type T (metrics_request::path_limit).
template <class T> double path_limit(const weight_facts& facts) {
  if constexpr (std::is_integral_v<T>) {
    constexpr auto below_infinity = static_cast<double>(weight_traits<T>::infinity - 1);
    return facts.has_negative ? std::min(facts.distance_bound, below_infinity) : below_infinity;
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}

/// The accumulator behind a back end that reduces its matrix where it was solved (one process,
/// or a GPU rank's tiles): blocks of rows taken one at a time, the negative diagonal entries
/// counted.
template <class T> class metrics_reduction_sink final : public matrix_reduction {
public:
  metrics_reduction_sink(metrics_accumulator<T>& acc, double path_limit)
      : acc_(acc), request_(acc.request(path_limit)) {
    acc_.start(1);
  }
  [[nodiscard]] metrics_request request() const override { return request_; }
  void take(const matrix_partials<std::int32_t>& p) override { add(p); }
  void take(const matrix_partials<float>& p) override { add(p); }
  [[nodiscard]] const negative_diagonal& negative() const noexcept { return negative_; }

private:
  template <class U> void add(const matrix_partials<U>& p) {
    if constexpr (std::is_same_v<U, T>) {
      const std::lock_guard lock(mutex_);
      acc_.take(0, p);
      negative_.count += p.negative_diagonal_count;
      for (const std::int64_t v : p.negative_diagonal) {
        if (negative_.first.size() < negative_diagonal::kept)
          negative_.first.push_back(v);
      }
    } else {
      throw internal_error("a back end reduced a matrix of another type than the metrics'");
    }
  }

  metrics_accumulator<T>& acc_;
  metrics_request request_;
  negative_diagonal negative_;
  std::mutex mutex_;
};

} // namespace apsp::detail

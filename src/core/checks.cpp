#include "core/checks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <omp.h>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "core/backend.hpp"

namespace apsp::detail {
namespace {

template <class T> bool is_finite_entry(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isfinite(v);
  } else {
    return v < weight_traits<T>::infinity;
  }
}

/// The matrix holds weights and "no edge" (+inf, or the integer no-path value): NaN, -inf or an
/// integer above the no-path value would be read as some weight by one back end and another by
/// the next.
template <class T> bool is_weight_or_no_path(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return !std::isnan(v) && v != -std::numeric_limits<T>::infinity();
  else
    return v <= weight_traits<T>::infinity;
}

template <class T> [[noreturn]] void fail_entry(std::int64_t i, std::int64_t j, T v) {
  std::string what;
  std::string no_path = "inf";
  if constexpr (std::is_floating_point_v<T>) {
    what = std::isnan(v) ? "NaN" : "-inf";
  } else {
    what = std::to_string(v);
    no_path = std::to_string(weight_traits<T>::infinity);
  }
  throw invalid_input_error("matrix entry (" + std::to_string(i) + ", " + std::to_string(j) +
                            ") is " + what + "; entries are weights or the no-path value (" +
                            no_path + ") for no edge");
}

} // namespace

weight_facts analyze_weights(const graph& g, double enough) {
  weight_facts facts;
  const auto& w = g.weights();
  const auto m = static_cast<std::int64_t>(w.size());
  double max_abs = 0;
  bool negative = false;
#pragma omp parallel for reduction(max : max_abs) reduction(|| : negative) schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    negative = negative || w[static_cast<std::size_t>(e)] < 0;
    max_abs = std::max(max_abs, std::fabs(w[static_cast<std::size_t>(e)]));
  }
  facts.has_negative = negative;
  if (m == 0)
    return facts;
  // One vertex has no paths, but its self-loops are still cast to the type: counting one
  // weight refuses those the type cannot hold.
  const auto keep = std::max<std::int64_t>(1, std::min<std::int64_t>(g.num_vertices() - 1, m));
  // (n-1) * max|w| is a valid bound and costs nothing more; the exact "n-1 largest" sum needs a
  // selection over all m weights, so it is only computed when the cheap bound is not enough.
  facts.distance_bound = max_abs * static_cast<double>(keep);
  if (facts.distance_bound < enough)
    return facts;
  std::vector<double> mags(w.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    mags[static_cast<std::size_t>(e)] = std::fabs(w[static_cast<std::size_t>(e)]);
  }
  std::nth_element(mags.begin(), mags.begin() + (keep - 1), mags.end(), std::greater<>());
  double sum = 0;
  for (std::int64_t e = 0; e < keep; ++e)
    sum += mags[static_cast<std::size_t>(e)];
  facts.distance_bound = sum;
  return facts;
}

double bound_needed(dtype type, bool narrow_requested) {
  if (narrow_requested && type == dtype::int32)
    return narrow_infinity;
  if (type == dtype::int32)
    return static_cast<double>(weight_traits<std::int32_t>::infinity) / 3;
  if (type == dtype::int64)
    return static_cast<double>(weight_traits<std::int64_t>::infinity) / 3;
  if (type == dtype::float32)
    return std::numeric_limits<float>::max();
  return HUGE_VAL; // float64: weights of at most 2^53 never reach its largest value
}

weight_facts analyze_weights(const any_matrix& m) {
  return std::visit(
      [](const auto& d) {
        weight_facts facts;
        double max_abs = 0;
        const std::int64_t n = d.n();
        using T = typename std::decay_t<decltype(d)>::value_type;
        for (std::int64_t i = 0; i < n; ++i) {
          const auto* row = d.row(i);
          for (std::int64_t j = 0; j < n; ++j) {
            const auto v = row[j];
            if (!is_weight_or_no_path(v))
              fail_entry(i, j, v);
            if (!is_finite_entry(v))
              continue;
            if (v < 0)
              facts.has_negative = true;
            if (i != j)
              max_abs = std::max(max_abs, std::fabs(static_cast<double>(v)));
          }
        }
        facts.distance_bound = n > 1 ? max_abs * static_cast<double>(n - 1) : 0.0;
        return facts;
      },
      m);
}

std::int64_t count_arcs(const any_matrix& m) {
  return std::visit(
      [](const auto& d) {
        std::int64_t arcs = 0;
        const std::int64_t n = d.n();
#pragma omp parallel for reduction(+ : arcs) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
          const auto* row = d.row(i);
          for (std::int64_t j = 0; j < n; ++j)
            arcs += (j != i && is_finite_entry(row[j])) ? 1 : 0;
        }
        return arcs;
      },
      m);
}

void check_representable(const weight_facts& facts, dtype type, bool all_integral) {
  if (type == dtype::float32 && facts.distance_bound >= std::numeric_limits<float>::max()) {
    throw overflow_risk_error("path lengths could reach " + std::to_string(facts.distance_bound) +
                              ", beyond float32's largest value (they would read as no path); "
                              "solve with --dtype float64");
  }
  if (!is_integral(type))
    return;
  if (!all_integral) {
    throw invalid_input_error("the graph has non-integer weights; solve with --dtype float32 or "
                              "float64");
  }
  const long long no_path = type == dtype::int32 ? weight_traits<std::int32_t>::infinity
                                                 : weight_traits<std::int64_t>::infinity;
  const auto inf = static_cast<double>(no_path);
  // Without negative weights a distance only has to stay below infinity. With them, sums with
  // infinity drift down by up to 2 * bound, and must still be told apart from real distances.
  const double limit = facts.has_negative ? inf / 3.0 : inf;
  if (facts.distance_bound >= limit) {
    char reach[32];
    if (facts.distance_bound < 9e18)
      std::snprintf(reach, sizeof reach, "%lld", static_cast<long long>(facts.distance_bound));
    else
      std::snprintf(reach, sizeof reach, "%.17g", facts.distance_bound);
    throw overflow_risk_error(
        std::string("path lengths could reach ") + reach + ", too close to " +
        std::string(to_string(type)) + "'s no-path value " + std::to_string(no_path) +
        "; solve with " +
        (type == dtype::int32 ? "--dtype int64 or float64 (or float32)" : "--dtype float64"));
  }
}

template <class T>
void fill_initial_tiles(const graph& g, const grid_layout& L, T* local,
                        const std::int32_t* relabel) {
  const std::int64_t rows = L.local_rows();
  const std::int64_t cols = L.local_cols();
  constexpr T inf = weight_traits<T>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) {
    T* row = local + i * cols;
    std::fill(row, row + cols, inf);
    const std::int64_t gi = L.global_row(i);
    if (L.owns_col(gi / L.b))
      row[L.local_col(gi)] = T{0};
  }
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  const auto edges = static_cast<std::int64_t>(w.size());
  // Parallel scatter; parallel edges meet in one cell, so the minimum is taken atomically.
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < edges; ++e) {
    const auto k = static_cast<std::size_t>(e);
    const std::int64_t row = relabel != nullptr ? relabel[src[k]] : src[k];
    const std::int64_t col = relabel != nullptr ? relabel[dst[k]] : dst[k];
    if (!L.holds(row, col))
      continue;
    std::atomic_ref<T> cell(local[L.local_row(row) * cols + L.local_col(col)]);
    const T v = static_cast<T>(w[k]);
    T old = cell.load(std::memory_order_relaxed);
    while (v < old && !cell.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
    }
  }
}

void fill_initial(const graph& g, any_matrix& d) {
  std::visit(
      [&](auto& m) {
        grid_layout whole;
        whole.n = m.n();
        whole.b = std::max<std::int64_t>(m.n(), 1);
        fill_initial_tiles(g, whole, m.data());
      },
      d);
}

void clamp_diagonal(any_matrix& d) {
  std::visit(
      [](auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        for (std::int64_t i = 0; i < m.n(); ++i) {
          T& v = m(i, i);
          if (!(v < T{0}))
            v = T{0}; // also replaces NaN
        }
      },
      d);
}

template <class T> negative_diagonal find_negative_diagonal(const grid_layout& L, const T* local) {
  negative_diagonal found;
  const std::int64_t cols = L.local_cols();
  for (std::int64_t t = 0; t < L.tiles(); ++t) {
    if (!L.owns_row(t) || !L.owns_col(t))
      continue;
    for (std::int64_t v = t * L.b; v < t * L.b + L.edge(t); ++v) {
      if (local[L.local_row(v) * cols + L.local_col(v)] < T{0}) {
        if (found.first.size() < negative_diagonal::kept)
          found.first.push_back(v);
        ++found.count;
      }
    }
  }
  return found;
}

void throw_negative_cycle(const negative_diagonal& found) {
  if (found.count == 0)
    return;
  std::string list;
  for (std::size_t k = 0; k < found.first.size() && k < 10; ++k) {
    list += (k ? ", " : "") + std::to_string(found.first[k]);
  }
  if (found.count > 10)
    list += ", ...";
  const std::string lie = found.count == 1 ? " vertex lies" : " vertices lie";
  throw negative_cycle_error("the graph has a negative cycle: " + std::to_string(found.count) +
                                 lie + " on negative cycles (0-based: " + list + ")",
                             found.first);
}

void check_negative_cycles(const any_matrix& d) {
  std::visit(
      [](const auto& m) {
        grid_layout whole;
        whole.n = m.n();
        whole.b = std::max<std::int64_t>(m.n(), 1);
        throw_negative_cycle(find_negative_diagonal(whole, m.data()));
      },
      d);
}

template <class T>
void normalize_unreachable_tiles(const grid_layout& L, T* local, std::int32_t* via,
                                 const weight_facts& facts) {
  if constexpr (std::is_integral_v<T>) {
    if (!facts.has_negative)
      return;
    const T bound = static_cast<T>(facts.distance_bound);
    const std::int64_t rows = L.local_rows();
    const std::int64_t cols = L.local_cols();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < rows; ++i) {
      T* row = local + i * cols;
      std::int32_t* via_row = via != nullptr ? via + i * cols : nullptr;
      for (std::int64_t j = 0; j < cols; ++j) {
        if (row[j] > bound) {
          row[j] = weight_traits<T>::infinity;
          if (via_row != nullptr)
            via_row[j] = no_via;
        }
      }
    }
  } else {
    (void)L, (void)local, (void)via, (void)facts;
  }
}

void normalize_unreachable(any_matrix& d, via_matrix* via, const weight_facts& facts) {
  std::visit(
      [&](auto& m) {
        grid_layout whole;
        whole.n = m.n();
        whole.b = std::max<std::int64_t>(m.n(), 1);
        normalize_unreachable_tiles(whole, m.data(), via != nullptr ? via->data() : nullptr, facts);
      },
      d);
}

#define APSP_TILE_CHECKS(T)                                                                        \
  template void fill_initial_tiles(const graph&, const grid_layout&, T*, const std::int32_t*);     \
  template negative_diagonal find_negative_diagonal(const grid_layout&, const T*);                 \
  template void normalize_unreachable_tiles(const grid_layout&, T*, std::int32_t*,                 \
                                            const weight_facts&);
APSP_TILE_CHECKS(std::int32_t)
APSP_TILE_CHECKS(float)
APSP_TILE_CHECKS(std::int64_t)
APSP_TILE_CHECKS(double)
#undef APSP_TILE_CHECKS

} // namespace apsp::detail

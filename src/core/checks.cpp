#include "core/checks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

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
  if (m == 0 || g.num_vertices() < 2)
    return facts;
  const auto keep = std::min<std::int64_t>(g.num_vertices() - 1, m);
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
  return HUGE_VAL; // float types never need the bound: the cheap one is always enough
}

weight_facts analyze_weights(const any_matrix& m) {
  return std::visit(
      [](const auto& d) {
        weight_facts facts;
        double max_abs = 0;
        const std::int64_t n = d.n();
        for (std::int64_t i = 0; i < n; ++i) {
          const auto* row = d.row(i);
          for (std::int64_t j = 0; j < n; ++j) {
            const auto v = row[j];
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

void check_representable(const weight_facts& facts, dtype type, bool all_integral) {
  if (!is_integral(type))
    return;
  if (!all_integral) {
    throw invalid_input_error("the graph has non-integer weights; solve with --dtype float32 or "
                              "float64");
  }
  const double inf = type == dtype::int32
                         ? static_cast<double>(weight_traits<std::int32_t>::infinity)
                         : static_cast<double>(weight_traits<std::int64_t>::infinity);
  // Without negative weights a distance only has to stay below infinity. With them, sums with
  // infinity drift down by up to 2 * bound, and must still be told apart from real distances.
  const double limit = facts.has_negative ? inf / 3.0 : inf;
  if (facts.distance_bound >= limit) {
    throw overflow_risk_error("path lengths could reach " +
                              std::to_string(static_cast<long long>(facts.distance_bound)) +
                              ", too close to " + std::string(to_string(type)) +
                              "'s no-path value " + std::to_string(static_cast<long long>(inf)) +
                              "; solve with --dtype int64 or float64 (or float32)");
  }
}

void fill_initial(const graph& g, any_matrix& d) {
  std::visit(
      [&](auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        const std::int64_t n = m.n();
        constexpr T inf = weight_traits<T>::infinity;
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
          T* row = m.row(i);
          std::fill(row, row + n, inf);
          row[i] = T{0};
        }
        const auto& src = g.sources();
        const auto& dst = g.targets();
        const auto& w = g.weights();
        const auto edges = static_cast<std::int64_t>(w.size());
    // Parallel scatter; parallel edges meet in one cell, so the minimum is taken atomically.
#pragma omp parallel for schedule(static)
        for (std::int64_t e = 0; e < edges; ++e) {
          const auto k = static_cast<std::size_t>(e);
          std::atomic_ref<T> cell(m(src[k], dst[k]));
          const T v = static_cast<T>(w[k]);
          T old = cell.load(std::memory_order_relaxed);
          while (v < old && !cell.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
          }
        }
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

void check_negative_cycles(const any_matrix& d) {
  std::visit(
      [](const auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        std::vector<std::int64_t> on_cycle;
        std::int64_t count = 0;
        for (std::int64_t i = 0; i < m.n(); ++i) {
          if (m(i, i) < T{0}) {
            if (on_cycle.size() < 64)
              on_cycle.push_back(i);
            ++count;
          }
        }
        if (count == 0)
          return;
        std::string list;
        for (std::size_t k = 0; k < on_cycle.size() && k < 10; ++k) {
          list += (k ? ", " : "") + std::to_string(on_cycle[k]);
        }
        if (count > 10)
          list += ", ...";
        throw negative_cycle_error("the graph has a negative cycle: " + std::to_string(count) +
                                       " vertices lie on negative cycles (0-based: " + list + ")",
                                   std::move(on_cycle));
      },
      d);
}

void normalize_unreachable(any_matrix& d, via_matrix* via, const weight_facts& facts) {
  if (!facts.has_negative)
    return;
  std::visit(
      [&](auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        if constexpr (std::is_integral_v<T>) {
          const T bound = static_cast<T>(facts.distance_bound);
          const std::int64_t n = m.n();
#pragma omp parallel for schedule(static)
          for (std::int64_t i = 0; i < n; ++i) {
            T* row = m.row(i);
            std::int32_t* via_row = via != nullptr ? via->row(i) : nullptr;
            for (std::int64_t j = 0; j < n; ++j) {
              if (row[j] > bound) {
                row[j] = weight_traits<T>::infinity;
                if (via_row != nullptr)
                  via_row[j] = no_via;
              }
            }
          }
        }
      },
      d);
}

} // namespace apsp::detail

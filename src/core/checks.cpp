#include "core/checks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <optional>
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

namespace {

/// Sum of the `keep` largest of `values`.
double sum_of_largest(std::vector<double> values, std::int64_t keep) {
  keep = std::min<std::int64_t>(keep, static_cast<std::int64_t>(values.size()));
  if (keep <= 0)
    return 0;
  std::nth_element(values.begin(), values.begin() + (keep - 1), values.end(), std::greater<>());
  double sum = 0;
  for (std::int64_t v = 0; v < keep; ++v)
    sum += values[static_cast<std::size_t>(v)];
  return sum;
}

/// Whether edge e can lie on a shortest path's bound: every edge but a positive self-loop (a
/// negative one is a negative cycle, and is counted so that its weight is still checked).
bool counts(const std::vector<std::int32_t>& src, const std::vector<std::int32_t>& dst,
            const std::vector<double>& w, std::size_t e) {
  return src[e] != dst[e] || w[e] < 0;
}

/// Per vertex, the largest |w| over its counted out-edges; and the vertices whose largest the
/// lightest of parallel edges could make smaller: those with an edge lighter than their
/// heaviest positive one, to the same target (one of them where several tie).
struct out_weights {
  std::vector<double> largest;
  std::vector<char> twinned; // per vertex
  bool any_twinned = false;
};

out_weights largest_out_weights(const graph& g) {
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  const auto m = static_cast<std::int64_t>(w.size());
  const auto n = static_cast<std::size_t>(g.num_vertices());
  // The bit patterns of non-negative doubles order as the doubles do.
  const auto bits_of = [](double a) {
    std::uint64_t b = 0;
    std::memcpy(&b, &a, sizeof b);
    return b;
  };
  std::vector<std::uint64_t> bits(n, 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const auto k = static_cast<std::size_t>(e);
    if (!counts(src, dst, w, k))
      continue;
    const std::uint64_t b = bits_of(std::fabs(w[k]));
    std::atomic_ref<std::uint64_t> slot(bits[static_cast<std::size_t>(src[k])]);
    std::uint64_t seen = slot.load(std::memory_order_relaxed);
    while (seen < b && !slot.compare_exchange_weak(seen, b, std::memory_order_relaxed)) {
    }
  }
  out_weights out;
  out.largest.resize(n);
  for (std::size_t v = 0; v < n; ++v)
    std::memcpy(&out.largest[v], &bits[v], sizeof(double));
  std::vector<std::int32_t> heaviest_to(n, -1);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const auto k = static_cast<std::size_t>(e);
    const auto u = static_cast<std::size_t>(src[k]);
    if (counts(src, dst, w, k) && w[k] == out.largest[u])
      std::atomic_ref<std::int32_t>(heaviest_to[u]).store(dst[k], std::memory_order_relaxed);
  }
  out.twinned.assign(n, 0);
  bool any = false;
#pragma omp parallel for reduction(|| : any) schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const auto k = static_cast<std::size_t>(e);
    const auto u = static_cast<std::size_t>(src[k]);
    if (dst[k] == heaviest_to[u] && w[k] < out.largest[u]) {
      std::atomic_ref<char>(out.twinned[u]).store(1, std::memory_order_relaxed);
      any = true;
    }
  }
  out.any_twinned = any;
  return out;
}

/// Corrects out.largest of the twinned vertices to the largest |w| over the lightest of each
/// set of parallel edges: their edges gathered and sorted by (source, target).
void lightest_of_parallel(const graph& g, out_weights& out) {
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  std::vector<std::size_t> edges;
  for (std::size_t e = 0; e < w.size(); ++e) {
    if (out.twinned[static_cast<std::size_t>(src[e])] != 0)
      edges.push_back(e);
  }
  std::sort(edges.begin(), edges.end(), [&](std::size_t a, std::size_t b) {
    return src[a] != src[b] ? src[a] < src[b] : dst[a] < dst[b];
  });
  for (std::size_t v = 0; v < out.largest.size(); ++v) {
    if (out.twinned[v] != 0)
      out.largest[v] = 0;
  }
  for (std::size_t a = 0; a < edges.size();) {
    const auto u = src[edges[a]];
    const auto v = dst[edges[a]];
    double lightest = w[edges[a]];
    std::size_t b = a;
    for (; b < edges.size() && src[edges[b]] == u && dst[edges[b]] == v; ++b)
      lightest = std::min(lightest, w[edges[b]]);
    if (u != v || lightest < 0) {
      double& largest = out.largest[static_cast<std::size_t>(u)];
      largest = std::max(largest, std::fabs(lightest));
    }
    a = b;
  }
}

} // namespace

weight_facts analyze_weights(const graph& g, dtype type, bool narrow_requested) {
  weight_facts facts;
  const auto& w = g.weights();
  const auto m = static_cast<std::int64_t>(w.size());
  double max_abs = 0;
  bool negative = false;
  bool fraction = false;
#pragma omp parallel for reduction(max                                                             \
                                   : max_abs) reduction(||                                         \
                                                        : negative, fraction) schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const double v = w[static_cast<std::size_t>(e)];
    // The sign bit, not "< 0": -0.0 counts as negative too, so that where there is none every
    // float value orders like its bit pattern (the GPU's three-way minima rely on that).
    negative = negative || std::signbit(v);
    fraction = fraction || (std::isfinite(v) && v != std::floor(v));
    max_abs = std::max(max_abs, std::fabs(v));
  }
  facts.has_negative = negative;
  facts.has_fraction = fraction;
  if (m == 0)
    return facts;
  // A shortest path leaves each of at most n - 1 vertices once, never by a positive self-loop,
  // and takes the lightest of parallel edges. Three bounds, each tighter and dearer than the
  // one before: (n-1) * max|w|; the sum of the n-1 largest per-vertex maxima of |w| over
  // out-edges (O(m)), when the first is not enough for every check; the same over the lightest
  // of each set of parallel edges, only when the solve would be refused otherwise, for the
  // vertices whose heaviest edge has a lighter parallel one (their edges sorted). One vertex has no
  // paths, but a negative self-loop still has to fit the type: at least one weight is counted.
  const auto keep = std::max<std::int64_t>(1, g.num_vertices() - 1);
  facts.distance_bound = max_abs * static_cast<double>(std::min(keep, m));
  if (facts.distance_bound < bound_needed(type, narrow_requested))
    return facts;
  auto out = largest_out_weights(g);
  facts.distance_bound = sum_of_largest(out.largest, keep);
  if (facts.distance_bound < refused_from(type, negative) || !out.any_twinned)
    return facts;
  try {
    lightest_of_parallel(g, out);
    facts.distance_bound = std::min(facts.distance_bound, sum_of_largest(out.largest, keep));
  } catch (const std::bad_alloc&) {
    // the bound above stands
  }
  return facts;
}

namespace {

/// Weights at or above which an edge of `type` cannot be held (or means no edge).
double unusable_weight(dtype type) {
  switch (type) {
  case dtype::int32:
    return static_cast<double>(weight_traits<std::int32_t>::infinity);
  case dtype::int64:
    return static_cast<double>(weight_traits<std::int64_t>::infinity);
  case dtype::float32:
    return std::nextafter(static_cast<double>(std::numeric_limits<float>::max()), HUGE_VAL);
  default:
    return HUGE_VAL;
  }
}

} // namespace

std::optional<graph> usable_edges(const graph& g, dtype type) {
  const double limit = unusable_weight(type);
  const auto& w = g.weights();
  const auto m = static_cast<std::int64_t>(w.size());
  std::int64_t dropped = 0;
#pragma omp parallel for reduction(+ : dropped) schedule(static)
  for (std::int64_t e = 0; e < m; ++e)
    dropped += w[static_cast<std::size_t>(e)] >= limit ? 1 : 0;
  if (dropped == 0)
    return std::nullopt;
  const auto& src = g.sources();
  const auto& dst = g.targets();
  std::vector<std::int32_t> s;
  std::vector<std::int32_t> d;
  std::vector<double> kept;
  s.reserve(static_cast<std::size_t>(m - dropped));
  d.reserve(s.capacity());
  kept.reserve(s.capacity());
  for (std::size_t e = 0; e < w.size(); ++e) {
    if (w[e] >= limit)
      continue;
    s.push_back(src[e]);
    d.push_back(dst[e]);
    kept.push_back(w[e]);
  }
  graph out(g.num_vertices());
  out.assign(std::move(s), std::move(d), std::move(kept));
  return out;
}

double refused_from(dtype type, bool has_negative) {
  double inf = HUGE_VAL;
  if (type == dtype::int32)
    inf = static_cast<double>(weight_traits<std::int32_t>::infinity);
  else if (type == dtype::int64)
    inf = static_cast<double>(weight_traits<std::int64_t>::infinity);
  else if (type == dtype::float32)
    return std::numeric_limits<float>::max();
  else
    // Johnson adds potentials to weights and distances (up to 3 bounds) in double.
    return std::numeric_limits<double>::max() / 4;
  // Without negative weights a distance only has to stay below infinity. With them, sums with
  // infinity drift down by up to 2 * bound, and must still be told apart from real distances.
  return has_negative ? inf / 3.0 : inf;
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
  return refused_from(type, true); // float64
}

weight_facts analyze_weights(const any_matrix& m) {
  return std::visit(
      [](const auto& d) {
        weight_facts facts;
        const std::int64_t n = d.n();
        // Per row: the largest |off-diagonal weight| (a shortest path leaves each vertex once)
        // and the first entry that is neither a weight nor the no-path value.
        std::vector<double> largest(static_cast<std::size_t>(n), 0.0);
        std::vector<std::int64_t> bad(static_cast<std::size_t>(n), -1);
        bool negative = false;
        bool fraction = false;
#pragma omp parallel for reduction(|| : negative, fraction) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
          const auto* row = d.row(i);
          double row_largest = 0;
          for (std::int64_t j = 0; j < n; ++j) {
            const auto v = row[j];
            if (!is_weight_or_no_path(v)) {
              bad[static_cast<std::size_t>(i)] = j;
              break;
            }
            if (!is_finite_entry(v))
              continue;
            negative = negative || std::signbit(static_cast<double>(v)); // -0.0 too
            fraction = fraction || static_cast<double>(v) != std::floor(static_cast<double>(v));
            if (i != j)
              row_largest = std::max(row_largest, std::fabs(static_cast<double>(v)));
          }
          largest[static_cast<std::size_t>(i)] = row_largest;
        }
        for (std::int64_t i = 0; i < n; ++i) {
          if (bad[static_cast<std::size_t>(i)] >= 0)
            fail_entry(i, bad[static_cast<std::size_t>(i)],
                       d.row(i)[bad[static_cast<std::size_t>(i)]]);
        }
        facts.has_negative = negative;
        facts.has_fraction = fraction;
        facts.distance_bound = n > 1 ? sum_of_largest(std::move(largest), n - 1) : 0.0;
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
  if (!is_integral(type) && facts.distance_bound >= refused_from(type, facts.has_negative)) {
    char reach[32];
    std::snprintf(reach, sizeof reach, "%.9g", facts.distance_bound);
    throw overflow_risk_error(
        std::string("path lengths could reach ") + reach + ", near or beyond " +
        std::string(to_string(type)) + "'s largest value (sums would overflow to infinity); " +
        (type == dtype::float32 ? "solve with --dtype float64" : "scale the weights down"));
  }
  if (!is_integral(type))
    return;
  if (!all_integral) {
    throw invalid_input_error("the graph has non-integer weights; solve with --dtype float32 or "
                              "float64");
  }
  const long long no_path = type == dtype::int32 ? weight_traits<std::int32_t>::infinity
                                                 : weight_traits<std::int64_t>::infinity;
  if (facts.distance_bound >= refused_from(type, facts.has_negative)) {
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
  // d[v][v] < 0: v lies on a negative cycle, or on a closed walk through one (out to it and
  // back), which is not a cycle of its own.
  const std::string lie = found.count == 1 ? " vertex lies" : " vertices lie";
  throw negative_cycle_error("the graph has a negative cycle: " + std::to_string(found.count) +
                                 lie +
                                 " on negative cycles or on closed walks through them "
                                 "(0-based: " +
                                 list + ")",
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

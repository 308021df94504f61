#include "cpu/supernodal_fw.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cpu/row_relax.hpp"

namespace apsp::cpu {
namespace {

/// Columns per pass of the outer update: a row's stretch stays in L1 while every pivot of the
/// step is applied to it, and the pivot rows' stretches stay in L2.
constexpr std::int64_t column_chunk = 2048;

/// A step runs its panels and outer block on several threads only when it has this many
/// updates; the many small steps near the leaves run on one (a parallel region costs more).
constexpr double parallel_updates = 1 << 18;

template <class T, bool Clamp> T add(T a, T b) {
  T s = a + b;
  if constexpr (Clamp && std::is_integral_v<T>) {
    constexpr T lo = -weight_traits<T>::infinity;
    s = s < lo ? lo : s;
  }
  return s;
}

template <class T, bool Clamp, bool Paths> class stepper {
public:
  stepper(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan, int threads)
      : n_(d.n()), d_(d.data()), v_(Paths ? via->data() : nullptr), plan_(plan),
        threads_(threads), member_(static_cast<std::size_t>(d.n()), 0) {
    const auto ops = detail::cpu::row_relax_for<T>(detail::cpu::selected_isa());
    relax_ = Clamp ? ops.relax_clamped : ops.relax;
    relax_via_ = Clamp ? ops.relax_via_clamped : ops.relax_via;
  }

  void run(const supernode_step& s) {
    const auto& m = s.members;
    const auto w = static_cast<std::int64_t>(m.size());
    for (const std::int32_t k : m)
      member_[static_cast<std::size_t>(k)] = 1;
    close_block(m);
    // The closed block, copied: the panels read it while their own cells are rewritten.
    block_.resize(static_cast<std::size_t>(w * w));
    for (std::int64_t a = 0; a < w; ++a) {
      for (std::int64_t b = 0; b < w; ++b)
        block_[static_cast<std::size_t>(a * w + b)] = at(m[static_cast<std::size_t>(a)], m[static_cast<std::size_t>(b)]);
    }
    const bool parallel = threads_ > 1 && s.updates() >= parallel_updates;
    row_panel(s, parallel);
    outer(s, parallel);
    for (const std::int32_t k : m)
      member_[static_cast<std::size_t>(k)] = 0;
  }

private:
  T& at(std::int64_t i, std::int64_t j) { return d_[i * n_ + j]; }
  std::int32_t& via_at(std::int64_t i, std::int64_t j) { return v_[i * n_ + j]; }
  std::int32_t id(std::int32_t k) const { return plan_.order[static_cast<std::size_t>(k)]; }

  /// d(i, j) = min(d(i, j), a + d(k, j)), and via(i, j) = k's vertex id where that improves.
  void relax_cell(std::int64_t i, std::int64_t j, T a, std::int32_t k) {
    const T s = add<T, Clamp>(a, at(k, j));
    if (s < at(i, j)) {
      at(i, j) = s;
      if constexpr (Paths)
        via_at(i, j) = id(k);
    }
  }

  /// Floyd-Warshall on the pivots' own block, in pivot order.
  void close_block(const std::vector<std::int32_t>& m) {
    constexpr T inf = weight_traits<T>::infinity;
    for (const std::int32_t k : m) {
      for (const std::int32_t i : m) {
        const T a = at(i, k);
        if (i == k || a == inf)
          continue;
        for (const std::int32_t j : m)
          relax_cell(i, j, a, k);
      }
    }
  }

  /// Rows of the pivots over the step's columns: D[M][R] = D*[M][M] (x) D[M][R]. In parallel
  /// over column stretches, so no thread reads a cell another writes.
  void row_panel(const supernode_step& s, bool parallel) {
    const auto& m = s.members;
    const auto w = static_cast<std::int64_t>(m.size());
    const std::int64_t contiguous = s.top() - s.first + 1;
    const std::int64_t chunks = (contiguous + column_chunk - 1) / column_chunk;
    const std::int32_t* anc = plan_.ancestors.data() + s.ancestors_begin;
    const std::int64_t na = s.ancestors_end - s.ancestors_begin;
    constexpr T inf = weight_traits<T>::infinity;
#pragma omp parallel for num_threads(threads_) schedule(dynamic) if (parallel)
    for (std::int64_t c = 0; c <= chunks; ++c) {
      for (std::int64_t a = 0; a < w; ++a) {
        const std::int32_t i = m[static_cast<std::size_t>(a)];
        for (std::int64_t b = 0; b < w; ++b) {
          const T x = block_[static_cast<std::size_t>(a * w + b)];
          const std::int32_t k = m[static_cast<std::size_t>(b)];
          if (a == b || x == inf)
            continue;
          if (c < chunks) {
            const std::int64_t j0 = s.first + c * column_chunk;
            const std::int64_t len = std::min(column_chunk, s.first + contiguous - j0);
            if constexpr (Paths)
              relax_via_(&at(i, j0), &via_at(i, j0), &at(k, j0), x, id(k), len);
            else
              relax_(&at(i, j0), &at(k, j0), x, len);
          } else {
            for (std::int64_t t = 0; t < na; ++t)
              relax_cell(i, anc[t], x, k);
          }
        }
      }
    }
  }

  /// Every other row of the step: its column panel D[i][M] = D[i][M] (x) D*[M][M], then the
  /// outer update D[i][R] = min(D[i][R], D[i][M] (x) D[M][R]). In parallel over rows: a row
  /// reads only itself and the pivots' rows, which no thread writes here.
  void outer(const supernode_step& s, bool parallel) {
    const auto& m = s.members;
    const auto w = static_cast<std::int64_t>(m.size());
    const std::int64_t contiguous = s.top() - s.first + 1;
    const std::int32_t* anc = plan_.ancestors.data() + s.ancestors_begin;
    const std::int64_t na = s.ancestors_end - s.ancestors_begin;
    const std::int64_t rows = contiguous + na;
    constexpr T inf = weight_traits<T>::infinity;
    // The pivots' rows at the ancestor columns, gathered once: w x na.
    panel_.resize(static_cast<std::size_t>(w * na));
    for (std::int64_t b = 0; b < w; ++b) {
      for (std::int64_t t = 0; t < na; ++t)
        panel_[static_cast<std::size_t>(b * na + t)] = at(m[static_cast<std::size_t>(b)], anc[t]);
    }
    const int team = parallel ? threads_ : 1;
    scratch_.resize(static_cast<std::size_t>(team * w));
    via_scratch_.resize(Paths ? static_cast<std::size_t>(team * w) : 0);
#pragma omp parallel num_threads(team) if (parallel)
    {
      T* c = scratch_.data() + static_cast<std::int64_t>(omp_get_thread_num()) * w;
      std::int32_t* cv =
          Paths ? via_scratch_.data() + static_cast<std::int64_t>(omp_get_thread_num()) * w : nullptr;
#pragma omp for schedule(dynamic, 8)
      for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t i = r < contiguous ? s.first + r : anc[r - contiguous];
        if (member_[static_cast<std::size_t>(i)])
          continue;
        bool any = false;
        for (std::int64_t b = 0; b < w; ++b) {
          c[b] = at(i, m[static_cast<std::size_t>(b)]);
          if constexpr (Paths)
            cv[b] = via_at(i, m[static_cast<std::size_t>(b)]);
          any = any || c[b] != inf;
        }
        if (!any)
          continue;
        // Column panel, in pivot order, in place (every value is a real walk's length).
        for (std::int64_t b = 0; b < w; ++b) {
          const T x = c[b];
          if (x == inf)
            continue;
          for (std::int64_t e = 0; e < w; ++e) {
            const T sum = add<T, Clamp>(x, block_[static_cast<std::size_t>(b * w + e)]);
            if (sum < c[e]) {
              c[e] = sum;
              if constexpr (Paths)
                cv[e] = id(m[static_cast<std::size_t>(b)]);
            }
          }
        }
        for (std::int64_t b = 0; b < w; ++b) {
          at(i, m[static_cast<std::size_t>(b)]) = c[b];
          if constexpr (Paths)
            via_at(i, m[static_cast<std::size_t>(b)]) = cv[b];
        }
        // Outer update: the contiguous columns a stretch at a time, then the ancestors.
        for (std::int64_t j0 = s.first; j0 < s.first + contiguous; j0 += column_chunk) {
          const std::int64_t len = std::min(column_chunk, s.first + contiguous - j0);
          for (std::int64_t b = 0; b < w; ++b) {
            if (c[b] == inf)
              continue;
            const std::int32_t k = m[static_cast<std::size_t>(b)];
            if constexpr (Paths)
              relax_via_(&at(i, j0), &via_at(i, j0), &at(k, j0), c[b], id(k), len);
            else
              relax_(&at(i, j0), &at(k, j0), c[b], len);
          }
        }
        for (std::int64_t t = 0; t < na; ++t) {
          const std::int32_t j = anc[t];
          T best = at(i, j);
          std::int32_t best_via = Paths ? via_at(i, j) : 0;
          for (std::int64_t b = 0; b < w; ++b) {
            if (c[b] == inf)
              continue;
            const T sum = add<T, Clamp>(c[b], panel_[static_cast<std::size_t>(b * na + t)]);
            if (sum < best) {
              best = sum;
              if constexpr (Paths)
                best_via = id(m[static_cast<std::size_t>(b)]);
            }
          }
          at(i, j) = best;
          if constexpr (Paths)
            via_at(i, j) = best_via;
        }
      }
    }
  }

  std::int64_t n_;
  T* d_;
  std::int32_t* v_;
  const elimination_plan& plan_;
  int threads_;
  std::vector<char> member_;
  std::vector<T> block_;
  std::vector<T> panel_;
  std::vector<T> scratch_;
  std::vector<std::int32_t> via_scratch_;
  void (*relax_)(T*, const T*, T, std::int64_t) = nullptr;
  void (*relax_via_)(T*, std::int32_t*, const T*, T, std::int32_t, std::int64_t) = nullptr;
};

template <class T, bool Clamp, bool Paths>
void run_all(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan, int threads,
             std::int64_t progress_steps, detail::run_context& ctx) {
  stepper<T, Clamp, Paths> step(d, via, plan, threads);
  const double total = std::max(plan.updates, 1.0);
  const std::int64_t reports = std::max<std::int64_t>(1, progress_steps);
  std::int64_t reported = 0;
  double done = 0;
  for (const auto& s : plan.steps) {
    step.run(s);
    done += s.updates();
    while (reported + 1 < reports &&
           done >= static_cast<double>(reported + 1) * total / static_cast<double>(reports))
      ctx.round_done(++reported, reports);
  }
  while (reported < reports)
    ctx.round_done(++reported, reports);
}

} // namespace

template <class E>
void permute_symmetric(E* d, std::int64_t n, const std::vector<std::int32_t>& to, int threads) {
  if (n == 0)
    return;
  threads = std::max(1, threads);
  std::vector<std::int32_t> from(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    from[static_cast<std::size_t>(to[static_cast<std::size_t>(i)])] = static_cast<std::int32_t>(i);
  // A cycle c0, c1 = from[c0], c2 = from[c1], ...: new row c_t is old row c_{t+1} with its
  // columns moved. Segments of a cycle run in parallel once each segment's first row is saved;
  // the last row of a segment takes the next segment's saved row.
  struct segment {
    std::int64_t begin, end; ///< into `seq`
    std::int64_t buffer;     ///< where its first row's old content is saved
    std::int64_t source;     ///< the buffer its last row reads
  };
  const std::int64_t seg_len = std::max<std::int64_t>(1, (n + 2 * threads - 1) / (2 * threads));
  const std::size_t max_batch = static_cast<std::size_t>(2 * threads + 2);
  std::vector<E> buffers(max_batch * static_cast<std::size_t>(n));
  std::vector<std::int32_t> seq;
  std::vector<segment> batch;
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  const std::int32_t* col = to.data();

  auto flush = [&] {
    const auto count = static_cast<std::int64_t>(batch.size());
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic)
      for (std::int64_t b = 0; b < count; ++b) {
        const auto& s = batch[static_cast<std::size_t>(b)];
        std::memcpy(buffers.data() + s.buffer * n, d + seq[static_cast<std::size_t>(s.begin)] * n,
                    static_cast<std::size_t>(n) * sizeof(E));
      }
#pragma omp for schedule(dynamic)
      for (std::int64_t b = 0; b < count; ++b) {
        const auto& s = batch[static_cast<std::size_t>(b)];
        for (std::int64_t t = s.begin; t < s.end; ++t) {
          E* dst = d + seq[static_cast<std::size_t>(t)] * n;
          const E* src = t + 1 < s.end ? d + seq[static_cast<std::size_t>(t) + 1] * n
                                       : buffers.data() + s.source * n;
          for (std::int64_t j = 0; j < n; ++j)
            dst[col[j]] = src[j];
        }
      }
    }
    batch.clear();
    seq.clear();
  };

  for (std::int64_t c0 = 0; c0 < n; ++c0) {
    if (seen[static_cast<std::size_t>(c0)])
      continue;
    std::int64_t len = 0;
    for (std::int32_t c = static_cast<std::int32_t>(c0); !seen[static_cast<std::size_t>(c)];
         c = from[static_cast<std::size_t>(c)]) {
      seen[static_cast<std::size_t>(c)] = 1;
      ++len;
    }
    const std::int64_t parts = (len + seg_len - 1) / seg_len;
    if (batch.size() + static_cast<std::size_t>(parts) > max_batch)
      flush();
    const auto base = static_cast<std::int64_t>(seq.size());
    const auto first_buffer = static_cast<std::int64_t>(batch.size());
    std::int32_t c = static_cast<std::int32_t>(c0);
    for (std::int64_t t = 0; t < len; ++t, c = from[static_cast<std::size_t>(c)])
      seq.push_back(c);
    for (std::int64_t p = 0; p < parts; ++p) {
      const std::int64_t begin = base + p * seg_len;
      const std::int64_t end = std::min(base + len, begin + seg_len);
      batch.push_back({begin, end, first_buffer + p, first_buffer + (p + 1 < parts ? p + 1 : 0)});
    }
  }
  if (!batch.empty())
    flush();
}

template <class T>
void supernodal_steps(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan,
                      int threads, std::int64_t progress_steps, detail::run_context& ctx) {
  const bool clamp = std::is_integral_v<T> && ctx.negative_weights();
  if (via != nullptr) {
    if (clamp)
      run_all<T, true, true>(d, via, plan, threads, progress_steps, ctx);
    else
      run_all<T, false, true>(d, via, plan, threads, progress_steps, ctx);
  } else if (clamp) {
    run_all<T, true, false>(d, via, plan, threads, progress_steps, ctx);
  } else {
    run_all<T, false, false>(d, via, plan, threads, progress_steps, ctx);
  }
}

#define APSP_SUPERNODAL(T)                                                                         \
  template void permute_symmetric<T>(T*, std::int64_t, const std::vector<std::int32_t>&, int);     \
  template void supernodal_steps<T>(dense_matrix<T>&, via_matrix*, const elimination_plan&, int,   \
                                    std::int64_t, detail::run_context&);
APSP_SUPERNODAL(std::int32_t)
APSP_SUPERNODAL(float)
APSP_SUPERNODAL(std::int64_t)
APSP_SUPERNODAL(double)
#undef APSP_SUPERNODAL

} // namespace apsp::cpu

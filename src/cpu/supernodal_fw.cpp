#include "cpu/supernodal_fw.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

#include "cpu/supernodal_schedule.hpp"
#include "cpu/supernodal_step.hpp"

namespace apsp::cpu {
namespace {

/// A step of the top part runs on every thread only with this many updates: a parallel region
/// costs more than the few small steps above the subtrees save.
constexpr double parallel_updates = 1 << 20;

/// Progress in equal shares of the counted updates; only the calling thread reports (the
/// callback may be Python's, and may throw to cancel).
class progress_counter {
public:
  progress_counter(const elimination_plan& plan, std::int64_t steps, detail::run_context& ctx)
      : total_(std::max(plan.updates, 1.0)), reports_(std::max<std::int64_t>(1, steps)), ctx_(ctx) {
  }

  void add(double updates) { done_.fetch_add(updates, std::memory_order_relaxed); }
  /// Reports the shares passed so far; on the calling thread only.
  void report() {
    const double done = done_.load(std::memory_order_relaxed);
    while (reported_ + 1 < reports_ &&
           done >= static_cast<double>(reported_ + 1) * total_ / static_cast<double>(reports_))
      ctx_.round_done(++reported_, reports_);
  }
  void finish() {
    while (reported_ < reports_)
      ctx_.round_done(++reported_, reports_);
  }

private:
  double total_;
  std::int64_t reports_;
  std::int64_t reported_ = 0;
  std::atomic<double> done_{0};
  detail::run_context& ctx_;
};

/// Phase one: the schedule's subtrees, one thread each (steps of different subtrees share only
/// ancestor x ancestor cells, which step_executor merges under `locks`).
template <class T>
void run_subtrees(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan,
                  const step_schedule& schedule, const std::vector<std::int32_t>& position,
                  int threads, progress_counter& progress, detail::run_context& ctx) {
  const auto count = static_cast<std::int64_t>(schedule.subtrees.size());
  const auto kernels = detail::cpu::selected_isa();
  merge_locks locks;
  std::vector<std::unique_ptr<step_executor<T>>> executors(static_cast<std::size_t>(threads));
  std::atomic<bool> stop{false};
  std::exception_ptr error;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (std::int64_t t = 0; t < count; ++t) {
    if (stop.load(std::memory_order_relaxed))
      continue;
    const int thread = omp_get_thread_num();
    try {
      auto& e = executors[static_cast<std::size_t>(thread)];
      if (!e)
        e = std::make_unique<step_executor<T>>(d, via, kernels, ctx.negative_weights());
      const auto& sub = schedule.subtrees[static_cast<std::size_t>(t)];
      for (std::int64_t s = sub.first_step; s <= sub.root_step && !stop.load(); ++s) {
        const auto& step = plan.steps[static_cast<std::size_t>(s)];
        e->run(plan, step, position[static_cast<std::size_t>(s)], 1, &locks);
        progress.add(step.updates());
        if (thread == 0)
          progress.report();
      }
    } catch (...) {
#pragma omp critical(apsp_supernodal_error)
      if (!error)
        error = std::current_exception();
      stop.store(true);
    }
  }
  if (error)
    std::rethrow_exception(error);
}

template <class T>
void run_all(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan, int threads,
             std::int64_t progress_steps, detail::run_context& ctx) {
  // Via values hold pivot positions in the sequence of the steps' members until the end.
  std::vector<std::int32_t> position(plan.steps.size());
  std::vector<std::int32_t> vertex_at(static_cast<std::size_t>(plan.n));
  std::int32_t next = 0;
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    position[s] = next;
    for (const std::int32_t k : plan.steps[s].members)
      vertex_at[static_cast<std::size_t>(next++)] = plan.order[static_cast<std::size_t>(k)];
  }
  const step_schedule schedule = schedule_steps(plan, threads);
  progress_counter progress(plan, progress_steps, ctx);
  const auto start = std::chrono::steady_clock::now();
  if (!schedule.subtrees.empty())
    run_subtrees(d, via, plan, schedule, position, threads, progress, ctx);
  const auto subtrees_done = std::chrono::steady_clock::now();
  step_executor<T> e(d, via, detail::cpu::selected_isa(), ctx.negative_weights());
  double top_updates = 0;
  double team_updates = 0;
  std::int64_t team_steps = 0;
  for (const std::int64_t s : schedule.top_steps) {
    const auto& step = plan.steps[static_cast<std::size_t>(s)];
    const int team = step.updates() >= parallel_updates ? threads : 1;
    const auto step_start = std::chrono::steady_clock::now();
    e.run(plan, step, position[static_cast<std::size_t>(s)], team, nullptr);
    if (ctx.tuning().supernodal_verbose) {
      // Every top step on a line of its own: which steps hold the top part's time.
      const double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
      std::fprintf(stderr,
                   "apsp cpu supernodal: top step %lld: %zu pivots, %lld rows, %.3e updates, %d "
                   "threads, %.4f s\n",
                   static_cast<long long>(s), step.members.size(),
                   static_cast<long long>(step.rows()), step.updates(), team, took);
    }
    progress.add(step.updates());
    progress.report();
    top_updates += step.updates();
    if (team > 1) {
      team_updates += step.updates();
      ++team_steps;
    }
  }
  if (ctx.tuning().supernodal_verbose) {
    // Where the cpu steps' time goes: the subtrees (a thread each), then the top steps.
    const auto end = std::chrono::steady_clock::now();
    const double sub = std::chrono::duration<double>(subtrees_done - start).count();
    const double top = std::chrono::duration<double>(end - subtrees_done).count();
    std::fprintf(stderr,
                 "apsp cpu supernodal: %zu subtrees %.3f s (%.3e updates), %zu top steps %.3f s "
                 "(%.3e updates; %lld on every thread, %.3e updates), %d threads\n",
                 schedule.subtrees.size(), sub, plan.updates - top_updates,
                 schedule.top_steps.size(), top, top_updates, static_cast<long long>(team_steps),
                 team_updates, threads);
  }
  if (via != nullptr) {
    std::int32_t* v = via->data();
    const std::int64_t cells = d.n() * d.n();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t c = 0; c < cells; ++c)
      v[c] = v[c] == no_via ? no_via : vertex_at[static_cast<std::size_t>(v[c])];
  }
  progress.finish();
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
  run_all(d, via, plan, std::max(1, threads), progress_steps, ctx);
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

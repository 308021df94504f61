// The supernodal Floyd-Warshall as a cpu back end (docs/sparse.md): a nested-dissection order,
// the matrix filled in that order, one dense block step per supernode, and the matrix
// relabelled back in place. Floyd-Warshall's answers (and path matrix), with the updates that
// can change something only.

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/host_memory.hpp"
#include "core/round_schedule.hpp"
#include "cpu/cpu_plan.hpp"
#include "cpu/elimination.hpp"
#include "cpu/supernodal_backend.hpp"
#include "cpu/supernodal_fw.hpp"
#include "core/thread_count.hpp"

namespace apsp::detail {
namespace {

/// Progress reports per solve (equal shares of the counted updates).
constexpr std::int64_t progress_steps = 256;

template <class T>
void run_supernodal(dense_matrix<T>& d, via_matrix* via, const plan& p, run_context& ctx,
                    std::shared_ptr<const cpu::elimination_plan> ep) {
  const std::int64_t n = p.n;
  const int threads = apsp::detail::thread_count(ctx.options());
  const graph* g = ctx.initial_edges();
  if (!ep || ep->n != n) {
    std::vector<std::int32_t> heads, tails;
    if (g != nullptr) {
      heads = g->sources();
      tails = g->targets();
    } else {
      matrix_arcs(d, heads, tails);
    }
    ep = std::make_shared<const cpu::elimination_plan>(
        cpu::plan_elimination(n, heads, tails, supernodal_fill_limit(n)));
  }
  expect_supernodal_pays(*ep);
  // APSP_SUPERNODAL_VERBOSE=1: the stages' seconds on stderr (as APSP_CUDA_VERBOSE does).
  const bool verbose = ctx.tuning().supernodal_verbose;
  const auto start = std::chrono::steady_clock::now();
  const auto since = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  grid_layout whole;
  whole.n = n;
  whole.b = std::max<std::int64_t>(n, 1);
  if (g != nullptr)
    fill_initial_tiles(*g, whole, d.data(), ep->label.data()); // already in elimination order
  else
    cpu::permute_symmetric(d.data(), n, ep->label, threads);
  if (via != nullptr) {
    std::int32_t* v = via->data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      std::fill(v + i * n, v + (i + 1) * n, no_via);
  }
  const double t_fill = since();
  cpu::supernodal_steps(d, via, *ep, threads, p.rounds, ctx);
  const double t_steps = since();
  cpu::permute_symmetric(d.data(), n, ep->order, threads);
  if (via != nullptr)
    cpu::permute_symmetric(via->data(), n, ep->order, threads);
  if (verbose) {
    std::fprintf(stderr,
                 "apsp supernodal: %lld steps, %.3e updates, %d threads: fill %.3f s, steps "
                 "%.3f s, relabelling %.3f s\n",
                 static_cast<long long>(ep->steps.size()), ep->updates, threads, t_fill,
                 t_steps - t_fill, since() - t_steps);
  }
}

class supernodal_backend final : public backend {
public:
  explicit supernodal_backend(std::shared_ptr<const cpu::elimination_plan> ep)
      : plan_(std::move(ep)) {}

  backend_kind kind() const noexcept override { return backend_kind::cpu; }

  backend_status status() const override {
    return {backend_kind::cpu, true,
            "supernodal Floyd-Warshall, " + std::to_string(omp_get_max_threads()) + " threads" +
                (cpu::have_metis() ? "" : " (built without METIS: natural order)")};
  }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    plan p = cpu_plan(n, o);
    const int threads = apsp::detail::thread_count(o);
    p.algorithm = algorithm_kind::supernodal;
    p.run = drivers::supernodal{threads, plan_ && plan_->n == n ? plan_ : nullptr};
    p.device = "cpu (" + std::to_string(threads) + " threads, supernodal Floyd-Warshall";
    if (plan_ && plan_->n == n) {
      p.device += ", " + plan_->order_name + ", " + std::to_string(plan_->steps.size()) +
                  " steps, " + std::to_string(static_cast<long long>(plan_->updates)) + " updates";
      p.block = plan_->widest;
    } else {
      p.device += cpu::have_metis() ? ", METIS order" : ", natural order: built without METIS";
    }
    p.device += ")";
    // Progress steps: one per elimination step, at most progress_steps of them.
    p.rounds = n == 0 ? 0 : progress_steps;
    if (plan_ && plan_->n == n)
      p.rounds = std::min<std::int64_t>(p.rounds, static_cast<std::int64_t>(plan_->steps.size()));
    // Besides the matrices: the analysis (the factor's column structures, 4 bytes an entry,
    // and a few arrays of n), and the relabelling's row buffers.
    const auto row_bytes = static_cast<std::uint64_t>(n) * size_of(o.type);
    const std::uint64_t analysis =
        static_cast<std::uint64_t>(n) * 64 +
        (plan_ && plan_->n == n ? plan_->ancestors.size() * sizeof(std::int32_t) : 0);
    p.working_host_bytes = static_cast<std::uint64_t>(2 * threads + 2) * row_bytes + analysis;
    return p;
  }

  bool builds_initial_matrix(const plan&) const override { return true; }

  void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) override {
    std::visit([&](auto& m) { run_supernodal(m, via, p, ctx, plan_); }, d);
  }

private:
  std::shared_ptr<const cpu::elimination_plan> plan_;
};

} // namespace

/// The arcs of an initial matrix: every finite off-diagonal entry. A matrix with more than
/// twice the fill limit of them cannot have small separators (the factor's pattern holds at
/// least half the arcs): refused before the arrays are made.
template <class T>
void matrix_arcs(const dense_matrix<T>& d, std::vector<std::int32_t>& heads,
             std::vector<std::int32_t>& tails) {
  constexpr T inf = weight_traits<T>::infinity;
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < d.n(); ++i) {
    const T* row = d.row(i);
    for (std::int64_t j = 0; j < d.n(); ++j)
      count += (j != i && row[j] != inf) ? 1 : 0;
  }
  APSP_EXPECTS(count <= 2 * supernodal_fill_limit(d.n()), invalid_argument_error,
               "the supernodal Floyd-Warshall needs a graph with small separators; this matrix "
               "has " +
                   std::to_string(count) + " arcs: use --algorithm fw or johnson");
  heads.reserve(static_cast<std::size_t>(count));
  tails.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < d.n(); ++i) {
    const T* row = d.row(i);
    for (std::int64_t j = 0; j < d.n(); ++j) {
      if (j != i && row[j] != inf) {
        heads.push_back(static_cast<std::int32_t>(i));
        tails.push_back(static_cast<std::int32_t>(j));
      }
    }
  }
}

#define APSP_MATRIX_ARCS(T)                                                                        \
  template void matrix_arcs<T>(const dense_matrix<T>&, std::vector<std::int32_t>&,               \
                               std::vector<std::int32_t>&);
APSP_MATRIX_ARCS(std::int32_t)
APSP_MATRIX_ARCS(float)
APSP_MATRIX_ARCS(std::int64_t)
APSP_MATRIX_ARCS(double)
#undef APSP_MATRIX_ARCS

void expect_supernodal_pays(const cpu::elimination_plan& ep) {
  APSP_EXPECTS(!ep.steps.empty() || ep.n == 0, invalid_argument_error,
               "the supernodal Floyd-Warshall needs a graph with small separators (a road "
               "network, a mesh); this one has none (" +
                   ep.order_name + "): use --algorithm fw or johnson");
}

std::int64_t supernodal_fill_limit(std::int64_t n) {
  // The column structures are kept (4 bytes an entry): at most 2^28 entries, 1 GiB, and never
  // more than the dense triangle.
  const std::int64_t triangle = n * (n - 1) / 2;
  return std::max<std::int64_t>(0, std::min<std::int64_t>(triangle, std::int64_t{1} << 28));
}

bool supernodal_has_nested_dissection() noexcept {
  return cpu::have_metis();
}

std::shared_ptr<const cpu::elimination_plan> analyse_supernodal(std::int64_t n, const graph& g) {
  return std::make_shared<const cpu::elimination_plan>(
      cpu::plan_elimination(n, g.sources(), g.targets(), supernodal_fill_limit(n)));
}

double supernodal_updates(const cpu::elimination_plan& ep) noexcept {
  return ep.updates;
}

std::unique_ptr<backend> make_supernodal_backend(std::shared_ptr<const cpu::elimination_plan> ep) {
  return std::make_unique<supernodal_backend>(std::move(ep));
}

} // namespace apsp::detail

// The naive O(n^3) Floyd-Warshall: the oracle every other back end is tested against.
// Deliberately simple and kept apart from the fast code.

#include <string>

#include "core/backend.hpp"
#include "core/host_memory.hpp"

namespace apsp::detail {
namespace {

template <bool Clamp, class T>
void floyd_warshall(dense_matrix<T>& d, via_matrix* via, run_context& ctx) {
  const std::int64_t n = d.n();
  if (via != nullptr) {
    for (auto& v : via->values())
      v = no_via;
  }
  for (std::int64_t k = 0; k < n; ++k) {
    for (std::int64_t i = 0; i < n; ++i) {
      const T dik = d(i, k);
      for (std::int64_t j = 0; j < n; ++j) {
        const T old = d(i, j);
        const T updated = relax<Clamp>(old, dik, d(k, j));
        if (updated < old) {
          d(i, j) = updated;
          if (via != nullptr)
            (*via)(i, j) = static_cast<std::int32_t>(k);
        }
      }
    }
    ctx.round_done(k + 1, n);
  }
}

class reference_backend final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::reference; }
  backend_status status() const override {
    return {backend_kind::reference, true, "naive triple loop, one thread"};
  }
  plan make_plan(std::int64_t n, const solve_options& o) const override {
    plan p;
    p.run = drivers::reference{};
    p.device = "cpu (reference, 1 thread)";
    p.type = o.type;
    p.n = n;
    p.block = 1;
    p.rounds = n;
    p.paths = o.paths;
    return p;
  }
  void run(any_matrix& d, via_matrix* via, const plan&, run_context& ctx) override {
    std::visit(
        [&](auto& m) {
          if (ctx.negative_weights()) {
            floyd_warshall<true>(m, via, ctx);
          } else {
            floyd_warshall<false>(m, via, ctx);
          }
        },
        d);
  }
};

} // namespace

std::unique_ptr<backend> make_reference_backend() {
  return std::make_unique<reference_backend>();
}

} // namespace apsp::detail

// Stand-in for builds without CUDA: the cuda back end exists but is never available.

#include "core/backend.hpp"

namespace apsp::detail {
namespace {

class cuda_unavailable final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::cuda; }
  backend_status status() const override {
    return {backend_kind::cuda, false, "this build of apsp has no CUDA support"};
  }
  plan make_plan(std::int64_t n, const solve_options& o) const override {
    plan p;
    p.backend = backend_kind::cuda;
    p.type = o.type;
    p.n = n;
    p.fits = false;
    p.reason = "this build of apsp has no CUDA support";
    return p;
  }
  void run(any_matrix&, via_matrix*, const plan&, run_context&) override {
    throw backend_unavailable_error("this build of apsp has no CUDA support");
  }
};

} // namespace

std::unique_ptr<backend> make_cuda_backend() {
  return std::make_unique<cuda_unavailable>();
}

} // namespace apsp::detail

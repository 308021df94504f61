// Stand-in for builds without CUDA: the cuda back end exists but is never available.

#include "core/backend.hpp"
#include "cuda/phast_table.hpp"
#include "cuda/rank_executor.hpp"
#include "cuda/rphast_gpu.hpp"

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

std::unique_ptr<backend> make_cuda_supernodal_backend(std::shared_ptr<const cpu::elimination_plan>) {
  return std::make_unique<cuda_unavailable>();
}

std::unique_ptr<backend> make_cuda_phast_backend() {
  return std::make_unique<cuda_unavailable>();
}

void rphast_rows_on_gpu(const cpu::contraction_hierarchy<std::int32_t>&,
                        const cpu::rphast_targets<std::int32_t>&, const std::vector<std::int32_t>&,
                        std::span<const std::int32_t>, std::span<const std::int32_t>,
                        const drivers::cuda_table&, std::int32_t*) {
  throw backend_unavailable_error("this build of apsp has no CUDA support");
}

void release_cuda_devices() noexcept {}

} // namespace apsp::detail

namespace apsp::cuda {

rank_device pick_rank_device(int) {
  rank_device none;
  none.name = "this build of apsp has no CUDA support";
  return none;
}

void sweep_table_on_gpu(const sweep_structure&, const seed_source&, std::int64_t,
                        const std::int32_t*, const std::int32_t*, std::int64_t,
                        const std::int32_t*, const gpu_sweep_config&, std::int32_t*) {
  throw backend_unavailable_error("this build of apsp has no CUDA support");
}

void rphast_table_on_gpu(const cpu::contraction_hierarchy<std::int32_t>&,
                         const cpu::rphast_targets<std::int32_t>&, const std::vector<std::int32_t>&,
                         std::span<const std::int32_t>, std::span<const std::int32_t>,
                         const gpu_sweep_config&, std::int32_t*) {
  throw backend_unavailable_error("this build of apsp has no CUDA support");
}

void phast_table_on_gpu(const cpu::contraction_hierarchy<std::int32_t>&,
                        const std::vector<std::int32_t>&, const std::int64_t*, std::int64_t,
                        const std::int64_t*, std::int64_t, const gpu_sweep_config&,
                        std::int32_t*) {
  throw backend_unavailable_error("this build of apsp has no CUDA support");
}

std::uint64_t rank_executor_bytes(const apsp::detail::grid_layout&, std::size_t, bool) {
  return 0;
}

template <class T>
std::unique_ptr<rank_gpu<T>> make_rank_gpu(int, const apsp::detail::local_tiles<T>&,
                                           const apsp::detail::weight_facts&, const graph*, bool) {
  throw backend_unavailable_error("this build of apsp has no CUDA support");
}

APSP_INSTANTIATE_MAKE_RANK_GPU(std::int32_t)
APSP_INSTANTIATE_MAKE_RANK_GPU(float)
#undef APSP_INSTANTIATE_MAKE_RANK_GPU

} // namespace apsp::cuda

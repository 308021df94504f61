#pragma once
// What the cuda back ends ask of the devices before planning (cuda_backend.cpp defines them):
// how many there are, their names, and which one a solve's options choose.

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/solve.hpp"

namespace apsp::detail {

/// Number of devices, or 0 with an explanation of why there are none in `why`.
[[nodiscard]] int device_count(std::string* why);
/// "NVIDIA H100 80GB HBM3 (device 0, sm_90, 132 SMs, 79.2 GiB)".
[[nodiscard]] std::string describe_device(int device);
/// The first device of solve_options::devices (device 0 when none, or "all", is named).
[[nodiscard]] int chosen_device(const solve_options& o);

/// The devices a cuda plan may use: how many there are, and the one its options choose.
struct plan_devices {
  int count = 0;
  int device = 0;
};
/// device_count and chosen_device for plan `p`: with no device, `p` is marked as not fitting
/// ("no CUDA device", and why) and count is 0; invalid_argument_error when the options choose
/// a device that does not exist.
[[nodiscard]] plan_devices find_plan_devices(plan& p, const solve_options& o);
/// Bytes a plan may use on `device`: its free memory less the reserve, within the options'
/// cap (--gpu-memory) and a test's forced size (APSP_CUDA_FORCE_OUT_OF_CORE_BYTES).
[[nodiscard]] std::uint64_t usable_device_bytes(int device, const solve_options& o);
/// A cuda back end's status: unavailable with why when there is no device (or it cannot be
/// described), else available, described as device 0 and then `engine` (", PHAST sweeps"; empty
/// for the dense engines).
[[nodiscard]] backend_status cuda_backend_status(const std::string& engine);

/// Calls solve(m) on the matrix `d` holds when its type is one the GPU solves (int32, float32)
/// and it has rows (n > 0); invalid_argument_error for the other types, naming `solver` ("the
/// cuda back end").
template <class Solve>
void visit_gpu_matrix(any_matrix& d, std::int64_t n, const char* solver, Solve&& solve) {
  std::visit(
      [&](auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>) {
          if (n > 0)
            solve(m);
        } else {
          throw invalid_argument_error(std::string(solver) +
                                       " solves int32 and float32 only; use the cpu back end");
        }
      },
      d);
}

} // namespace apsp::detail

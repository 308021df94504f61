#include "cpu/cpu_isa.hpp"

#include <cstdlib>
#include <string>

#include "apsp/error.hpp"
#include "core/tuning.hpp"

namespace apsp::detail::cpu {

std::string_view to_string(isa i) noexcept {
  switch (i) {
  case isa::scalar:
    return "scalar";
  case isa::avx2:
    return "avx2";
  case isa::avx512:
    return "avx512";
  }
  return "?";
}

bool isa_supported(isa i) noexcept {
  // libgcc's __builtin_cpu_supports also checks, through XGETBV, that the OS saves the wide
  // registers, so a supported ISA is really usable.
  switch (i) {
  case isa::scalar:
    return true;
  case isa::avx2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case isa::avx512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  }
  return false;
}

isa detect_isa() noexcept {
  if (isa_supported(isa::avx512))
    return isa::avx512;
  if (isa_supported(isa::avx2))
    return isa::avx2;
  return isa::scalar;
}

isa selected_isa() {
  const std::string& name = current_tuning().cpu_isa;
  if (name.empty() || name == "auto")
    return detect_isa();
  isa wanted;
  if (name == "avx512") {
    wanted = isa::avx512;
  } else if (name == "avx2") {
    wanted = isa::avx2;
  } else if (name == "scalar") {
    wanted = isa::scalar;
  } else {
    throw invalid_argument_error("APSP_CPU_ISA='" + name +
                                 "' is not a known ISA (expected auto, avx512, avx2 or scalar)");
  }
  APSP_EXPECTS(isa_supported(wanted), backend_unavailable_error,
               "APSP_CPU_ISA=" + name + " but this CPU does not support it");
  return wanted;
}

} // namespace apsp::detail::cpu

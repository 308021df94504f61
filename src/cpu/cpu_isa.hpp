#pragma once
// Which SIMD instruction set the cpu back end runs its kernels with, chosen at run time.

#include <string_view>

namespace apsp::detail::cpu {

enum class isa { scalar, avx2, avx512 };

/// "scalar", "avx2", "avx512".
[[nodiscard]] std::string_view to_string(isa i) noexcept;

/// Whether this CPU (and OS) can run kernels built for `i`.
[[nodiscard]] bool isa_supported(isa i) noexcept;

/// The best ISA this CPU supports.
[[nodiscard]] isa detect_isa() noexcept;

/// The ISA to use: detect_isa(), unless the environment variable APSP_CPU_ISA names one
/// ("avx512", "avx2", "scalar"; "auto" or empty = detect). Tests and benchmarks use it to run
/// every kernel family on one machine. Throws invalid_argument_error for an unknown name and
/// backend_unavailable_error for an ISA this CPU lacks.
[[nodiscard]] isa selected_isa();

} // namespace apsp::detail::cpu

#pragma once
// The tile edge shared by every kernel and the driver: the device matrix is padded to a
// multiple of it, so no kernel needs bounds checks.

namespace apsp::cuda::kernels {

inline constexpr int fw_tile = 128;

} // namespace apsp::cuda::kernels

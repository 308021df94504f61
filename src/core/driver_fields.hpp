#pragma once
// The fields of a plan that its driver decides (plan::backend, narrow, out_of_core), derived in
// one place. Internal: not installed.

#include "apsp/plan.hpp"
#include "apsp/types.hpp"

namespace apsp::detail {

/// Sets p.backend, p.narrow and p.out_of_core from p.run. A plan without a driver
/// (drivers::none: nothing can run it) keeps `planned_by`, the back end that made it.
void derive_driver_fields(plan& p, backend_kind planned_by) noexcept;

} // namespace apsp::detail

#include "core/driver_fields.hpp"

#include <type_traits>
#include <variant>

namespace apsp::detail {
namespace {

template <class> inline constexpr bool unknown_driver = false;

} // namespace

void derive_driver_fields(plan& p, backend_kind planned_by) noexcept {
  p.backend = std::visit(
      [planned_by](const auto& x) {
        using D = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<D, drivers::none>)
          return planned_by;
        else if constexpr (std::is_same_v<D, drivers::reference>)
          return backend_kind::reference;
        else if constexpr (std::is_same_v<D, drivers::cuda_in_core> ||
                           std::is_same_v<D, drivers::cuda_packed16> ||
                           std::is_same_v<D, drivers::cuda_split> ||
                           std::is_same_v<D, drivers::cuda_out_of_core> ||
                           std::is_same_v<D, drivers::cuda_supernodal> ||
                           std::is_same_v<D, drivers::cuda_phast> ||
                           std::is_same_v<D, drivers::cuda_table>)
          return backend_kind::cuda;
        else if constexpr (std::is_same_v<D, drivers::distributed>)
          return x.gpu ? backend_kind::cuda : backend_kind::cpu;
        else if constexpr (std::is_same_v<D, drivers::cpu_blocked> ||
                           std::is_same_v<D, drivers::supernodal> ||
                           std::is_same_v<D, drivers::johnson> ||
                           std::is_same_v<D, drivers::johnson_rows> ||
                           std::is_same_v<D, drivers::phast_rows> ||
                           std::is_same_v<D, drivers::block_rows> ||
                           std::is_same_v<D, drivers::ch_table> ||
                           std::is_same_v<D, drivers::pair_search> ||
                           std::is_same_v<D, drivers::rphast_table>)
          return backend_kind::cpu;
        else
          static_assert(unknown_driver<D>, "a new driver: say which back end runs it");
      },
      p.run);
  p.narrow = std::holds_alternative<drivers::cuda_packed16>(p.run);
  p.out_of_core = std::holds_alternative<drivers::cuda_out_of_core>(p.run) ||
                  (std::holds_alternative<drivers::cuda_supernodal>(p.run) &&
                   std::get<drivers::cuda_supernodal>(p.run).devices.size() == 1);
}

} // namespace apsp::detail

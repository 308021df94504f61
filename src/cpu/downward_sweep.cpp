#include "cpu/downward_sweep.hpp"

#include <string>

#include "apsp/error.hpp"
#include "cpu/cpu_isa.hpp"

namespace apsp::cpu {
namespace {

template <class T, int K> [[gnu::always_inline]] inline void sweep_body(const sweep_args<T>& s) {
  const auto count = static_cast<std::size_t>(s.count);
  const std::int64_t* offsets = s.offsets;
  const ch_arc<T>* arcs = s.arcs;
  T* __restrict d = s.d;
  const T cap = s.cap;
  std::size_t next_seed = 0;
  for (std::size_t p = 0; p < count; ++p) {
    T acc[K];
    for (int k = 0; k < K; ++k)
      acc[k] = cap;
    while (next_seed < s.seed_count && static_cast<std::size_t>(s.seeds[next_seed].position) == p) {
      const auto& sd = s.seeds[next_seed++];
      acc[sd.lane] = sd.dist < acc[sd.lane] ? sd.dist : acc[sd.lane];
    }
    for (std::int64_t a = offsets[p]; a < offsets[p + 1]; ++a) {
      const T* du = d + static_cast<std::size_t>(arcs[a].other) * K;
      const T w = arcs[a].weight;
      for (int k = 0; k < K; ++k) {
        const T c = du[k] + w;
        acc[k] = c < acc[k] ? c : acc[k];
      }
    }
    for (int k = 0; k < K; ++k)
      d[p * K + k] = acc[k];
  }
}

template <class T, int K> void sweep_scalar(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}
template <class T, int K> [[gnu::target("avx2")]] void sweep_avx2(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}
template <class T, int K>
[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq")]] void sweep_avx512(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}

template <class T, int K> sweep_fn<T> sweep_for(detail::cpu::isa isa) {
  switch (isa) {
  case detail::cpu::isa::avx512:
    return &sweep_avx512<T, K>;
  case detail::cpu::isa::avx2:
    return &sweep_avx2<T, K>;
  case detail::cpu::isa::scalar:
    break;
  }
  return &sweep_scalar<T, K>;
}

} // namespace

template <class T> sweep_fn<T> downward_sweep(int lanes) {
  const detail::cpu::isa isa = detail::cpu::selected_isa();
  switch (lanes) {
  case 1:
    return sweep_for<T, 1>(isa);
  case 4:
    return sweep_for<T, 4>(isa);
  case 8:
    return sweep_for<T, 8>(isa);
  case 16:
    return sweep_for<T, 16>(isa);
  default:
    throw invalid_argument_error("sweep lanes must be 1, 4, 8 or 16, got " + std::to_string(lanes));
  }
}

template sweep_fn<std::int32_t> downward_sweep<std::int32_t>(int);
template sweep_fn<std::int64_t> downward_sweep<std::int64_t>(int);

} // namespace apsp::cpu

// The cpu back end: blocked Floyd-Warshall with OpenMP threads and run-time-selected SIMD
// kernels (AVX-512, AVX2 or portable scalar).

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "core/backend.hpp"
#include "core/checkpoint.hpp"
#include "core/host_memory.hpp"
#include "core/process_checkpoints.hpp"
#include "cpu/blocked_fw.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/cpu_plan.hpp"
#include "core/thread_count.hpp"

namespace apsp::detail {
namespace {

/// Default tile edge. Phase 3 reads and writes the whole matrix once per round: b updates per
/// element moved. 128 (96 for 8-byte types, whose kernel strips are half as wide)
/// keeps that far below memory bandwidth while the matrix fits in L3 (taken as 32 MiB: VMs
/// report the host's L3 through sysconf, and a fixed rule keeps plans reproducible), and twice
/// that halves the DRAM traffic once it does not. Phases 1 and 2 cost about 2b/n of the work, phase
/// 1 on one thread, so the tile never grows past these.
std::int64_t default_block(std::int64_t n, dtype type) {
  const std::int64_t base = size_of(type) == 4 ? 128 : 96;
  constexpr double l3_bytes = 32.0 * 1024 * 1024;
  const double matrix_bytes =
      static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(size_of(type));
  // int32 with the matrix in the last-level cache: 96-wide tiles balance the phases better
  // (faster rounds than 128); float32's kernels lose speed there, so they keep 128 (measured:
  // docs/dev/benchmark-log.md, 'Figures from code comments';
  // bench/results/cpu_block_2026-11-23.csv).
  const bool int32_in_cache = type == dtype::int32 && matrix_bytes <= l3_bytes;
  std::int64_t b = matrix_bytes > l3_bytes ? 2 * base : int32_in_cache ? 96 : base;
  // Small graphs: at least 8 rounds, so the serial phase 1 stays a small share.
  b = std::min(b, std::max<std::int64_t>(32, (n / 8 + 31) / 32 * 32));
  return std::max<std::int64_t>(1, std::min(b, n));
}

class cpu_backend final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::cpu; }

  backend_status status() const override {
    const int threads = omp_get_max_threads();
    return {backend_kind::cpu, true,
            "blocked Floyd-Warshall, " + std::to_string(threads) + " threads, " +
                std::string(cpu::to_string(cpu::detect_isa()))};
  }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    plan p = cpu_plan(n, o);
    const int threads = thread_count(o);
    const cpu::isa isa = cpu::selected_isa();
    p.run = drivers::cpu_blocked{threads};
    p.checkpointed = wants_checkpoints(o) && n > 0;
    p.device =
        "cpu (" + std::to_string(threads) + " threads, " + std::string(cpu::to_string(isa)) + ")";
    // A tile larger than the graph would only waste packed memory.
    p.block =
        o.block > 0 ? std::min(o.block, std::max<std::int64_t>(n, 1)) : default_block(n, o.type);
    p.rounds = n == 0 ? 0 : (n + p.block - 1) / p.block;
    p.working_host_bytes = cpu::workspace_bytes(n, p.block, threads, size_of(o.type), o.paths);
    return p;
  }

  void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) override {
    cpu::blocked_config cfg;
    cfg.block = p.block;
    cfg.threads = thread_count(ctx.options());
    cfg.kernels = cpu::selected_isa();
    std::visit(
        [&](auto& m) {
          process_checkpoints saved(ctx, m.n(), p.block, m.data(),
                                    via != nullptr ? via->data() : nullptr, p.rounds);
          cpu::blocked_floyd_warshall(m, via, cfg, ctx, saved.hooks);
        },
        d);
  }
};

} // namespace

std::unique_ptr<backend> make_cpu_backend() {
  return std::make_unique<cpu_backend>();
}

} // namespace apsp::detail

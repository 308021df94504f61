// The out-of-core driver (see out_of_core.hpp): planning and the three-phase outer rounds.

#include "cuda/out_of_core.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/host_memory.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/host_tiles.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int64_t tile = kernels::fw_tile;
/// Tiles in flight in phase 3: one copying in, one computing, one copying out.
constexpr int slots = 3;
/// Deeper outer blocks add little once the rounds are compute-bound (see out_of_core.hpp).
constexpr std::int64_t max_outer_block = 4096;
constexpr const char* marker = "(out-of-core, outer block ";

} // namespace

std::uint64_t out_of_core_device_bytes(std::int64_t n, std::int64_t bo, std::size_t elem_bytes,
                                       bool paths, bool tagged) {
  const auto ldp = static_cast<std::uint64_t>(round_up(n, bo));
  const auto b = static_cast<std::uint64_t>(bo);
  // Row and column panels, the pivot block and the phase-3 tiles; with paths the same again in
  // int32 plus the pivot block's local via, and the tagged slices of the products.
  const std::uint64_t cells = 2 * b * ldp + (1 + slots) * b * b;
  const std::uint64_t tags = paths && tagged
                                 ? tag_workspace_bytes(static_cast<std::int64_t>(ldp),
                                                       static_cast<std::int64_t>(ldp), bo / tile) +
                                       slots * tag_workspace_bytes(bo, bo, bo / tile)
                                 : 0;
  return cells * (elem_bytes + (paths ? 4 : 0)) + (paths ? 4 * b * b : 0) + tags;
}

std::int64_t choose_outer_block(std::int64_t n, std::size_t elem_bytes, bool paths,
                                std::uint64_t usable, bool* tagged) {
  const std::int64_t top = std::min(max_outer_block, round_up(std::max<std::int64_t>(n, 1), tile));
  // The workspaces are small next to the panels except at the smallest blocks: drop them only
  // when nothing fits with them.
  for (const bool with_tags : {paths, false}) {
    for (std::int64_t bo = top; bo >= tile; bo -= tile) {
      if (out_of_core_device_bytes(n, bo, elem_bytes, paths, with_tags) <= usable) {
        if (tagged != nullptr)
          *tagged = with_tags;
        return bo;
      }
    }
  }
  return 0;
}

bool out_of_core_tagged(const plan& p) {
  return p.paths &&
         p.device_bytes == out_of_core_device_bytes(p.n, p.block, size_of(p.type), true, true);
}

std::uint64_t forced_out_of_core_bytes() {
  const char* v = std::getenv("APSP_CUDA_FORCE_OUT_OF_CORE_BYTES");
  if (v == nullptr || *v == '\0')
    return 0;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 10);
  std::uint64_t scale = 1;
  if (end != nullptr && *end != '\0') {
    switch (*end) {
    case 'K':
    case 'k':
      scale = std::uint64_t{1} << 10;
      break;
    case 'M':
    case 'm':
      scale = std::uint64_t{1} << 20;
      break;
    case 'G':
    case 'g':
      scale = std::uint64_t{1} << 30;
      break;
    default:
      break;
    }
  }
  return static_cast<std::uint64_t>(x) * scale;
}

bool plan_out_of_core(plan& p, const std::string& device_label, std::uint64_t usable,
                      bool distances_in_file) {
  const std::size_t elem = size_of(p.type);
  bool tagged = false;
  const std::int64_t bo = choose_outer_block(p.n, elem, p.paths, usable, &tagged);
  if (bo == 0 || p.n == 0)
    return false;
  const auto host_cells = static_cast<std::uint64_t>(p.n) * static_cast<std::uint64_t>(p.n);
  // A distance matrix kept in a memory-mapped file (solve_options::distances_file) needs no RAM.
  const std::uint64_t host_bytes =
      host_cells * ((distances_in_file ? 0 : elem) + (p.paths ? 4 : 0));
  const std::uint64_t ram = apsp::detail::physical_memory_bytes();
  p.block = bo;
  p.rounds = (p.n + bo - 1) / bo;
  p.device_bytes = out_of_core_device_bytes(p.n, bo, elem, p.paths, tagged);
  p.host_bytes = host_bytes;
  p.device = device_label + " " + marker + std::to_string(bo) + ")";
  p.out_of_core = true;
  if (ram != 0 && host_bytes > ram) {
    p.fits = false;
    p.reason = "the out-of-core solve keeps the matrices in host memory: " +
               apsp::detail::gib(host_bytes) + " needed, " + apsp::detail::gib(ram) +
               " installed (keep the distances in a memory-mapped file: --map-output)";
  } else {
    p.fits = true;
    p.reason.clear();
  }
  return true;
}

bool is_out_of_core(const plan& p) {
  return p.out_of_core;
}

namespace {

/// One device's buffers, events and streams for the out-of-core rounds; created with the
/// device current. Members are destroyed in reverse order: the streams (which wait for their
/// work) first, then events and buffers, and the device is made current again before those.
template <class T> struct ooc_worker {
  ooc_worker(int device, std::size_t bb, std::size_t panel, bool paths, bool tagged,
             std::int64_t bo, std::int64_t ldp)
      : id(device) {
    d_row = device_buffer<T>(panel); // [bo][ldp]: block row R
    d_col = device_buffer<T>(panel); // [ldp][bo]: block column R
    d_piv = device_buffer<T>(bb);    // [bo][bo]
    v_row = device_buffer<std::int32_t>(paths ? panel : 0);
    v_col = device_buffer<std::int32_t>(paths ? panel : 0);
    v_piv = device_buffer<std::int32_t>(paths ? bb : 0);
    for (int q = 0; q < slots; ++q) {
      d_tile[q] = device_buffer<T>(bb);
      v_tile[q] = device_buffer<std::int32_t>(paths ? bb : 0);
    }
    if (tagged) {
      // Tagged slices (tagged_panels.hpp): the panel products are up to ldp wide (or tall),
      // the phase-3 tiles bo x bo.
      tags_panels = tag_workspace(ldp, ldp, bo / tile);
      for (auto& t : tags_tile)
        t = tag_workspace(bo, bo, bo / tile);
    }
    teardown.id = device;
  }
  int id;
  device_buffer<T> d_row, d_col, d_piv;
  device_buffer<std::int32_t> v_row, v_col, v_piv;
  std::array<device_buffer<T>, slots> d_tile;
  std::array<device_buffer<std::int32_t>, slots> v_tile;
  tag_workspace tags_panels;                  // for the panel products on s0
  std::array<tag_workspace, slots> tags_tile; // for the phase-3 products, one per slot stream
  event panels_ready{cudaEventDisableTiming};
  event panels_read{cudaEventDisableTiming}; // this round's panels are on the device
  event panels_home{cudaEventDisableTiming | cudaEventBlockingSync}; // ... and back in host memory
  event timed_begin[2], timed_end[2]; // a round's span (first device)
  std::array<event, slots> slot_done;
  event round_end[2] = {event(cudaEventDisableTiming | cudaEventBlockingSync),
                        event(cudaEventDisableTiming | cudaEventBlockingSync)};
  stream s0;
  std::array<stream, slots> s_slot;
  current_on_teardown teardown; // destroyed first (resources.hpp)
};

} // namespace

namespace {

/// How many of a round's phase-3 tiles the host takes: one to measure its pace first, then as
/// many as it finishes in about 80 % of the time the devices take for the rest (k tiles at c
/// seconds each against (T - k) at g: k = T g / (c + g)), none when it is too slow to help.
struct cpu_share {
  double cpu_tile_s = 0; // seconds per tile on the host (0: not measured yet)
  double gpu_tile_s = 0; // seconds per tile on the devices, round overheads included
  std::int64_t cpu_tiles_total = 0;
  std::int64_t tiles_total = 0;

  std::int64_t next(std::int64_t tiles) {
    tiles_total += tiles;
    std::int64_t k = 0;
    if (cpu_tile_s == 0) {
      k = tiles >= 4 ? 1 : 0; // the probe
    } else if (gpu_tile_s > 0) {
      const double fair = static_cast<double>(tiles) * gpu_tile_s / (cpu_tile_s + gpu_tile_s);
      k = static_cast<std::int64_t>(0.8 * fair);
    }
    k = std::min(k, tiles / 2);
    cpu_tiles_total += k;
    return k;
  }
  void cpu_done(std::int64_t tiles, double seconds) {
    cpu_tile_s = seconds / static_cast<double>(tiles);
  }
  void gpu_round(std::int64_t tiles, double seconds) {
    if (tiles > 0)
      gpu_tile_s = seconds / static_cast<double>(tiles);
  }
};

} // namespace

template <class T>
void solve_out_of_core(dense_matrix<T>& h_d, via_matrix* h_via, apsp::detail::run_context& ctx,
                       const std::vector<int>& devices, std::int64_t bo, bool tagged) {
  const std::int64_t n = h_d.n();
  if (n == 0 || devices.empty())
    return;
  const std::int64_t blocks = (n + bo - 1) / bo;
  const std::int64_t ldp = blocks * bo;
  const std::int64_t n_up = round_up(n, tile); // products stop at the last real tile
  const bool paths = h_via != nullptr;
  const bool clamp = ctx.negative_weights();
  const T inf = weight_traits<T>::infinity;
  const auto bb = static_cast<std::size_t>(bo * bo);
  const auto panel = static_cast<std::size_t>(bo * ldp);
  const int used = static_cast<int>(devices.size());
  nvtx_range range("apsp::cuda::solve (out-of-core)");
  device_guard keep(devices.front()); // restores the caller's device after the teardown below

  T* h = h_d.data();
  std::int32_t* hv = paths ? h_via->data() : nullptr;
  if (paths) {
    // Every entry must start as "direct edge"; the device only writes entries that improve.
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      std::fill(hv + i * n, hv + (i + 1) * n, no_via);
  }

  // Declaration order is teardown order reversed: the workers (whose streams wait for their
  // work) go first, and the host memory is unpinned last.
  // Page-locking in place (portable: for every device) lets every tile copy run asynchronously
  // at full speed without a host copy (each round moves the matrix twice).
  // APSP_CUDA_OOC_NO_PIN=1 skips it (pageable copies, for comparison); APSP_CUDA_VERBOSE=1
  // prints what it cost.
  const bool pin = std::getenv("APSP_CUDA_OOC_NO_PIN") == nullptr;
  const auto pin_start = std::chrono::steady_clock::now();
  host_registration pin_d(pin ? h : nullptr, h_d.size() * sizeof(T));
  host_registration pin_v(pin ? hv : nullptr, paths ? h_via->size() * sizeof(std::int32_t) : 0);
  if (std::getenv("APSP_CUDA_VERBOSE") != nullptr) {
    const double sec =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - pin_start).count();
    std::fprintf(stderr,
                 "apsp cuda out-of-core: n=%lld, outer block %lld, %lld rounds, %d device(s); "
                 "host matrices %s in %.3f s\n",
                 static_cast<long long>(n), static_cast<long long>(bo),
                 static_cast<long long>(blocks), used,
                 pin_d.pinned() ? "page-locked" : "pageable (not page-locked)", sec);
  }
  std::vector<std::unique_ptr<ooc_worker<T>>> workers;
  for (int dev : devices) {
    APSP_CUDA_TRY(cudaSetDevice(dev));
    configure_block_kernels<T>(bo, clamp, paths);
    workers.push_back(std::make_unique<ooc_worker<T>>(
        dev, bb, panel, paths, tagged && uses_tagged_paths<T>(paths, clamp), bo, ldp));
  }

  // The CPU's share of phase 3 (host_tiles.hpp): distances only; APSP_CUDA_OOC_CPU=0 turns it
  // off. The share follows the measured paces so the host never holds the devices up.
  std::unique_ptr<host_tiles<T>> cpu;
  const char* cpu_env = std::getenv("APSP_CUDA_OOC_CPU");
  if (!paths && !(cpu_env != nullptr && std::string(cpu_env) == "0") && blocks >= 3)
    cpu = std::make_unique<host_tiles<T>>(bo, clamp);
  cpu_share share;
  std::int64_t last_gpu_tiles[2] = {0, 0};

  for (std::int64_t R = 0; R < blocks; ++R) {
    // The host stays at most two rounds ahead, so progress is current and cancel is prompt.
    if (R >= 2) {
      for (auto& w : workers)
        w->round_end[R % 2].synchronize();
    }
    nvtx_range round_range("apsp::cuda out-of-core round");
    if (cpu && R >= 2) {
      // The devices' pace: round R - 2 of the first device, finished (waited for above).
      ooc_worker<T>& w = *workers.front();
      w.timed_end[R % 2].synchronize();
      float ms = 0;
      APSP_CUDA_TRY(
          cudaEventElapsedTime(&ms, w.timed_begin[R % 2].get(), w.timed_end[R % 2].get()));
      share.gpu_round(last_gpu_tiles[R % 2], ms / 1e3);
    }
    // The host's share of phase 3: the last `cpu_count` tiles of the round, in the order below.
    const std::int64_t others = blocks - 1;
    const std::int64_t cpu_count = cpu ? share.next(others * others) : 0;
    const std::int64_t cpu_first = others * others - cpu_count; // tile index where the CPU starts
    const std::int64_t k0 = R * bo;
    const std::int64_t kv = std::min(bo, n - k0); // real pivot vertices in this block
    const std::int64_t kt = round_up(kv, tile);   // k extent of the products
    const std::int64_t right = k0 + bo;           // first column (row) after the pivot block

    for (int wi = 0; wi < used; ++wi) {
      ooc_worker<T>& w = *workers[static_cast<std::size_t>(wi)];
      APSP_CUDA_TRY(cudaSetDevice(w.id));
      cudaStream_t s = w.s0.get();
      if (wi == 0 && cpu)
        w.timed_begin[R % 2].record(s);
      // This round reads what every device wrote back in the last one.
      if (R > 0) {
        for (auto& other : workers) {
          if (other.get() != &w)
            APSP_CUDA_TRY(cudaStreamWaitEvent(s, other->round_end[(R - 1) % 2].get(), 0));
        }
      }

      // 1. Panels in; padding = infinity, so padded vertices never improve a real distance.
      upload_rect(w.d_row.data(), ldp, h, n, k0, 0, kv, n, s);
      enqueue_fill_rect(w.d_row.data(), ldp, kv, bo - kv, 0, ldp, inf, s);
      enqueue_fill_rect(w.d_row.data(), ldp, 0, kv, n, ldp - n, inf, s);
      upload_rect(w.d_col.data(), bo, h, n, 0, k0, n, kv, s);
      enqueue_fill_rect(w.d_col.data(), bo, n, ldp - n, 0, bo, inf, s);
      enqueue_fill_rect(w.d_col.data(), bo, 0, n, kv, bo - kv, inf, s);
      if (paths) {
        upload_rect(w.v_row.data(), ldp, hv, n, k0, 0, kv, n, s);
        upload_rect(w.v_col.data(), bo, hv, n, 0, k0, n, kv, s);
      }
      w.panels_read.record(s);

      // 2. The pivot block, closed with the in-core kernels, then written into both panels.
      // Every device does this (and step 3) for itself: it is 2 Bo / n of the round's work.
      copy_rect_d2d(w.d_piv.data(), bo, w.d_row.data() + k0, ldp, bo, bo, s);
      enqueue_pivot_block(w.d_piv.data(), paths ? w.v_piv.data() : nullptr, bo, kt / tile, clamp,
                          s);
      copy_rect_d2d(w.d_row.data() + k0, ldp, w.d_piv.data(), bo, bo, bo, s);
      copy_rect_d2d(w.d_col.data() + k0 * bo, bo, w.d_piv.data(), bo, bo, bo, s);
      if (paths) {
        enqueue_merge_via(w.v_row.data() + k0, ldp, w.v_piv.data(), bo, kv, kv, k0, s);
        enqueue_merge_via(w.v_col.data() + k0 * bo, bo, w.v_piv.data(), bo, kv, kv, k0, s);
      }

      // 3. The panels: row panel = pivot (x) row panel, column panel = column panel (x) pivot,
      // left and right of (above and below) the pivot block.
      gemm_args<T> g;
      g.clamp = clamp;
      g.tags = w.tags_panels.view();
      g.k = kt;
      g.k_base = k0;
      g.rows = kt;
      g.a = w.d_piv.data();
      g.lda = bo;
      g.ldc = g.ldb = ldp;
      g.via = paths ? w.v_row.data() : nullptr;
      g.c = w.d_row.data();
      g.b = g.c;
      g.cols = k0;
      enqueue_gemm(g, s);
      g.c = w.d_row.data() + right;
      g.b = g.c;
      g.via = paths ? w.v_row.data() + right : nullptr;
      g.cols = std::max<std::int64_t>(0, n_up - right);
      enqueue_gemm(g, s);

      g.cols = kt;
      g.b = w.d_piv.data();
      g.ldb = bo;
      g.lda = g.ldc = bo;
      g.c = w.d_col.data();
      g.a = g.c;
      g.via = paths ? w.v_col.data() : nullptr;
      g.rows = k0;
      enqueue_gemm(g, s);
      g.c = w.d_col.data() + right * bo;
      g.a = g.c;
      g.via = paths ? w.v_col.data() + right * bo : nullptr;
      g.rows = std::max<std::int64_t>(0, n_up - right);
      enqueue_gemm(g, s);
      w.panels_ready.record(s);

      // Panels out, by the first device only (the pivot block once, with the row panel), once
      // every device has read the old ones; overlaps phase 3, which only reads the panels and
      // writes other host tiles.
      if (wi == 0) {
        for (int wj = 1; wj < used; ++wj) {
          APSP_CUDA_TRY(
              cudaStreamWaitEvent(s, workers[static_cast<std::size_t>(wj)]->panels_read.get(), 0));
        }
        download_rect(h, n, k0, 0, w.d_row.data(), ldp, kv, n, s);
        download_rect(h, n, 0, k0, w.d_col.data(), bo, k0, kv, s);
        download_rect(h, n, k0 + kv, k0, w.d_col.data() + (k0 + kv) * bo, bo, n - k0 - kv, kv, s);
        if (paths) {
          download_rect(hv, n, k0, 0, w.v_row.data(), ldp, kv, n, s);
          download_rect(hv, n, 0, k0, w.v_col.data(), bo, k0, kv, s);
          download_rect(hv, n, k0 + kv, k0, w.v_col.data() + (k0 + kv) * bo, bo, n - k0 - kv, kv,
                        s);
        }
        w.panels_home.record(s);
      }

      // 4. This device's share of the other tiles (block rows I with I mod devices = its
      // index): in, product, out, round-robin over the slots (each slot's stream orders its own
      // reuse).
      for (auto& st : w.s_slot)
        APSP_CUDA_TRY(cudaStreamWaitEvent(st.get(), w.panels_ready.get(), 0));
      int next = 0;
      for (std::int64_t I = wi; I < blocks; I += used) {
        if (I == R)
          continue;
        // Tiles are numbered row-major over the (blocks - 1)^2 tiles off the pivot block row and
        // column; from cpu_first on they are the host's.
        const std::int64_t row_index = I < R ? I : I - 1;
        const std::int64_t i0 = I * bo;
        const std::int64_t iv = std::min(bo, n - i0);
        for (std::int64_t J = 0; J < blocks; ++J) {
          if (J == R)
            continue;
          if (row_index * others + (J < R ? J : J - 1) >= cpu_first)
            continue;
          const std::int64_t j0 = J * bo;
          const std::int64_t jv = std::min(bo, n - j0);
          const int q = next;
          next = (next + 1) % slots;
          cudaStream_t sq = w.s_slot[q].get();
          // Outside the real iv x jv corner, the tile buffer holds stale values: they only feed
          // outputs in the same padded rows and columns, which are never copied out.
          upload_rect(w.d_tile[q].data(), bo, h, n, i0, j0, iv, jv, sq);
          if (paths)
            upload_rect(w.v_tile[q].data(), bo, hv, n, i0, j0, iv, jv, sq);
          gemm_args<T> t = g;
          t.c = w.d_tile[q].data();
          t.ldc = bo;
          t.via = paths ? w.v_tile[q].data() : nullptr;
          t.tags = w.tags_tile[q].view();
          t.a = w.d_col.data() + i0 * bo;
          t.lda = bo;
          t.b = w.d_row.data() + j0;
          t.ldb = ldp;
          t.rows = round_up(iv, tile);
          t.cols = round_up(jv, tile);
          t.k = kt;
          t.k_base = k0;
          enqueue_gemm(t, sq);
          download_rect(h, n, i0, j0, w.d_tile[q].data(), bo, iv, jv, sq);
          if (paths)
            download_rect(hv, n, i0, j0, w.v_tile[q].data(), bo, iv, jv, sq);
        }
      }
      for (int q = 0; q < slots; ++q) {
        w.slot_done[q].record(w.s_slot[q].get());
        APSP_CUDA_TRY(cudaStreamWaitEvent(s, w.slot_done[q].get(), 0));
      }
      w.round_end[R % 2].record(s);
      if (wi == 0 && cpu)
        w.timed_end[R % 2].record(s);
    }
    if (cpu_count > 0) {
      // The host's tiles, once the panels are back in host memory, while the devices run theirs.
      // The next round's copies are enqueued after this, so they see these tiles.
      workers.front()->panels_home.synchronize();
      const auto t0 = std::chrono::steady_clock::now();
      for (std::int64_t t = cpu_first; t < others * others; ++t) {
        const std::int64_t ri = t / others;
        const std::int64_t rj = t % others;
        const std::int64_t I = ri < R ? ri : ri + 1;
        const std::int64_t J = rj < R ? rj : rj + 1;
        cpu->update(h, n, I * bo, std::min(bo, n - I * bo), J * bo, std::min(bo, n - J * bo), k0,
                    kv);
      }
      share.cpu_done(cpu_count,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    last_gpu_tiles[R % 2] = others * others - cpu_count;
    ctx.round_done(R + 1, blocks);
  }
  for (auto& w : workers) {
    APSP_CUDA_TRY(cudaSetDevice(w->id));
    w->s0.synchronize();
  }
  if (cpu && std::getenv("APSP_CUDA_VERBOSE") != nullptr) {
    std::fprintf(
        stderr, "apsp cuda out-of-core: the host updated %lld of %lld phase-3 tiles (%.1f %%)\n",
        static_cast<long long>(share.cpu_tiles_total), static_cast<long long>(share.tiles_total),
        share.tiles_total > 0 ? 100.0 * static_cast<double>(share.cpu_tiles_total) /
                                    static_cast<double>(share.tiles_total)
                              : 0.0);
  }
}

template void solve_out_of_core<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                              apsp::detail::run_context&, const std::vector<int>&,
                                              std::int64_t, bool);
template void solve_out_of_core<float>(dense_matrix<float>&, via_matrix*,
                                       apsp::detail::run_context&, const std::vector<int>&,
                                       std::int64_t, bool);

} // namespace apsp::cuda

// The multi-GPU driver (see multi_gpu.hpp): planning, the row split and the per-round exchange.

#include "cuda/multi_gpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "core/host_memory.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int64_t tile = kernels::fw_tile;
/// Device memory left unplanned for the context, kernels and the allocator (as single-GPU).
constexpr std::uint64_t device_reserve_bytes = std::uint64_t{512} << 20;
constexpr const char* marker = "(multi-GPU";

using apsp::detail::gib;

/// Tile rows [first, last) of device index d among `used`.
struct row_split {
  std::int64_t first = 0;
  std::int64_t last = 0;
};
row_split split_of(std::int64_t tiles, int used, int d) {
  return {tiles * d / used, tiles * (d + 1) / used};
}

std::uint64_t device_bytes_for(std::int64_t tile_rows, std::int64_t ld, std::size_t elem,
                               bool paths) {
  const auto rows = static_cast<std::uint64_t>(tile_rows * tile);
  const auto l = static_cast<std::uint64_t>(ld);
  const std::uint64_t t2 = static_cast<std::uint64_t>(tile * tile);
  // Own rows, the pulled pivot row, the pivot tile; with paths the own rows' via, the pivot
  // tile's local via and the tagged slices of the products.
  return rows * l * (elem + (paths ? 4 : 0)) + tile * l * elem + t2 * elem + (paths ? 4 * t2 : 0) +
         (paths ? tag_workspace_bytes(tile_rows * tile, ld, 1) : 0);
}

/// Per-device state; created with its device current. Members are destroyed in reverse order:
/// the stream (which waits for its work) first.
template <class T> struct device_state {
  int id = 0;
  row_split split;
  std::int64_t real_rows = 0; // rows of the real matrix held (the last device's end is n)
  device_buffer<T> d;         // [(last-first)*128][ld]
  device_buffer<T> pivot_row; // [128][ld]
  device_buffer<T> piv;       // [128][128]
  device_buffer<std::int32_t> via;
  device_buffer<std::int32_t> piv_via;
  tag_workspace tags; // paths: tagged slices of this device's products (one k slice)
  event row_ready{cudaEventDisableTiming};
  event pulled{cudaEventDisableTiming};
  event round_end[2] = {event(cudaEventDisableTiming | cudaEventBlockingSync),
                        event(cudaEventDisableTiming | cudaEventBlockingSync)};
  stream s;
  current_on_teardown teardown; // destroyed first (resources.hpp)
  [[nodiscard]] std::int64_t rows() const { return (split.last - split.first) * tile; }
};

/// "0,1,...": the first `count` devices.
std::string device_list(const std::vector<int>& devices, int count) {
  std::string list;
  for (int i = 0; i < count; ++i) {
    if (i > 0)
      list.push_back(',');
    list.append(std::to_string(devices[static_cast<std::size_t>(i)]));
  }
  return list;
}

/// `--devices all` splits an in-core matrix only from this n on: below it the per-round pivot
/// row exchange and the synchronisation cost more than the second GPU saves. Measured whole
/// runs on 2x H200: n = 20,000 took 1.63 s on two GPUs against 1.35 s on one; n = 40,000 ran
/// 1.70x faster on two. An explicit device list is always honoured.
constexpr std::int64_t all_devices_min_n = 30000;

bool asks_for_all(const solve_options& o) {
  return std::any_of(o.devices.begin(), o.devices.end(), [](int d) { return d < 0; });
}

/// APSP_CUDA_FORCE_MULTI_GPU (tests): the multi-GPU driver runs even for one listed device,
/// and a device may be listed twice, so its exchange logic runs on a single GPU.
bool forced_multi_gpu() {
  const char* v = std::getenv("APSP_CUDA_FORCE_MULTI_GPU");
  return v != nullptr && *v != '\0' && *v != '0';
}

/// Runs f(i) for i in [0, count) on one host thread each and rethrows the first failure: the
/// staged copies of different devices then share the host's memory bandwidth instead of
/// queueing (the current device is per thread: f sets its own).
template <class F> void on_host_threads(int count, F&& f) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&, i] {
      try {
        f(i);
      } catch (...) {
        errors[static_cast<std::size_t>(i)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads)
    t.join();
  for (auto& e : errors) {
    if (e)
      std::rethrow_exception(e);
  }
}

} // namespace

std::vector<int> resolve_devices(const solve_options& o, int count) {
  std::vector<int> out;
  for (int d : o.devices) {
    if (d < 0) {
      out.clear();
      for (int i = 0; i < count; ++i)
        out.push_back(i);
      return out;
    }
    APSP_EXPECTS(d < count, invalid_argument_error,
                 "CUDA device " + std::to_string(d) + " does not exist (" + std::to_string(count) +
                     " found)");
    APSP_EXPECTS(forced_multi_gpu() || std::find(out.begin(), out.end(), d) == out.end(),
                 invalid_argument_error, "CUDA device " + std::to_string(d) + " is listed twice");
    out.push_back(d);
  }
  if (out.empty())
    out.push_back(0);
  return out;
}

bool plan_multi_gpu(plan& p, const solve_options& o, int count) {
  const std::vector<int> devices = resolve_devices(o, count);
  if ((devices.size() < 2 && !(forced_multi_gpu() && !o.devices.empty())) || p.n == 0)
    return false;
  if (asks_for_all(o) && p.n < all_devices_min_n && forced_out_of_core_bytes() == 0) {
    // One device, if the matrix fits there (the caller plans it); else the split below.
    const std::size_t cell = size_of(p.type) + (p.paths ? 4 : 0);
    const auto need = static_cast<std::uint64_t>(round_up(p.n, tile)) *
                      static_cast<std::uint64_t>(round_up(p.n, tile)) * cell;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    {
      device_guard guard(devices.front());
      APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    }
    std::uint64_t usable =
        free_bytes > device_reserve_bytes ? free_bytes - device_reserve_bytes : 0;
    if (o.device_memory_limit != 0)
      usable = std::min<std::uint64_t>(usable, o.device_memory_limit);
    if (need <= usable)
      return false;
  }
  const std::int64_t ld = round_up(p.n, tile);
  const std::int64_t tiles = ld / tile;
  const int used =
      static_cast<int>(std::min<std::int64_t>(tiles, static_cast<std::int64_t>(devices.size())));
  const std::size_t elem = size_of(p.type);
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, devices.front()));
  p.device = std::to_string(used) + "x " + prop.name + " " + marker + ", devices " +
             device_list(devices, used) + ", tile rows split)";
  p.devices = used;
  p.block = tile;
  p.rounds = tiles;
  const auto host_cells = static_cast<std::uint64_t>(p.n) * static_cast<std::uint64_t>(p.n);
  p.host_bytes = host_cells * (elem + (p.paths ? 4 : 0));
  p.device_bytes = 0;
  p.fits = true;
  p.reason.clear();
  std::uint64_t least_usable = ~std::uint64_t{0};
  for (int i = 0; i < used; ++i) {
    const int dev = devices[static_cast<std::size_t>(i)];
    const row_split sp = split_of(tiles, used, i);
    const std::uint64_t need = device_bytes_for(sp.last - sp.first, ld, elem, p.paths);
    p.device_bytes = std::max(p.device_bytes, need);
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    {
      device_guard guard(dev);
      APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    }
    std::uint64_t usable =
        free_bytes > device_reserve_bytes ? free_bytes - device_reserve_bytes : 0;
    if (o.device_memory_limit != 0)
      usable = std::min<std::uint64_t>(usable, o.device_memory_limit);
    least_usable = std::min(least_usable, usable);
    if (need > usable && p.fits) {
      p.fits = false;
      p.reason = "device " + std::to_string(dev) + " needs " + gib(need) + " for its rows but " +
                 gib(usable) + " is usable";
    }
  }
  // Larger than the devices together (or a test forcing it): every device streams tiles out of
  // core, block rows dealt out among them (out_of_core.hpp).
  const std::uint64_t forced = forced_out_of_core_bytes();
  if (p.fits && forced == 0)
    return true;
  if (forced != 0)
    least_usable = std::min(least_usable, forced);
  plan ooc = p;
  const int all = static_cast<int>(devices.size());
  const std::string label = std::to_string(all) + "x " + prop.name + " " + marker + ", devices " +
                            device_list(devices, all) + ")";
  if (plan_out_of_core(ooc, label, least_usable, !o.distances_file.empty())) {
    p = ooc;
  } else {
    p.reason += " (even out of core with the smallest outer block)";
  }
  return true;
}

std::vector<int> multi_gpu_devices(const plan& p, const solve_options& o, int count) {
  std::vector<int> devices = resolve_devices(o, count);
  // An in-core split uses at most one device per tile row; out of core uses every device.
  if (!is_out_of_core(p)) {
    const std::int64_t tiles = round_up(p.n, tile) / tile;
    devices.resize(static_cast<std::size_t>(
        std::min<std::int64_t>(tiles, static_cast<std::int64_t>(devices.size()))));
  }
  return devices;
}

bool is_multi_gpu(const plan& p) {
  return p.device.find(marker) != std::string::npos;
}

template <class T>
void solve_multi_gpu(dense_matrix<T>& h_d, via_matrix* h_via, apsp::detail::run_context& ctx,
                     int count) {
  const std::int64_t n = h_d.n();
  if (n == 0)
    return;
  const std::vector<int> devices = resolve_devices(ctx.options(), count);
  const std::int64_t ld = round_up(n, tile);
  const std::int64_t tiles = ld / tile;
  const int used =
      static_cast<int>(std::min<std::int64_t>(tiles, static_cast<std::int64_t>(devices.size())));
  const bool paths = h_via != nullptr;
  const bool clamp = ctx.negative_weights();
  const T inf = weight_traits<T>::infinity;
  const auto row_bytes = static_cast<std::size_t>(tile * ld) * sizeof(T);
  nvtx_range range("apsp::cuda::solve (multi-GPU)");
  T* h = h_d.data();
  std::int32_t* hv = paths ? h_via->data() : nullptr;

  device_guard keep(devices.front()); // restores the caller's device after the teardown below
  // The matrix crosses the bus once each way: staged copies (transfer.hpp) cost less than
  // page-locking it in place.

  // Peer access where the hardware has it; cudaMemcpyPeerAsync stages through the host otherwise.
  for (int a = 0; a < used; ++a) {
    for (int b = 0; b < used; ++b) {
      if (devices[static_cast<std::size_t>(a)] == devices[static_cast<std::size_t>(b)])
        continue;
      int can = 0;
      APSP_CUDA_TRY(cudaDeviceCanAccessPeer(&can, devices[static_cast<std::size_t>(a)],
                                            devices[static_cast<std::size_t>(b)]));
      if (can != 0) {
        device_guard guard(devices[static_cast<std::size_t>(a)]);
        const cudaError_t e = cudaDeviceEnablePeerAccess(devices[static_cast<std::size_t>(b)], 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
          APSP_CUDA_TRY(e);
        (void)cudaGetLastError(); // "already enabled" is not an error here
      }
    }
  }

  std::vector<std::unique_ptr<device_state<T>>> st;
  for (int i = 0; i < used; ++i) {
    const int dev = devices[static_cast<std::size_t>(i)];
    device_guard guard(dev);
    auto x = std::make_unique<device_state<T>>();
    x->id = dev;
    x->teardown.id = dev;
    x->split = split_of(tiles, used, i);
    x->real_rows = std::min(x->split.last * tile, n) - x->split.first * tile;
    const auto cells = static_cast<std::size_t>(x->rows() * ld);
    x->d = device_buffer<T>(cells);
    x->pivot_row = device_buffer<T>(static_cast<std::size_t>(tile * ld));
    x->piv = device_buffer<T>(static_cast<std::size_t>(tile * tile));
    x->via = device_buffer<std::int32_t>(paths ? cells : 0);
    x->piv_via = device_buffer<std::int32_t>(paths ? static_cast<std::size_t>(tile * tile) : 0);
    if (uses_tagged_paths<T>(paths, clamp))
      x->tags = tag_workspace(x->rows(), ld, 1);
    configure_block_kernels<T>(tile, clamp, paths);
    st.push_back(std::move(x));
  }
  on_host_threads(used, [&](int i) {
    device_state<T>* x = st[static_cast<std::size_t>(i)].get();
    device_guard guard(x->id);
    cudaStream_t s = x->s.get();
    const std::int64_t r0 = x->split.first * tile;
    const auto cells = static_cast<std::size_t>(x->rows() * ld);
    upload_rows(h + r0 * n, x->d.data(), sizeof(T), x->real_rows, n, ld, s);
    enqueue_fill_rect(x->d.data(), ld, x->real_rows, x->rows() - x->real_rows, 0, ld, inf, s);
    enqueue_fill_rect(x->d.data(), ld, 0, x->real_rows, n, ld - n, inf, s);
    if (paths) {
      APSP_CUDA_TRY(cudaMemsetAsync(x->via.data(), 0xff, cells * sizeof(std::int32_t), s));
    }
  });

  gemm_args<T> g;
  g.clamp = clamp;
  g.k = tile;
  for (std::int64_t r = 0; r < tiles; ++r) {
    nvtx_range round_range("apsp::cuda multi-GPU round");
    if (r >= 2) {
      for (auto& x : st)
        x->round_end[r % 2].synchronize();
    }
    const std::int64_t k0 = r * tile;
    const std::int64_t right = k0 + tile;
    g.k_base = k0;
    int owner = 0;
    while (!(r >= st[static_cast<std::size_t>(owner)]->split.first &&
             r < st[static_cast<std::size_t>(owner)]->split.last))
      ++owner;
    device_state<T>& o = *st[static_cast<std::size_t>(owner)];
    const std::int64_t lr = (r - o.split.first) * tile; // the pivot rows within the owner's rows

    // Nobody overwrites what another device may still be pulling from the previous round.
    for (auto& x : st) {
      device_guard guard(x->id);
      for (auto& y : st) {
        if (y != x)
          APSP_CUDA_TRY(cudaStreamWaitEvent(x->s.get(), y->pulled.get(), 0));
      }
    }

    {
      // Owner: pivot tile, then its row panel, then the pivot row into its exchange buffer.
      device_guard guard(o.id);
      cudaStream_t s = o.s.get();
      T* rows = o.d.data() + lr * ld;
      std::int32_t* vrows = paths ? o.via.data() + lr * ld : nullptr;
      copy_rect_d2d(o.piv.data(), tile, rows + k0, ld, tile, tile, s);
      enqueue_pivot_block(o.piv.data(), paths ? o.piv_via.data() : nullptr, tile, 1, clamp, s);
      copy_rect_d2d(rows + k0, ld, o.piv.data(), tile, tile, tile, s);
      if (paths)
        enqueue_merge_via(vrows + k0, ld, o.piv_via.data(), tile, tile, tile, k0, s);
      g.tags = o.tags.view();
      g.rows = tile;
      g.a = o.piv.data();
      g.lda = tile;
      g.ldc = g.ldb = ld;
      g.c = rows;
      g.b = g.c;
      g.via = vrows;
      g.cols = k0;
      enqueue_gemm(g, s);
      g.c = rows + right;
      g.b = g.c;
      g.via = paths ? vrows + right : nullptr;
      g.cols = ld - right;
      enqueue_gemm(g, s);
      APSP_CUDA_TRY(
          cudaMemcpyAsync(o.pivot_row.data(), rows, row_bytes, cudaMemcpyDeviceToDevice, s));
      o.row_ready.record(s);
      o.pulled.record(s);
    }
    for (auto& x : st) {
      if (x.get() == &o)
        continue;
      device_guard guard(x->id);
      cudaStream_t s = x->s.get();
      APSP_CUDA_TRY(cudaStreamWaitEvent(s, o.row_ready.get(), 0));
      APSP_CUDA_TRY(
          cudaMemcpyPeerAsync(x->pivot_row.data(), x->id, o.pivot_row.data(), o.id, row_bytes, s));
      x->pulled.record(s);
    }

    // Every device: its part of the pivot column, then the rest of its rows (the owner's pivot
    // rows are done).
    for (auto& x : st) {
      device_guard guard(x->id);
      cudaStream_t s = x->s.get();
      const bool owns = x.get() == &o;
      const std::int64_t parts[2][2] = {{0, owns ? lr : x->rows()},
                                        {owns ? lr + tile : x->rows(), x->rows()}};
      for (const auto& part : parts) {
        const std::int64_t row0 = part[0];
        const std::int64_t nrows = part[1] - part[0];
        if (nrows <= 0)
          continue;
        T* c = x->d.data() + row0 * ld;
        std::int32_t* v = paths ? x->via.data() + row0 * ld : nullptr;
        gemm_args<T> col = g;
        col.tags = x->tags.view();
        col.rows = nrows;
        col.c = c + k0;
        col.ldc = ld;
        col.via = paths ? v + k0 : nullptr;
        col.a = col.c;
        col.lda = ld;
        col.b = x->pivot_row.data() + k0;
        col.ldb = ld;
        col.cols = tile;
        enqueue_gemm(col, s);
        gemm_args<T> rest = col;
        rest.a = c + k0;
        rest.b = x->pivot_row.data();
        rest.c = c;
        rest.via = v;
        rest.cols = k0;
        enqueue_gemm(rest, s);
        rest.b = x->pivot_row.data() + right;
        rest.c = c + right;
        rest.via = paths ? v + right : nullptr;
        rest.cols = ld - right;
        enqueue_gemm(rest, s);
      }
      x->round_end[r % 2].record(s);
    }
    ctx.round_done(r + 1, tiles);
  }

  on_host_threads(used, [&](int i) {
    device_state<T>* x = st[static_cast<std::size_t>(i)].get();
    device_guard guard(x->id);
    cudaStream_t s = x->s.get();
    const std::int64_t r0 = x->split.first * tile;
    download_rows(x->d.data(), h + r0 * n, sizeof(T), x->real_rows, n, ld, s);
    if (paths) {
      download_rows(x->via.data(), hv + r0 * n, sizeof(std::int32_t), x->real_rows, n, ld, s);
    }
    x->s.synchronize();
  });
}

template void solve_multi_gpu<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                            apsp::detail::run_context&, int);
template void solve_multi_gpu<float>(dense_matrix<float>&, via_matrix*, apsp::detail::run_context&,
                                     int);

} // namespace apsp::cuda

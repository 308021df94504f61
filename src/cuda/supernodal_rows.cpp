// The supernodal Floyd-Warshall past one GPU's memory: the split of the rows (split_rows) and
// the solve over several devices or through one device from host memory
// (solve_supernodal_by_rows). The algorithm and why it is exact: supernodal_rows.hpp.

#include "cuda/supernodal_rows.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "cpu/supernodal_schedule.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/resources.hpp"
#include "cuda/supernodal_kernels.hpp"
#include "cuda/supernodal_schedule.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {
namespace {

/// Bytes of a device's buffer through which rows are gathered and strips merged, at most.
constexpr std::uint64_t chunk_bytes = std::uint64_t{256} << 20;

std::uint64_t row_bytes(std::int64_t n, std::size_t value_bytes, bool paths) {
  return static_cast<std::uint64_t>(n) * (value_bytes + (paths ? 4 : 0));
}

} // namespace

std::uint64_t sn_rows_device_bytes(std::int64_t n, std::int64_t strip_rows, std::int64_t block_rows,
                                   std::size_t value_bytes, bool paths) {
  const std::uint64_t row = row_bytes(n, value_bytes, paths);
  // Row tables (8 bytes a label, twice with paths), labels, order and row lists.
  const std::uint64_t tables =
      static_cast<std::uint64_t>(n) * (paths ? 16 : 8) + static_cast<std::uint64_t>(n) * 16;
  const std::uint64_t held = static_cast<std::uint64_t>(strip_rows + block_rows) * row;
  return held + tables + std::min<std::uint64_t>(chunk_bytes, std::max<std::uint64_t>(held, row));
}

sn_row_split split_rows(const cpu::elimination_plan& ep, int devices, std::uint64_t usable,
                        std::size_t value_bytes, bool paths, int parts) {
  sn_row_split out;
  const std::int64_t n = ep.n;
  const std::size_t count = ep.steps.size();
  if (n == 0 || count == 0 || devices < 1)
    return out;
  const std::vector<std::int64_t> parent = cpu::step_parents(ep);
  std::vector<std::vector<std::int64_t>> children(count);
  std::vector<std::int64_t> first_step(count);
  std::iota(first_step.begin(), first_step.end(), std::int64_t{0});
  std::vector<std::int64_t> roots;
  for (std::size_t s = 0; s < count; ++s) { // children precede their parents
    const std::int64_t p = parent[s];
    if (p < 0) {
      roots.push_back(static_cast<std::int64_t>(s));
      continue;
    }
    children[static_cast<std::size_t>(p)].push_back(static_cast<std::int64_t>(s));
    first_step[static_cast<std::size_t>(p)] =
        std::min(first_step[static_cast<std::size_t>(p)], first_step[s]);
  }
  const auto rows_of = [&ep](std::int64_t s) {
    const auto& st = ep.steps[static_cast<std::size_t>(s)];
    return static_cast<std::int64_t>(st.top()) - st.first + 1;
  };
  const std::uint64_t row = row_bytes(n, value_bytes, paths);
  // The rows a block may hold beside a strip of strip_rows.
  const auto cap = [&](std::int64_t strip_rows) -> std::int64_t {
    const std::uint64_t fixed = sn_rows_device_bytes(n, strip_rows, 0, value_bytes, paths) +
                                std::min<std::uint64_t>(chunk_bytes, usable / 8);
    return fixed >= usable ? 0 : static_cast<std::int64_t>((usable - fixed) / row);
  };
  // The frontier at threshold t: the highest subtrees of at most t rows; the steps above them
  // are the top. Lower t until the largest frontier subtree fits beside the strip (at t = 0
  // every step is a top step: the strip is the whole matrix).
  parts = std::max(parts, devices);
  std::int64_t t = std::min<std::int64_t>(cap(0), (n + parts - 1) / parts);
  std::vector<std::int64_t> frontier;
  std::int64_t strip_rows = 0;
  std::int64_t block_cap = 0;
  for (;;) {
    if (t < 0)
      return {};
    frontier.clear();
    out.top_steps.clear();
    strip_rows = 0;
    std::int64_t largest = 0;
    std::vector<std::int64_t> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
      const std::int64_t s = stack.back();
      stack.pop_back();
      if (rows_of(s) <= t) {
        frontier.push_back(s);
        largest = std::max(largest, rows_of(s));
        continue;
      }
      out.top_steps.push_back(s);
      strip_rows += static_cast<std::int64_t>(ep.steps[static_cast<std::size_t>(s)].members.size());
      const auto& c = children[static_cast<std::size_t>(s)];
      stack.insert(stack.end(), c.rbegin(), c.rend());
    }
    if (sn_rows_device_bytes(n, strip_rows, 0, value_bytes, paths) > usable)
      return {}; // the strip alone does not fit
    block_cap = cap(strip_rows);
    if (largest <= block_cap)
      break;
    t = std::min(t - 1, block_cap);
  }
  std::sort(out.top_steps.begin(), out.top_steps.end());
  for (const std::int64_t s : out.top_steps) {
    const auto& m = ep.steps[static_cast<std::size_t>(s)].members;
    out.strip.insert(out.strip.end(), m.begin(), m.end());
  }
  std::sort(out.strip.begin(), out.strip.end());
  // Groups: first fit, largest subtree first, into bins of a device's share (so that every
  // device gets rows) or of the block's capacity, whichever is smaller.
  std::int64_t total = 0;
  for (const std::int64_t s : frontier)
    total += rows_of(s);
  std::stable_sort(frontier.begin(), frontier.end(),
                   [&](std::int64_t a, std::int64_t b) { return rows_of(a) > rows_of(b); });
  const std::int64_t bin =
      std::max<std::int64_t>(frontier.empty() ? 1 : rows_of(frontier.front()),
                             std::min<std::int64_t>(block_cap, (total + parts - 1) / parts));
  std::vector<std::vector<std::int64_t>> bins;
  std::vector<std::int64_t> bin_rows;
  for (const std::int64_t s : frontier) {
    std::size_t b = 0;
    while (b < bins.size() && bin_rows[b] + rows_of(s) > bin)
      ++b;
    if (b == bins.size()) {
      bins.emplace_back();
      bin_rows.push_back(0);
    }
    bins[b].push_back(s);
    bin_rows[b] += rows_of(s);
  }
  // Groups to devices: the largest first, each to the least loaded device.
  std::vector<std::size_t> by_rows(bins.size());
  std::iota(by_rows.begin(), by_rows.end(), std::size_t{0});
  std::stable_sort(by_rows.begin(), by_rows.end(),
                   [&](std::size_t a, std::size_t b) { return bin_rows[a] > bin_rows[b]; });
  std::vector<std::int64_t> load(static_cast<std::size_t>(devices), 0);
  for (const std::size_t b : by_rows) {
    sn_row_split::group gr;
    gr.device = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[static_cast<std::size_t>(gr.device)] += bin_rows[b];
    for (const std::int64_t s : bins[b]) {
      const auto& st = ep.steps[static_cast<std::size_t>(s)];
      for (std::int32_t l = st.first; l <= st.top(); ++l)
        gr.labels.push_back(l);
      for (std::int64_t k = first_step[static_cast<std::size_t>(s)]; k <= s; ++k)
        gr.steps.push_back(k);
    }
    std::sort(gr.labels.begin(), gr.labels.end());
    std::sort(gr.steps.begin(), gr.steps.end());
    out.block_rows = std::max<std::int64_t>(out.block_rows, bin_rows[b]);
    out.groups.push_back(std::move(gr));
  }
  return out;
}

} // namespace apsp::cuda

namespace apsp::detail {
namespace {

using cuda::device_buffer;
using cuda::upload_vector;

/// Rows of `labels` between a device's contiguous rows and the host matrix's rows
/// host + order[label] * n, staged through `staging` (the transfer's pipeline: one buffer's
/// DMA flies while host threads copy the other's rows). Download: device -> host.
template <class E>
void copy_scattered(E* device, E* host, const std::int32_t* labels, std::int64_t count,
                    std::int64_t n, const std::vector<std::int32_t>& order,
                    const cuda::staging_buffers& staging, cudaStream_t s, bool download) {
  std::vector<std::int64_t> at(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    at[static_cast<std::size_t>(i)] = order[static_cast<std::size_t>(labels[i])];
  const cuda::host_rows map{.stride = n, .list = at.data()};
  if (download)
    cuda::download_rows(device, host, sizeof(E), count, n, n, s, &staging, map);
  else
    cuda::upload_rows(host, device, sizeof(E), count, n, n, s, &staging, map);
}

/// Edges by the device row that holds their tail: position in the strip or in a group.
struct edge_list {
  std::vector<std::int32_t> src; ///< the row's position in its buffer
  std::vector<std::int32_t> dst; ///< label
  std::vector<double> w;
};

template <class T> struct device_state {
  int id = 0;
  std::vector<std::size_t> groups;
  std::size_t resident = static_cast<std::size_t>(-1);
  double copy_seconds = 0; ///< rows moved to and from the host (the verbose report)
  cuda::stream s;
  device_buffer<T> strip, block, chunk;
  device_buffer<std::int32_t> strip_via, block_via, chunk_via;
  device_buffer<T*> table;
  device_buffer<std::int32_t*> via_table;
  device_buffer<std::int32_t> label, order, ancestors, strip_labels, group_labels;
  std::optional<cuda::staging_buffers> pin; ///< the rows' copies to and from the host
  cuda::current_on_teardown teardown;
};

} // namespace

template <class T>
void solve_supernodal_by_rows(dense_matrix<T>& h_d, via_matrix* h_via, run_context& ctx,
                              const std::vector<int>& devices, const cpu::elimination_plan& ep,
                              const cuda::sn_row_split& split) {
  const std::int64_t n = ctx.n();
  const auto nn = static_cast<std::size_t>(n);
  const bool paths = h_via != nullptr;
  const graph* edges = ctx.initial_edges();
  const T inf = weight_traits<T>::infinity;
  const auto start = std::chrono::steady_clock::now();
  const auto since = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  APSP_EXPECTS(split.fits(), internal_error, "the supernodal row split is empty");
  const std::vector<int> heights = cuda::step_heights(ep);
  const auto strip_rows = static_cast<std::int64_t>(split.strip.size());

  // Where each label's row lives.
  std::vector<std::int64_t> strip_pos(nn, -1);
  for (std::size_t i = 0; i < split.strip.size(); ++i)
    strip_pos[static_cast<std::size_t>(split.strip[i])] = static_cast<std::int64_t>(i);
  std::vector<std::int32_t> group_of(nn, -1);
  std::vector<std::int64_t> group_pos(nn, -1);
  for (std::size_t gr = 0; gr < split.groups.size(); ++gr) {
    const auto& labels = split.groups[gr].labels;
    for (std::size_t j = 0; j < labels.size(); ++j) {
      group_of[static_cast<std::size_t>(labels[j])] = static_cast<std::int32_t>(gr);
      group_pos[static_cast<std::size_t>(labels[j])] = static_cast<std::int64_t>(j);
    }
  }
  edge_list strip_edges;
  std::vector<edge_list> group_edges(split.groups.size());
  if (edges != nullptr) {
    const auto& src = edges->sources();
    const auto& dst = edges->targets();
    const auto& w = edges->weights();
    for (std::size_t e = 0; e < src.size(); ++e) {
      const auto ls = static_cast<std::size_t>(ep.label[static_cast<std::size_t>(src[e])]);
      const std::int32_t lt = ep.label[static_cast<std::size_t>(dst[e])];
      edge_list& to =
          strip_pos[ls] >= 0 ? strip_edges : group_edges[static_cast<std::size_t>(group_of[ls])];
      to.src.push_back(
          static_cast<std::int32_t>(strip_pos[ls] >= 0 ? strip_pos[ls] : group_pos[ls]));
      to.dst.push_back(lt);
      to.w.push_back(w[e]);
    }
  }

  // The result's pages faulted in on other threads meanwhile, so that the rows' copies run at
  // memory speed (as the in-core solve does).
  std::jthread prefault =
      cuda::prefault_in_background(h_d, h_via, edges != nullptr && cuda::prefault_enabled());
  const auto faulted = [&prefault] {
    if (prefault.joinable())
      prefault.join();
  };

  // Each device: its state, made with it current.
  std::vector<std::unique_ptr<device_state<T>>> state;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    cuda::device_guard guard(devices[k]);
    auto st = std::make_unique<device_state<T>>();
    st->id = devices[k];
    st->teardown.id = devices[k];
    for (std::size_t gr = 0; gr < split.groups.size(); ++gr)
      if (split.groups[gr].device == static_cast<int>(k))
        st->groups.push_back(gr);
    std::int64_t block_rows = 0;
    for (const std::size_t gr : st->groups)
      block_rows = std::max<std::int64_t>(
          block_rows, static_cast<std::int64_t>(split.groups[gr].labels.size()));
    const cudaStream_t s = st->s.get();
    st->strip = device_buffer<T>(static_cast<std::size_t>(strip_rows) * nn);
    st->block = device_buffer<T>(static_cast<std::size_t>(block_rows) * nn);
    const std::uint64_t held = static_cast<std::uint64_t>(std::max(strip_rows, block_rows)) * nn;
    const auto chunk_elems = static_cast<std::size_t>(
        std::max<std::uint64_t>(nn, std::min<std::uint64_t>(held, 64ull << 20)));
    st->chunk = device_buffer<T>(chunk_elems);
    if (paths) {
      st->strip_via = device_buffer<std::int32_t>(static_cast<std::size_t>(strip_rows) * nn);
      st->block_via = device_buffer<std::int32_t>(static_cast<std::size_t>(block_rows) * nn);
      st->chunk_via = device_buffer<std::int32_t>(chunk_elems);
    }
    st->table = device_buffer<T*>(nn);
    st->via_table = device_buffer<std::int32_t*>(paths ? nn : 0);
    st->label = upload_vector(ep.label, s);
    st->order = upload_vector(ep.order, s);
    st->ancestors = upload_vector(ep.ancestors, s);
    st->strip_labels = upload_vector(split.strip, s);
    st->pin.emplace(cuda::staging_buffers::exactly{std::max(cuda::staging_bytes, nn * sizeof(T))});
    cuda::configure_sn_kernels<T>(paths);
    state.push_back(std::move(st));
  }

  // The row tables of a device: the strip's rows, and group gr's in the block (none: -1).
  const auto set_tables = [&](device_state<T>& st, std::size_t gr) {
    std::vector<T*> rows(nn, nullptr);
    std::vector<std::int32_t*> via(paths ? nn : 0, nullptr);
    for (std::size_t i = 0; i < split.strip.size(); ++i) {
      const auto l = static_cast<std::size_t>(split.strip[i]);
      rows[l] = st.strip.data() + i * nn;
      if (paths)
        via[l] = st.strip_via.data() + i * nn;
    }
    if (gr != static_cast<std::size_t>(-1)) {
      const auto& labels = split.groups[gr].labels;
      for (std::size_t j = 0; j < labels.size(); ++j) {
        const auto l = static_cast<std::size_t>(labels[j]);
        rows[l] = st.block.data() + j * nn;
        if (paths)
          via[l] = st.block_via.data() + j * nn;
      }
      st.group_labels = upload_vector(labels, st.s.get());
    }
    APSP_CUDA_TRY(
        cudaMemcpy(st.table.data(), rows.data(), nn * sizeof(T*), cudaMemcpyHostToDevice));
    if (paths)
      APSP_CUDA_TRY(cudaMemcpy(st.via_table.data(), via.data(), nn * sizeof(std::int32_t*),
                               cudaMemcpyHostToDevice));
  };
  // Rows `labels` (on the device: d_labels) at `d` (their buffer) from the graph: the
  // diagonal, then the edges; or solve_dense's host matrix, scattered by label.
  const auto init_rows = [&](device_state<T>& st, T* d, std::int32_t* d_via,
                             const std::vector<std::int32_t>& labels, const std::int32_t* d_labels,
                             const edge_list& list) {
    const cudaStream_t s = st.s.get();
    const auto count = static_cast<std::int64_t>(labels.size());
    if (paths)
      APSP_CUDA_TRY(cudaMemsetAsync(d_via, 0xff, static_cast<std::size_t>(count) * nn * 4, s));
    if (edges != nullptr) {
      cuda::enqueue_sn_fill_rows<T>(d, d_labels, count, n, inf, s);
      cuda::scatter_host_edges<T, double>(list.src.data(), list.dst.data(), list.w.data(),
                                          static_cast<std::int64_t>(list.src.size()), d, n, s);
      return;
    }
    // From the host matrix (vertex order): rows order[label], columns scattered by label.
    const std::int64_t per =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(st.chunk.size() / nn));
    for (std::int64_t i0 = 0; i0 < count; i0 += per) {
      const std::int64_t k = std::min(per, count - i0);
      copy_scattered<T>(st.chunk.data(), h_d.data(), labels.data() + i0, k, n, ep.order, *st.pin, s,
                        false);
      cuda::enqueue_sn_scatter_rows<T>(st.table.data(), st.chunk.data(), d_labels + i0, k,
                                       st.label.data(), n, s);
    }
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
  };
  const auto run = [&](device_state<T>& st, const std::vector<std::int64_t>& steps,
                       const std::vector<char>* held, bool pivots_final) {
    const cudaStream_t s = st.s.get();
    const cuda::sn_schedule schedule =
        cuda::schedule_steps(ep, heights, steps, {.disjoint_ancestors = paths, .held = held});
    const auto d_pivots = upload_vector(schedule.pivots, s);
    const auto d_tasks = upload_vector(schedule.tasks, s);
    const auto d_lists = upload_vector(schedule.row_lists, s);
    for (const auto& l : schedule.launches) {
      cuda::sn_launch<T> g;
      g.rows = st.table.data();
      g.pivot_rows = st.table.data();
      g.via_rows = paths ? st.via_table.data() : nullptr;
      g.row_lists = d_lists.data();
      g.tasks = d_tasks.data() + l.first;
      g.count = l.count;
      g.widest = l.widest;
      g.whole = l.whole;
      g.pivots_final = pivots_final;
      g.panel_blocks = l.panel_blocks;
      g.outer_blocks = l.outer_blocks;
      g.pivots = d_pivots.data();
      g.ancestors = st.ancestors.data();
      g.order = st.order.data();
      g.clamp = ctx.negative_weights();
      g.shared = l.count > 1;
      cuda::enqueue_sn_launch<T>(g, s);
    }
    APSP_CUDA_TRY(cudaStreamSynchronize(s)); // the schedule's buffers go at return
  };
  // A group's rows between the block and the host's result rows (label-ordered columns).
  std::mutex fault_mutex;
  const auto before_host_writes = [&] {
    const std::lock_guard lock(fault_mutex);
    faulted();
  };
  const auto move_group = [&](device_state<T>& st, std::size_t gr, bool download) {
    before_host_writes();
    const double t0 = since();
    const auto& labels = split.groups[gr].labels;
    const auto count = static_cast<std::int64_t>(labels.size());
    copy_scattered<T>(st.block.data(), h_d.data(), labels.data(), count, n, ep.order, *st.pin,
                      st.s.get(), download);
    if (paths)
      copy_scattered<std::int32_t>(st.block_via.data(), h_via->data(), labels.data(), count, n,
                                   ep.order, *st.pin, st.s.get(), download);
    st.copy_seconds += since() - t0;
  };
  // Rows (device labels d_labels, host labels `labels`) gathered into vertex-ordered columns
  // and written to the result's rows.
  const auto download_final = [&](device_state<T>& st, const std::vector<std::int32_t>& labels,
                                  const std::int32_t* d_labels) {
    before_host_writes();
    const double t0 = since();
    const cudaStream_t s = st.s.get();
    const auto count = static_cast<std::int64_t>(labels.size());
    const std::int64_t per =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(st.chunk.size() / nn));
    for (std::int64_t i0 = 0; i0 < count; i0 += per) {
      const std::int64_t k = std::min(per, count - i0);
      cuda::enqueue_sn_gather_rows<T>(st.chunk.data(), st.table.data(), d_labels + i0, k,
                                      st.label.data(), n, s);
      copy_scattered<T>(st.chunk.data(), h_d.data(), labels.data() + i0, k, n, ep.order, *st.pin, s,
                        true);
      if (paths) {
        cuda::enqueue_sn_gather_rows<std::int32_t>(st.chunk_via.data(), st.via_table.data(),
                                                   d_labels + i0, k, st.label.data(), n, s);
        copy_scattered<std::int32_t>(st.chunk_via.data(), h_via->data(), labels.data() + i0, k, n,
                                     ep.order, *st.pin, s, true);
      }
    }
    st.copy_seconds += since() - t0;
  };
  std::mutex progress_mutex;
  std::int64_t done = 0;
  const std::int64_t total = 2 * static_cast<std::int64_t>(split.groups.size()) + 1;
  const auto progress = [&] {
    const std::lock_guard lock(progress_mutex);
    ++done;
    if (ctx.options().progress)
      ctx.round_done(done, total);
  };
  // f(device) on every device at once, a host thread each; the first error rethrown after all.
  const auto on_each = [&](const auto& f) {
    std::vector<std::exception_ptr> errors(state.size());
    {
      std::vector<std::jthread> threads;
      for (std::size_t k = 0; k < state.size(); ++k)
        threads.emplace_back([&, k] {
          try {
            cuda::device_guard guard(state[k]->id);
            f(*state[k]);
          } catch (...) {
            errors[k] = std::current_exception();
          }
        });
    }
    for (const auto& e : errors)
      if (e)
        std::rethrow_exception(e);
  };

  // 1. Each device: the strip from the graph, then its groups' subtrees.
  on_each([&](device_state<T>& st) {
    set_tables(st, static_cast<std::size_t>(-1));
    init_rows(st, st.strip.data(), st.strip_via.data(), split.strip, st.strip_labels.data(),
              strip_edges);
    for (const std::size_t gr : st.groups) {
      set_tables(st, gr);
      init_rows(st, st.block.data(), st.block_via.data(), split.groups[gr].labels,
                st.group_labels.data(), group_edges[gr]);
      run(st, split.groups[gr].steps, nullptr, false);
      st.resident = gr;
      if (st.groups.size() > 1)
        move_group(st, gr, true);
      progress();
    }
  });
  const double t_groups = since();
  // The strips' elementwise minimum, on the first device, then copied to the others.
  if (state.size() > 1 && strip_rows > 0) {
    auto& first = *state.front();
    cuda::device_guard guard(first.id);
    const cudaStream_t s = first.s.get();
    const std::size_t cells = static_cast<std::size_t>(strip_rows) * nn;
    for (std::size_t at = 0; at < cells; at += first.chunk.size()) {
      const std::size_t k = std::min(first.chunk.size(), cells - at);
      for (std::size_t d = 1; d < state.size(); ++d) {
        const auto& other = *state[d];
        APSP_CUDA_TRY(cudaMemcpyPeerAsync(first.chunk.data(), first.id, other.strip.data() + at,
                                          other.id, k * sizeof(T), s));
        if (paths)
          APSP_CUDA_TRY(cudaMemcpyPeerAsync(first.chunk_via.data(), first.id,
                                            other.strip_via.data() + at, other.id, k * 4, s));
        cuda::enqueue_sn_min_into<T>(first.strip.data() + at, first.chunk.data(),
                                     paths ? first.strip_via.data() + at : nullptr,
                                     paths ? first.chunk_via.data() : nullptr,
                                     static_cast<std::int64_t>(k), s);
      }
    }
    for (std::size_t d = 1; d < state.size(); ++d) {
      auto& other = *state[d];
      APSP_CUDA_TRY(cudaMemcpyPeerAsync(other.strip.data(), other.id, first.strip.data(), first.id,
                                        cells * sizeof(T), s));
      if (paths)
        APSP_CUDA_TRY(cudaMemcpyPeerAsync(other.strip_via.data(), other.id, first.strip_via.data(),
                                          first.id, cells * 4, s));
    }
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
  }
  const double t_merged = since();
  // 2. The top steps on the strip's rows, on every device (the same input, the same result).
  std::vector<char> in_strip(nn, 0);
  for (const std::int32_t l : split.strip)
    in_strip[static_cast<std::size_t>(l)] = 1;
  on_each([&](device_state<T>& st) { run(st, split.top_steps, &in_strip, false); });
  progress();
  const double t_strip = since();
  // 3. The top steps on each group's rows with the strip's final pivots' rows; the rows out.
  on_each([&](device_state<T>& st) {
    for (const std::size_t gr : st.groups) {
      if (st.resident != gr) {
        set_tables(st, gr);
        move_group(st, gr, false);
        st.resident = gr;
      }
      std::vector<char> in_group(nn, 0);
      for (const std::int32_t l : split.groups[gr].labels)
        in_group[static_cast<std::size_t>(l)] = 1;
      run(st, split.top_steps, &in_group, true);
      download_final(st, split.groups[gr].labels, st.group_labels.data());
      progress();
    }
  });
  {
    auto& first = *state.front();
    cuda::device_guard guard(first.id);
    download_final(first, split.strip, first.strip_labels.data());
    APSP_CUDA_TRY(cudaStreamSynchronize(first.s.get()));
  }
  if (ctx.tuning().supernodal_verbose || ctx.tuning().cuda_verbose) {
    // Steps: the wall time less the host copies of the busiest device.
    double copies = 0;
    for (const auto& st : state)
      copies = std::max(copies, st->copy_seconds);
    std::fprintf(stderr,
                 "apsp cuda supernodal: by rows over %zu devices, strip %lld rows (%zu top "
                 "steps), %zu groups (block %lld rows): groups %.3f s, strips merged %.3f s, "
                 "strip %.3f s, rows %.3f s; steps %.3f s, host copies %.3f s\n",
                 devices.size(), static_cast<long long>(strip_rows), split.top_steps.size(),
                 split.groups.size(), static_cast<long long>(split.block_rows), t_groups,
                 t_merged - t_groups, t_strip - t_merged, since() - t_strip, since() - copies,
                 copies);
  }
}

template void solve_supernodal_by_rows<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                                     run_context&, const std::vector<int>&,
                                                     const cpu::elimination_plan&,
                                                     const cuda::sn_row_split&);
template void solve_supernodal_by_rows<float>(dense_matrix<float>&, via_matrix*, run_context&,
                                              const std::vector<int>&, const cpu::elimination_plan&,
                                              const cuda::sn_row_split&);

} // namespace apsp::detail

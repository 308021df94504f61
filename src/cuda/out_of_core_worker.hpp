#pragma once
// The state of the out-of-core rounds (out_of_core_rounds.cpp): one device's buffers, events
// and streams, and how many tiles of a round the host's cores take.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "cuda/out_of_core_rounds.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"
#include "cuda/tile_config.hpp"

namespace apsp::cuda {

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
    for (int q = 0; q < out_of_core_slots; ++q) {
      d_tile[q] = device_buffer<T>(bb);
      v_tile[q] = device_buffer<std::int32_t>(paths ? bb : 0);
    }
    if (tagged) {
      // Tagged slices (tagged_panels.hpp): the panel products are up to ldp wide (or tall),
      // the phase-3 tiles bo x bo.
      tags_panels = tag_workspace(ldp, ldp, bo / kernels::fw_tile);
      for (auto& t : tags_tile)
        t = tag_workspace(bo, bo, bo / kernels::fw_tile);
    }
    teardown.id = device;
  }
  int id;
  device_buffer<T> d_row, d_col, d_piv;
  device_buffer<std::int32_t> v_row, v_col, v_piv;
  std::array<device_buffer<T>, out_of_core_slots> d_tile;
  std::array<device_buffer<std::int32_t>, out_of_core_slots> v_tile;
  tag_workspace tags_panels; // for the panel products on s0
  std::array<tag_workspace, out_of_core_slots>
      tags_tile; // for the phase-3 products, one per slot stream
  event panels_ready{cudaEventDisableTiming};
  event panels_read{cudaEventDisableTiming}; // this round's panels are on the device
  event panels_home{cudaEventDisableTiming | cudaEventBlockingSync}; // ... and back in host memory
  event timed_begin[2], timed_end[2]; // a round's span (first device)
  std::array<event, out_of_core_slots> slot_done;
  event round_end[2] = {event(cudaEventDisableTiming | cudaEventBlockingSync),
                        event(cudaEventDisableTiming | cudaEventBlockingSync)};
  stream s0;
  std::array<stream, out_of_core_slots> s_slot;
  current_on_teardown teardown; // destroyed first (resources.hpp)
};

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

} // namespace apsp::cuda

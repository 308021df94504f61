#include "cuda/supernodal_schedule.hpp"

#include <algorithm>
#include <numeric>

#include "cpu/supernodal_schedule.hpp"

namespace apsp::cuda {

std::vector<int> step_heights(const cpu::elimination_plan& ep) {
  const std::vector<std::int64_t> parent = cpu::step_parents(ep);
  std::vector<int> height(ep.steps.size(), 0);
  for (std::size_t s = 0; s < ep.steps.size(); ++s) { // children precede their parents
    const std::int64_t p = parent[s];
    if (p >= 0)
      height[static_cast<std::size_t>(p)] =
          std::max(height[static_cast<std::size_t>(p)], height[s] + 1);
  }
  return height;
}

std::vector<std::int64_t> all_steps(const cpu::elimination_plan& ep) {
  std::vector<std::int64_t> steps(ep.steps.size());
  std::iota(steps.begin(), steps.end(), std::int64_t{0});
  return steps;
}

sn_schedule schedule_steps(const cpu::elimination_plan& ep, const std::vector<int>& height,
                           const std::vector<std::int64_t>& steps,
                           const sn_schedule_options& options) {
  sn_schedule out;
  int levels = 0;
  for (const std::int64_t s : steps)
    levels = std::max(levels, height[static_cast<std::size_t>(s)] + 1);
  std::vector<std::vector<std::size_t>> by_level(static_cast<std::size_t>(levels));
  std::vector<std::int64_t> member_offset(ep.steps.size(), 0);
  // A step's rows: its front, or its front's held labels (listed once for all its slices).
  std::vector<std::int64_t> list_offset(ep.steps.size(), -1);
  std::vector<std::int32_t> list_size(ep.steps.size(), 0);
  for (const std::int64_t s64 : steps) {
    const auto s = static_cast<std::size_t>(s64);
    const auto& st = ep.steps[s];
    if (options.held != nullptr) {
      const auto& held = *options.held;
      const std::int64_t at = static_cast<std::int64_t>(out.row_lists.size());
      for (std::int32_t l = st.first; l <= st.top(); ++l)
        if (held[static_cast<std::size_t>(l)] != 0)
          out.row_lists.push_back(l);
      for (std::int64_t a = st.ancestors_begin; a < st.ancestors_end; ++a) {
        const std::int32_t l = ep.ancestors[static_cast<std::size_t>(a)];
        if (held[static_cast<std::size_t>(l)] != 0)
          out.row_lists.push_back(l);
      }
      list_offset[s] = at;
      list_size[s] = static_cast<std::int32_t>(static_cast<std::int64_t>(out.row_lists.size()) - at);
      if (list_size[s] == 0)
        continue;
    }
    by_level[static_cast<std::size_t>(height[s])].push_back(s);
    member_offset[s] = static_cast<std::int64_t>(out.pivots.size());
    out.pivots.insert(out.pivots.end(), st.members.begin(), st.members.end());
  }
  constexpr int slice = sn_slice_pivots;
  const auto front_of = [&ep](std::size_t s) { return ep.steps[s].rows(); };
  const bool listed = options.held != nullptr;
  for (const auto& level : by_level) {
    sn_schedule::launch l;
    const auto close = [&] {
      if (l.count > 0)
        out.launches.push_back(l);
      const bool whole = l.whole;
      l = {};
      l.first = out.tasks.size();
      l.whole = whole;
    };
    const auto add = [&](std::size_t s, std::size_t j) {
      const auto& st = ep.steps[s];
      const auto w = static_cast<std::int64_t>(st.members.size());
      sn_task t;
      t.first = st.first;
      t.contiguous = st.top() - st.first + 1;
      t.ancestors = st.ancestors_begin;
      t.na = static_cast<std::int32_t>(st.ancestors_end - st.ancestors_begin);
      t.np = static_cast<std::int32_t>(
          std::min<std::int64_t>(slice, w - static_cast<std::int64_t>(j) * slice));
      t.pivots = member_offset[s] + static_cast<std::int64_t>(j) * slice;
      const std::int64_t front = front_of(s);
      const std::int64_t rows = listed ? list_size[s] : front;
      t.tiles = static_cast<std::int32_t>((front + 127) / 128);
      t.row_tiles = static_cast<std::int32_t>((rows + 127) / 128);
      t.row_list = listed ? list_offset[s] : -1;
      t.nrows = static_cast<std::int32_t>(rows);
      t.panel_begin = l.panel_blocks;
      t.outer_begin = l.outer_blocks;
      l.panel_blocks += static_cast<std::int64_t>(t.tiles) + t.row_tiles;
      l.outer_blocks += static_cast<std::int64_t>(t.row_tiles) * t.tiles;
      l.widest = std::max<int>(l.widest, l.whole ? static_cast<int>(front) : t.np);
      l.updates += static_cast<double>(t.np) * static_cast<double>(rows) *
                   static_cast<double>(front);
      ++l.count;
      out.tasks.push_back(t);
      if (options.one_step_per_launch)
        close();
    };
    const auto whole = [&](std::size_t s) {
      return options.allow_whole && !listed && front_of(s) <= slice;
    };
    // Steps whose front fits one 128-line block (all their pivots too): whole, in one launch.
    l.first = out.tasks.size();
    l.whole = true;
    for (const std::size_t s : level)
      if (whole(s))
        add(s, 0);
    close();
    // The others slice by slice: close, panels and outer products.
    l.whole = false;
    std::size_t slices = 0;
    for (const std::size_t s : level)
      if (!whole(s))
        slices = std::max(slices, (ep.steps[s].members.size() + slice - 1) / slice);
    for (std::size_t j = 0; j < slices; ++j) {
      for (const std::size_t s : level) {
        if (!whole(s) &&
            static_cast<std::int64_t>(ep.steps[s].members.size()) > static_cast<std::int64_t>(j) * slice)
          add(s, j);
      }
      close();
    }
    out.level_end.push_back(out.launches.size());
  }
  return out;
}

} // namespace apsp::cuda

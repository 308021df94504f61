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
      list_size[s] =
          static_cast<std::int32_t>(static_cast<std::int64_t>(out.row_lists.size()) - at);
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
  const auto whole = [&](std::size_t s) {
    return options.allow_whole && !listed && front_of(s) <= slice;
  };
  // Slice j of step s as a task (its launch's block offsets set by emit).
  const auto task_of = [&](std::size_t s, std::size_t j) {
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
    return t;
  };
  enum class part { all, close_panels, outer };
  const auto emit = [&](const std::vector<std::size_t>& steps_of, const std::vector<sn_task>& tasks,
                        bool is_whole, part p = part::all) {
    if (tasks.empty())
      return;
    sn_schedule::launch l;
    l.first = out.tasks.size();
    l.whole = is_whole;
    l.skip_outer = p == part::close_panels;
    l.outer_only = p == part::outer;
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      sn_task t = tasks[k];
      t.panel_begin = l.panel_blocks;
      t.outer_begin = l.outer_blocks;
      l.panel_blocks += static_cast<std::int64_t>(t.tiles) + t.row_tiles;
      l.outer_blocks += static_cast<std::int64_t>(t.row_tiles) * t.tiles;
      const std::int64_t front = front_of(steps_of[k]);
      l.widest = std::max<int>(l.widest, is_whole ? static_cast<int>(front) : t.np);
      // The outer products' updates (the panels are not counted, as in the plan's count).
      const double cols = t.col_list >= 0 ? t.ncols : static_cast<double>(front);
      if (p != part::close_panels)
        l.updates += static_cast<double>(t.np) * static_cast<double>(t.nrows) * cols;
      ++l.count;
      out.tasks.push_back(t);
    }
    out.launches.push_back(l);
  };
  // With paths, the tasks of a launch share no ancestor (so no cell is written by two of them
  // and every via stays with its distance): each goes to the batch after the last one that
  // used any of its ancestors.
  std::vector<int> last_batch(ep.steps.empty() ? 0 : static_cast<std::size_t>(ep.n), -1);
  std::vector<int> stamp(last_batch.size(), -1);
  int group = 0;
  const auto launch_group = [&](const std::vector<std::pair<std::size_t, std::size_t>>& group_tasks,
                                bool is_whole) {
    if (!options.disjoint_ancestors) {
      std::vector<std::size_t> steps_of;
      std::vector<sn_task> tasks;
      for (const auto& [s, j] : group_tasks) {
        steps_of.push_back(s);
        tasks.push_back(task_of(s, j));
      }
      emit(steps_of, tasks, is_whole);
      return;
    }
    ++group;
    std::vector<std::vector<std::size_t>> batch_steps;
    std::vector<std::vector<sn_task>> batch_tasks;
    for (const auto& [s, j] : group_tasks) {
      const auto& st = ep.steps[s];
      int b = 0;
      for (std::int64_t a = st.ancestors_begin; a < st.ancestors_end; ++a) {
        const auto l = static_cast<std::size_t>(ep.ancestors[static_cast<std::size_t>(a)]);
        if (stamp[l] == group)
          b = std::max(b, last_batch[l] + 1);
      }
      for (std::int64_t a = st.ancestors_begin; a < st.ancestors_end; ++a) {
        const auto l = static_cast<std::size_t>(ep.ancestors[static_cast<std::size_t>(a)]);
        stamp[l] = group;
        last_batch[l] = b;
      }
      if (static_cast<std::size_t>(b) >= batch_tasks.size()) {
        batch_steps.resize(static_cast<std::size_t>(b) + 1);
        batch_tasks.resize(static_cast<std::size_t>(b) + 1);
      }
      batch_steps[static_cast<std::size_t>(b)].push_back(s);
      batch_tasks[static_cast<std::size_t>(b)].push_back(task_of(s, j));
    }
    for (std::size_t b = 0; b < batch_tasks.size(); ++b)
      emit(batch_steps[b], batch_tasks[b], is_whole);
  };
  // A level whose steps' slices are fused (sn_schedule_options::fuse_slices), in groups of
  // up to `per_group` slices of every step.
  constexpr std::size_t per_group = sn_fused_pivots / slice;
  const auto fused_level = [&](const std::vector<std::size_t>& level, std::size_t slices) {
    const auto slices_of = [&](std::size_t s) {
      return whole(s) ? std::size_t{0} : (ep.steps[s].members.size() + slice - 1) / slice;
    };
    for (std::size_t g0 = 0; g0 < slices; g0 += per_group) {
      for (std::size_t j = g0; j < g0 + per_group && j < slices; ++j) {
        std::vector<std::size_t> steps_of;
        std::vector<sn_task> tasks;
        std::vector<std::size_t> rest_steps;
        std::vector<sn_task> rest_tasks;
        for (const std::size_t s : level) {
          const std::size_t own = slices_of(s);
          if (own <= j)
            continue;
          steps_of.push_back(s);
          tasks.push_back(task_of(s, j));
          // The group's later slices' pivots: their rows over the front, and the front's rows
          // over their columns, take this slice's outer product now.
          const std::size_t end = std::min(own, g0 + per_group);
          if (j + 1 >= end)
            continue;
          const auto& members = ep.steps[s].members;
          const std::size_t from = (j + 1) * slice;
          const std::size_t to = std::min(members.size(), end * slice);
          const auto at = static_cast<std::int64_t>(out.row_lists.size());
          out.row_lists.insert(out.row_lists.end(),
                               members.begin() + static_cast<std::ptrdiff_t>(from),
                               members.begin() + static_cast<std::ptrdiff_t>(to));
          const auto count = static_cast<std::int32_t>(to - from);
          sn_task rows = task_of(s, j);
          rows.row_list = at;
          rows.nrows = count;
          rows.row_tiles = (count + 127) / 128;
          sn_task cols = task_of(s, j);
          cols.col_list = at;
          cols.ncols = count;
          cols.tiles = (count + 127) / 128;
          rest_steps.insert(rest_steps.end(), {s, s});
          rest_tasks.push_back(rows);
          rest_tasks.push_back(cols);
        }
        emit(steps_of, tasks, false, part::close_panels);
        emit(rest_steps, rest_tasks, false, part::outer);
      }
      // One outer product of the group's pivots over each step's front.
      std::vector<std::size_t> steps_of;
      std::vector<sn_task> tasks;
      for (const std::size_t s : level) {
        const std::size_t own = slices_of(s);
        if (own <= g0)
          continue;
        sn_task t = task_of(s, g0);
        const std::size_t to = std::min(ep.steps[s].members.size(), (g0 + per_group) * slice);
        t.np = static_cast<std::int32_t>(to - g0 * slice);
        steps_of.push_back(s);
        tasks.push_back(t);
      }
      emit(steps_of, tasks, false, part::outer);
    }
  };
  for (const auto& level : by_level) {
    // Steps whose front fits one 128-line block (all their pivots too): whole, in one launch.
    std::vector<std::pair<std::size_t, std::size_t>> group_tasks;
    for (const std::size_t s : level)
      if (whole(s))
        group_tasks.emplace_back(s, 0);
    launch_group(group_tasks, true);
    // The others slice by slice: close, panels and outer products.
    std::size_t slices = 0;
    for (const std::size_t s : level)
      if (!whole(s))
        slices = std::max(slices, (ep.steps[s].members.size() + slice - 1) / slice);
    if (options.fuse_slices && !listed && !options.disjoint_ancestors && slices > 1) {
      fused_level(level, slices);
      out.level_end.push_back(out.launches.size());
      continue;
    }
    for (std::size_t j = 0; j < slices; ++j) {
      group_tasks.clear();
      for (const std::size_t s : level)
        if (!whole(s) && static_cast<std::int64_t>(ep.steps[s].members.size()) >
                             static_cast<std::int64_t>(j) * slice)
          group_tasks.emplace_back(s, j);
      launch_group(group_tasks, false);
    }
    out.level_end.push_back(out.launches.size());
  }
  return out;
}

} // namespace apsp::cuda

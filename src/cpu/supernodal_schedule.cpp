#include "cpu/supernodal_schedule.hpp"

#include <algorithm>
#include <queue>

namespace apsp::cpu {

std::vector<std::int64_t> step_parents(const elimination_plan& plan) {
  // Step s's rows [first, top] are the subtree of its top column: the steps before s whose
  // ranges lie inside it and that have no parent yet are its children (a postorder).
  const auto count = static_cast<std::int64_t>(plan.steps.size());
  std::vector<std::int64_t> parent(static_cast<std::size_t>(count), -1);
  std::vector<std::int64_t> open;
  for (std::int64_t s = 0; s < count; ++s) {
    const std::int32_t first = plan.steps[static_cast<std::size_t>(s)].first;
    while (!open.empty() && plan.steps[static_cast<std::size_t>(open.back())].first >= first) {
      parent[static_cast<std::size_t>(open.back())] = s;
      open.pop_back();
    }
    open.push_back(s);
  }
  return parent;
}

step_schedule schedule_steps(const elimination_plan& plan, int threads) {
  const auto count = static_cast<std::int64_t>(plan.steps.size());
  step_schedule out;
  if (threads <= 1 || count == 0) {
    for (std::int64_t s = 0; s < count; ++s)
      out.top_steps.push_back(s);
    return out;
  }
  const std::vector<std::int64_t> parent = step_parents(plan);
  std::vector<double> updates(static_cast<std::size_t>(count));
  std::vector<std::int64_t> first_step(static_cast<std::size_t>(count));
  std::vector<std::vector<std::int64_t>> children(static_cast<std::size_t>(count));
  for (std::int64_t s = 0; s < count; ++s) {
    updates[static_cast<std::size_t>(s)] = plan.steps[static_cast<std::size_t>(s)].updates();
    first_step[static_cast<std::size_t>(s)] = s;
  }
  for (std::int64_t s = 0; s < count; ++s) { // children before parents: sums in one pass
    const std::int64_t p = parent[static_cast<std::size_t>(s)];
    if (p < 0)
      continue;
    updates[static_cast<std::size_t>(p)] += updates[static_cast<std::size_t>(s)];
    first_step[static_cast<std::size_t>(p)] =
        std::min(first_step[static_cast<std::size_t>(p)], first_step[static_cast<std::size_t>(s)]);
    children[static_cast<std::size_t>(p)].push_back(s);
  }
  // The frontier, heaviest subtree on top (ties: the lower step, so the split is reproducible).
  const auto lighter = [&](std::int64_t a, std::int64_t b) {
    const double ua = updates[static_cast<std::size_t>(a)];
    const double ub = updates[static_cast<std::size_t>(b)];
    return ua < ub || (ua == ub && a > b);
  };
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, decltype(lighter)> frontier(lighter);
  double frontier_updates = 0;
  for (std::int64_t s = 0; s < count; ++s) {
    if (parent[static_cast<std::size_t>(s)] < 0) {
      frontier.push(s);
      frontier_updates += updates[static_cast<std::size_t>(s)];
    }
  }
  while (!frontier.empty()) {
    const std::int64_t s = frontier.top();
    const auto& kids = children[static_cast<std::size_t>(s)];
    if (kids.empty() || updates[static_cast<std::size_t>(s)] * 2 * threads <= frontier_updates)
      break;
    frontier.pop();
    out.top_steps.push_back(s);
    frontier_updates -= plan.steps[static_cast<std::size_t>(s)].updates();
    for (const std::int64_t c : kids)
      frontier.push(c);
  }
  while (!frontier.empty()) {
    const std::int64_t s = frontier.top();
    frontier.pop();
    out.subtrees.push_back(
        {first_step[static_cast<std::size_t>(s)], s, updates[static_cast<std::size_t>(s)]});
  }
  std::sort(out.top_steps.begin(), out.top_steps.end());
  return out;
}

} // namespace apsp::cpu

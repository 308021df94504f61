#include "core/cpu_placement.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "apsp/error.hpp"

namespace apsp::detail {
namespace {

bool intersects(const cpu_list& a, const cpu_list& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i == *j)
      return true;
    *i < *j ? ++i : ++j;
  }
  return false;
}

cpu_list intersection(const cpu_list& a, const cpu_list& b) {
  cpu_list out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

} // namespace

std::string format_cpu_list(const cpu_list& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
      ++j;
    if (!out.empty())
      out += ',';
    out += std::to_string(cpus[i]);
    if (j > i)
      out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

cpu_list parse_cpu_list(const std::string& text) {
  cpu_list out;
  std::stringstream in(text);
  std::string part;
  const auto bad = [&] {
    throw invalid_argument_error("not a CPU list (such as 0-3,8,10-11): '" + text + "'");
  };
  const auto number = [&](const std::string& s) {
    if (s.empty() || s.size() > 6 ||
        !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
      bad();
    return std::stoi(s);
  };
  while (std::getline(in, part, ',')) {
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
      part.pop_back();
    if (part.empty())
      continue;
    const auto dash = part.find('-');
    const int first = number(part.substr(0, dash));
    const int last = dash == std::string::npos ? first : number(part.substr(dash + 1));
    if (last < first)
      bad();
    for (int c = first; c <= last; ++c)
      out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int ranks_sharing_cpus(const std::vector<rank_cpu_facts>& node, int me) {
  const cpu_list& mine = node.at(static_cast<std::size_t>(me)).allowed;
  int sharing = 0;
  for (const rank_cpu_facts& other : node) {
    const bool overlap = std::any_of(other.allowed.begin(), other.allowed.end(), [&](int cpu) {
      return std::binary_search(mine.begin(), mine.end(), cpu);
    });
    sharing += overlap ? 1 : 0;
  }
  return std::max(sharing, 1);
}

cpu_placement rank_cpus(const std::vector<rank_cpu_facts>& node, int me,
                        const std::vector<int>& core_of) {
  APSP_EXPECTS(me >= 0 && me < static_cast<int>(node.size()), invalid_argument_error,
               "rank_cpus: no such node-local rank");
  const cpu_list& mine = node[static_cast<std::size_t>(me)].allowed;
  cpu_placement out;
  out.cpus = mine;
  const std::string all = format_cpu_list(mine);
  std::vector<int> group; // node-local ranks allowed exactly what this one is
  bool partial_overlap = false;
  for (int r = 0; r < static_cast<int>(node.size()); ++r) {
    const cpu_list& other = node[static_cast<std::size_t>(r)].allowed;
    if (r == me || other == mine)
      group.push_back(r);
    else if (intersects(other, mine))
      partial_overlap = true;
  }
  if (partial_overlap) {
    out.how = "CPUs " + all + " as the launcher set them (they overlap other ranks' differently)";
    return out;
  }
  if (group.size() == 1) {
    out.how = "CPUs " + all + (node.size() == 1 ? " (the only rank on its node)"
                                                : " (bound by the launcher)");
    return out;
  }
  // Ranks whose GPUs are near different CPUs share what is near their own GPU.
  const auto near = [&](int r) {
    return intersection(node[static_cast<std::size_t>(r)].gpu_local, mine);
  };
  cpu_list pool = mine;
  std::vector<int> sharing = group;
  bool by_gpu = false;
  const bool all_near = std::all_of(group.begin(), group.end(), [&](int r) { return !near(r).empty(); });
  if (all_near && std::any_of(group.begin(), group.end(), [&](int r) { return near(r) != near(me); })) {
    pool = near(me);
    sharing.clear();
    for (int r : group)
      if (near(r) == pool)
        sharing.push_back(r);
    by_gpu = true;
  }
  const auto g = static_cast<std::int64_t>(sharing.size());
  const auto i = static_cast<std::int64_t>(std::find(sharing.begin(), sharing.end(), me) -
                                           sharing.begin());
  if (static_cast<std::int64_t>(pool.size()) < g) {
    out.how = "CPUs " + all + " shared with " + std::to_string(g - 1) +
              " other ranks of this node (fewer CPUs than ranks: left to the kernel)";
    return out;
  }
  // Whole cores in turn: a core's hyperthreads next to each other.
  const auto core = [&](int c) {
    return c < static_cast<int>(core_of.size()) && core_of[static_cast<std::size_t>(c)] >= 0
               ? core_of[static_cast<std::size_t>(c)]
               : c;
  };
  std::stable_sort(pool.begin(), pool.end(), [&](int a, int b) {
    return std::make_pair(core(a), a) < std::make_pair(core(b), b);
  });
  std::vector<std::pair<std::size_t, std::size_t>> units; // [first, last) of one core in pool
  for (std::size_t k = 0; k < pool.size();) {
    std::size_t e = k + 1;
    while (e < pool.size() && core(pool[e]) == core(pool[k]))
      ++e;
    units.emplace_back(k, e);
    k = e;
  }
  std::size_t first = 0;
  std::size_t last = 0;
  if (static_cast<std::int64_t>(units.size()) >= g) {
    const auto u = static_cast<std::int64_t>(units.size());
    first = units[static_cast<std::size_t>(i * u / g)].first;
    last = units[static_cast<std::size_t>((i + 1) * u / g - 1)].second;
  } else {
    const auto c = static_cast<std::int64_t>(pool.size());
    first = static_cast<std::size_t>(i * c / g);
    last = static_cast<std::size_t>((i + 1) * c / g);
  }
  out.cpus.assign(pool.begin() + static_cast<std::ptrdiff_t>(first),
                  pool.begin() + static_cast<std::ptrdiff_t>(last));
  std::sort(out.cpus.begin(), out.cpus.end());
  out.changed = true;
  out.how = "CPUs " + format_cpu_list(out.cpus) + " (share " + std::to_string(i + 1) + " of " +
            std::to_string(g) + " of CPUs " + format_cpu_list(by_gpu ? pool : mine) +
            (by_gpu ? ", those nearest its GPU," : ",") + " which the launcher gave " +
            std::to_string(group.size()) + " ranks of this node alike)";
  return out;
}

cpu_list allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  cpu_list out;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set))
      out.push_back(c);
  return out;
}

std::vector<int> cpu_cores() {
  std::vector<int> out;
  std::error_code ec;
  const std::filesystem::path root = "/sys/devices/system/cpu";
  std::map<std::pair<int, int>, int> ids; // (package, core) -> a number of its own
  for (const auto& e : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 ||
        !std::all_of(name.begin() + 3, name.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    const int cpu = std::stoi(name.substr(3));
    const std::string package = read_line(e.path() / "topology/physical_package_id");
    const std::string core = read_line(e.path() / "topology/core_id");
    if (package.empty() || core.empty())
      return {};
    const auto key = std::make_pair(std::stoi(package), std::stoi(core));
    const int id = ids.emplace(key, static_cast<int>(ids.size())).first->second;
    if (cpu >= static_cast<int>(out.size()))
      out.resize(static_cast<std::size_t>(cpu) + 1, -1);
    out[static_cast<std::size_t>(cpu)] = id;
  }
  return out;
}

cpu_list pci_local_cpus(const std::string& bus_id) {
  std::string id = bus_id;
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // CUDA names the domain with eight digits, sysfs with four.
  if (id.size() == 17 && id.compare(0, 4, "0000") == 0)
    id = id.substr(4);
  const std::string text = read_line("/sys/bus/pci/devices/" + id + "/local_cpulist");
  if (text.empty())
    return {};
  try {
    return parse_cpu_list(text);
  } catch (const error&) {
    return {};
  }
}

int bind_process(const cpu_list& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE)
      CPU_SET(c, &set);
  int failed = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const pid_t tid = static_cast<pid_t>(std::stol(e.path().filename().string()));
    if (sched_setaffinity(tid, sizeof set, &set) != 0 && std::filesystem::exists(e.path()))
      ++failed;
  }
  if (ec) // no /proc: this thread at least, and the threads it starts
    failed += sched_setaffinity(0, sizeof set, &set) != 0 ? 1 : 0;
  return failed;
}

std::vector<thread_usage> thread_census() {
  std::map<std::string, thread_usage> by_name;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream stat(e.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos)
      continue;
    thread_usage t;
    t.name = text.substr(open + 1, close - open - 1);
    // The main thread apart from the threads that share its name (OpenMP's, MPI's).
    if (e.path().filename().string() == std::to_string(getpid()))
      t.name += " (main)";
    std::stringstream rest(text.substr(close + 2));
    std::string field;
    double utime = 0;
    double stime = 0;
    for (int f = 3; rest >> field; ++f) { // fields 14 and 15: user and system ticks
      if (f == 14)
        utime = std::stod(field);
      if (f == 15) {
        stime = std::stod(field);
        break;
      }
    }
    t.cpu_seconds = (utime + stime) / tick;
    std::ifstream status(e.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
        t.voluntary_switches = std::stoll(line.substr(24));
      else if (line.rfind("nonvoluntary_ctxt_switches:", 0) == 0)
        t.involuntary_switches = std::stoll(line.substr(27));
    }
    t.migrations = -1;
    std::ifstream sched(e.path() / "sched");
    for (std::string line; std::getline(sched, line);) {
      if (line.rfind("se.nr_migrations", 0) == 0) {
        const auto colon = line.find(':');
        if (colon != std::string::npos)
          t.migrations = std::stoll(line.substr(colon + 1));
      }
    }
    thread_usage& sum = by_name[t.name];
    sum.name = t.name;
    sum.threads += 1;
    sum.cpu_seconds += t.cpu_seconds;
    sum.voluntary_switches += t.voluntary_switches;
    sum.involuntary_switches += t.involuntary_switches;
    if (sum.threads == 1)
      sum.migrations = t.migrations;
    else if (sum.migrations < 0 || t.migrations < 0)
      sum.migrations = -1;
    else
      sum.migrations += t.migrations;
  }
  std::vector<thread_usage> out;
  for (auto& [name, t] : by_name)
    out.push_back(t);
  std::sort(out.begin(), out.end(),
            [](const thread_usage& a, const thread_usage& b) { return a.cpu_seconds > b.cpu_seconds; });
  return out;
}

std::vector<thread_usage> census_since(const std::vector<thread_usage>& before,
                                       const std::vector<thread_usage>& after) {
  std::vector<thread_usage> out;
  for (thread_usage t : after) {
    const auto was = std::find_if(before.begin(), before.end(),
                                  [&](const thread_usage& b) { return b.name == t.name; });
    if (was != before.end()) {
      t.cpu_seconds = std::max(0.0, t.cpu_seconds - was->cpu_seconds);
      t.voluntary_switches = std::max<std::int64_t>(0, t.voluntary_switches - was->voluntary_switches);
      t.involuntary_switches =
          std::max<std::int64_t>(0, t.involuntary_switches - was->involuntary_switches);
      if (t.migrations >= 0 && was->migrations >= 0)
        t.migrations = std::max<std::int64_t>(0, t.migrations - was->migrations);
    }
    out.push_back(t);
  }
  std::sort(out.begin(), out.end(),
            [](const thread_usage& a, const thread_usage& b) { return a.cpu_seconds > b.cpu_seconds; });
  return out;
}

} // namespace apsp::detail

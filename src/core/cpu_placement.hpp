#pragma once
// Where a process's threads run: the CPUs a rank of a distributed solve takes when the launcher
// left several ranks of a node on the same CPUs (mpirun's default for more than two ranks,
// --bind-to none, srun without --cpu-bind). The rule is a pure function (rank_cpus) so that it
// can be tested without MPI; reading and setting affinities is Linux's sched_{get,set}affinity
// on every thread of the process (/proc/self/task), since a thread that a library started
// before the placement (MPI's, CUDA's, OpenMP's) keeps its own mask otherwise.

#include <cstdint>
#include <string>
#include <vector>

namespace apsp::detail {

/// Sorted, distinct CPU numbers.
using cpu_list = std::vector<int>;

/// "0-15,32-47" for {0..15, 32..47}; "" for none.
[[nodiscard]] std::string format_cpu_list(const cpu_list& cpus);
/// The kernel's list syntax ("0-3,8,10-11"); throws invalid_argument_error on anything else.
[[nodiscard]] cpu_list parse_cpu_list(const std::string& text);

/// What one rank of a node knows about itself, gathered from every rank of the node.
struct rank_cpu_facts {
  cpu_list allowed;   ///< the CPUs its launcher allows it (its affinity mask)
  cpu_list gpu_local; ///< the CPUs nearest its GPU (empty: no GPU, or unknown)
};

/// A rank's placement: the CPUs it keeps and why.
struct cpu_placement {
  cpu_list cpus;
  bool changed = false; ///< it took a share instead of keeping what the launcher gave it
  std::string how;      ///< one line for --progress and --json
};

/// The CPUs node-local rank `me` of `node` (every rank's facts, by node-local rank) should run
/// its threads on. A rank whose allowed CPUs no other rank of the node shares was bound by its
/// launcher and keeps them. Ranks with identical allowed sets (the launcher left them together)
/// split that set: each takes a contiguous share of it, in node-local rank order, whole cores
/// together (`core_of[cpu]` names the core of each CPU, or is empty when unknown, so that
/// hyperthreads of one core stay in one share), and where their GPUs are near different CPUs,
/// each group of ranks whose GPUs are near the same CPUs shares those. Ranks that overlap
/// without being identical, or that would get less than one CPU each, keep their set.
[[nodiscard]] cpu_placement rank_cpus(const std::vector<rank_cpu_facts>& node, int me,
                                      const std::vector<int>& core_of = {});

/// How many ranks of `node` (`me` included) are allowed any of the CPUs rank `me` is allowed.
[[nodiscard]] int ranks_sharing_cpus(const std::vector<rank_cpu_facts>& node, int me);

/// This thread's affinity mask.
[[nodiscard]] cpu_list allowed_cpus();
/// The core of each CPU (index = CPU number) from /sys/devices/system/cpu; empty if unknown.
[[nodiscard]] std::vector<int> cpu_cores();
/// The CPUs nearest a PCI device ("0000:3b:00.0"), from sysfs; empty if unknown.
[[nodiscard]] cpu_list pci_local_cpus(const std::string& bus_id);
/// Sets the affinity of every thread of this process (and so of every thread they start) to
/// `cpus`. Returns how many threads it could not move (threads that ended meanwhile count
/// not).
int bind_process(const cpu_list& cpus);

/// The threads of this process, by name, with the CPU time they used and how often the kernel
/// took the CPU from them (involuntary context switches) or they gave it up (voluntary):
/// which threads compete for cores, without a profiler.
struct thread_usage {
  std::string name;
  int threads = 0; ///< threads of this name
  double cpu_seconds = 0;
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
  std::int64_t migrations = 0; ///< moves between CPUs (-1 where the kernel does not say)
};
/// Every thread now, grouped by name (the busiest first; the main thread alone, as "NAME (main)").
[[nodiscard]] std::vector<thread_usage> thread_census();
/// `after` less `before` by name (threads that started in between count whole), busiest first.
[[nodiscard]] std::vector<thread_usage> census_since(const std::vector<thread_usage>& before,
                                                     const std::vector<thread_usage>& after);

} // namespace apsp::detail

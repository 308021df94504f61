// The placement rule of distributed ranks (core/cpu_placement.hpp), without MPI: which CPUs a
// rank takes for a given allowed set, node-local rank and node size, and the CPU-list syntax.

#include "core/cpu_placement.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>

#include "apsp/error.hpp"

namespace apsp::detail {
namespace {

cpu_list range(int first, int last) { // [first, last]
  cpu_list out(static_cast<std::size_t>(last - first + 1));
  std::iota(out.begin(), out.end(), first);
  return out;
}

std::vector<rank_cpu_facts> alike(int ranks, const cpu_list& allowed) {
  return std::vector<rank_cpu_facts>(static_cast<std::size_t>(ranks), rank_cpu_facts{allowed, {}});
}

TEST(CpuList, FormatsAndParsesTheKernelSyntax) {
  EXPECT_EQ(format_cpu_list({}), "");
  EXPECT_EQ(format_cpu_list({3}), "3");
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11"), (cpu_list{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5,1-2,2\n"), (cpu_list{1, 2, 5}));
  EXPECT_EQ(parse_cpu_list(""), cpu_list{});
  EXPECT_THROW((void)parse_cpu_list("3-1"), invalid_argument_error);
  EXPECT_THROW((void)parse_cpu_list("a-b"), invalid_argument_error);
  EXPECT_THROW((void)parse_cpu_list("-4"), invalid_argument_error);
}

TEST(RankCpus, UnboundRanksSplitTheNodeInRankOrder) {
  const auto node = alike(4, range(0, 63));
  cpu_list seen;
  for (int me = 0; me < 4; ++me) {
    const cpu_placement p = rank_cpus(node, me);
    EXPECT_TRUE(p.changed);
    EXPECT_EQ(p.cpus, range(16 * me, 16 * me + 15)) << "rank " << me;
    EXPECT_NE(p.how.find("share " + std::to_string(me + 1) + " of 4"), std::string::npos) << p.how;
    seen.insert(seen.end(), p.cpus.begin(), p.cpus.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, range(0, 63)); // every CPU once
}

TEST(RankCpus, UnevenSharesCoverEveryCpuOnce) {
  const auto node = alike(3, range(0, 9));
  cpu_list seen;
  for (int me = 0; me < 3; ++me) {
    const cpu_list c = rank_cpus(node, me).cpus;
    EXPECT_GE(c.size(), 3u);
    EXPECT_LE(c.size(), 4u);
    seen.insert(seen.end(), c.begin(), c.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, range(0, 9));
}

TEST(RankCpus, HyperthreadsOfOneCoreStayTogether) {
  // 8 CPUs, 4 cores: CPU c and c + 4 are one core (Linux's usual numbering).
  const std::vector<int> core_of = {0, 1, 2, 3, 0, 1, 2, 3};
  const auto node = alike(2, range(0, 7));
  EXPECT_EQ(rank_cpus(node, 0, core_of).cpus, (cpu_list{0, 1, 4, 5}));
  EXPECT_EQ(rank_cpus(node, 1, core_of).cpus, (cpu_list{2, 3, 6, 7}));
}

TEST(RankCpus, ALaunchersBindingIsKept) {
  // --bind-to core: one CPU each, no overlap.
  std::vector<rank_cpu_facts> node = {{{0}, {}}, {{1}, {}}, {{2}, {}}, {{3}, {}}};
  for (int me = 0; me < 4; ++me) {
    const cpu_placement p = rank_cpus(node, me);
    EXPECT_FALSE(p.changed);
    EXPECT_EQ(p.cpus, cpu_list{me});
    EXPECT_NE(p.how.find("bound by the launcher"), std::string::npos) << p.how;
  }
  // The only rank of its node keeps everything.
  const cpu_placement one = rank_cpus(alike(1, range(0, 15)), 0);
  EXPECT_FALSE(one.changed);
  EXPECT_EQ(one.cpus, range(0, 15));
}

TEST(RankCpus, RanksBoundToTheSameSocketSplitItsCpus) {
  // --bind-to socket, two sockets of 8 CPUs, ranks 0 and 2 on the first, 1 and 3 on the second.
  std::vector<rank_cpu_facts> node = {
      {range(0, 7), {}}, {range(8, 15), {}}, {range(0, 7), {}}, {range(8, 15), {}}};
  EXPECT_EQ(rank_cpus(node, 0).cpus, range(0, 3));
  EXPECT_EQ(rank_cpus(node, 2).cpus, range(4, 7));
  EXPECT_EQ(rank_cpus(node, 1).cpus, range(8, 11));
  EXPECT_EQ(rank_cpus(node, 3).cpus, range(12, 15));
}

TEST(RankCpus, PartialOverlapsAndTooFewCpusAreLeftAlone) {
  std::vector<rank_cpu_facts> odd = {{range(0, 7), {}}, {range(4, 11), {}}};
  EXPECT_FALSE(rank_cpus(odd, 0).changed);
  EXPECT_EQ(rank_cpus(odd, 1).cpus, range(4, 11));
  // 4 ranks on 2 CPUs (mpirun --oversubscribe on a small machine).
  const auto crowded = alike(4, range(0, 1));
  for (int me = 0; me < 4; ++me) {
    const cpu_placement p = rank_cpus(crowded, me);
    EXPECT_FALSE(p.changed);
    EXPECT_EQ(p.cpus, range(0, 1));
  }
}

TEST(RankCpus, RanksSharingCpusAreCountedWithTheRankItself) {
  // Partial overlaps count; disjoint sets do not.
  std::vector<rank_cpu_facts> node = {
      {range(0, 7), {}}, {range(4, 11), {}}, {range(12, 15), {}}, {range(0, 15), {}}};
  EXPECT_EQ(ranks_sharing_cpus(node, 0), 3); // itself, 4-11 and 0-15
  EXPECT_EQ(ranks_sharing_cpus(node, 1), 3);
  EXPECT_EQ(ranks_sharing_cpus(node, 2), 2); // itself and 0-15
  EXPECT_EQ(ranks_sharing_cpus(node, 3), 4);
  const auto together = alike(4, range(0, 63));
  EXPECT_EQ(ranks_sharing_cpus(together, 2), 4);
  const std::vector<rank_cpu_facts> bound = {{{0}, {}}, {{1}, {}}};
  EXPECT_EQ(ranks_sharing_cpus(bound, 0), 1);
  EXPECT_EQ(ranks_sharing_cpus(bound, 1), 1);
}

TEST(RankCpus, GpusNearDifferentCpusPullTheirRanksThere) {
  // Two sockets (0-7, 8-15); the GPUs of ranks 0 and 1 sit on the second, of 2 and 3 on the
  // first.
  std::vector<rank_cpu_facts> node = {{range(0, 15), range(8, 15)},
                                      {range(0, 15), range(8, 15)},
                                      {range(0, 15), range(0, 7)},
                                      {range(0, 15), range(0, 7)}};
  EXPECT_EQ(rank_cpus(node, 0).cpus, range(8, 11));
  EXPECT_EQ(rank_cpus(node, 1).cpus, range(12, 15));
  EXPECT_EQ(rank_cpus(node, 2).cpus, range(0, 3));
  EXPECT_EQ(rank_cpus(node, 3).cpus, range(4, 7));
  EXPECT_NE(rank_cpus(node, 0).how.find("nearest its GPU"), std::string::npos);
  // GPUs all near the same CPUs (one socket): a plain split.
  for (auto& f : node)
    f.gpu_local = range(0, 15);
  EXPECT_EQ(rank_cpus(node, 3).cpus, range(12, 15));
}

TEST(ThreadCensus, SeesThisThreadAndCountsItsTime) {
  const auto before = thread_census();
  ASSERT_FALSE(before.empty());
  // Busy for 0.3 s of wall time: the kernel counts CPU time in ticks of 1-10 ms.
  volatile double x = 0;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300))
    for (int i = 0; i < 100000; ++i)
      x = x + i * 0.5;
  const auto spent = census_since(before, thread_census());
  ASSERT_FALSE(spent.empty());
  double total = 0;
  for (const auto& t : spent)
    total += t.cpu_seconds;
  EXPECT_GT(total, 0.0);
  EXPECT_GE(spent.front().threads, 1);
  EXPECT_FALSE(spent.front().name.empty());
}

} // namespace
} // namespace apsp::detail

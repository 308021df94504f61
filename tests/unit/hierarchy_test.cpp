// A contraction hierarchy built once and kept (apsp/hierarchy.hpp): its tables, in memory and
// after a save and a load, against Dijkstra's, exactly (int32 and int64, negative weights
// through the potentials it keeps); the refusals: a graph that changed (one weight, one arc more,
// one arc turned around), another graph, another format version, a truncated file, a flipped
// byte anywhere, a file that is not a hierarchy; float dtypes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/hierarchy.hpp"
#include "common/table_cases.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::expect_same_table;
using apsp::testing::pick;
using apsp::testing::street_grid;

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("apsp_hierarchy_test_" + std::to_string(::getpid()) + "_" + name);
}

std::vector<char> bytes_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& p, const std::vector<char>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

apsp::solve_options options_for(apsp::dtype type) {
  apsp::solve_options o;
  o.type = type;
  o.threads = 2;
  return o;
}

template <class T> void tables_after_a_round_trip(apsp::dtype type) {
  for (const bool negative : {false, true}) {
    SCOPED_TRACE(negative ? "negative weights" : "weights >= 0");
    const auto g = street_grid(31, 23, 50, negative, 5);
    const auto targets = pick(g.num_vertices(), 60, 8);
    const auto sources = pick(g.num_vertices(), 45, 9, targets);
    const auto want = dijkstra_table<T>(g, sources, targets);
    const apsp::hierarchy built(g, options_for(type));
    EXPECT_EQ(built.type(), type);
    EXPECT_EQ(built.num_vertices(), g.num_vertices());
    const auto file = temp_file(negative ? "neg.ch" : "pos.ch");
    built.save(file.string());
    const apsp::hierarchy loaded = apsp::hierarchy::load(file.string(), g);
    EXPECT_EQ(loaded.fingerprint(), apsp::fingerprint_of(g));
    EXPECT_EQ(loaded.shortcuts(), built.shortcuts());
    EXPECT_EQ(loaded.levels(), built.levels());
    for (const apsp::hierarchy* h : {&built, &loaded}) {
      for (const int threads : {1, 3}) {
        const apsp::table_result r = h->table(sources, targets, threads);
        EXPECT_TRUE(std::holds_alternative<apsp::drivers::ch_table>(r.ran.run) ||
                    std::holds_alternative<apsp::drivers::rphast_table>(r.ran.run));
        EXPECT_EQ(r.rows, static_cast<std::int64_t>(sources.size()));
        EXPECT_EQ(r.cols, static_cast<std::int64_t>(targets.size()));
        expect_same_table(std::get<std::vector<T>>(r.distances), want, targets.size(),
                          std::string(h == &built ? "built" : "loaded") + ", " +
                              std::to_string(threads) + " threads");
      }
    }
    // A saved file is the same bytes when saved again after a load.
    const auto again = temp_file("again.ch");
    loaded.save(again.string());
    EXPECT_EQ(bytes_of(file), bytes_of(again));
    std::filesystem::remove(file);
    std::filesystem::remove(again);
  }
}

TEST(Hierarchy, Int32TablesAfterSaveAndLoadAreDijkstras) {
  tables_after_a_round_trip<std::int32_t>(apsp::dtype::int32);
}
TEST(Hierarchy, Int64TablesAfterSaveAndLoadAreDijkstras) {
  tables_after_a_round_trip<std::int64_t>(apsp::dtype::int64);
}

TEST(Hierarchy, RefusesAGraphThatChangedOrAnotherGraph) {
  const auto g = street_grid(12, 9, 20, false, 3);
  const apsp::hierarchy h(g, options_for(apsp::dtype::int32));
  EXPECT_NO_THROW(h.check(g));
  const auto with = [&](auto change) {
    apsp::graph c(g.num_vertices());
    auto src = g.sources();
    auto dst = g.targets();
    auto w = g.weights();
    change(src, dst, w, c);
    c.assign(src, dst, w);
    return c;
  };
  const auto heavier = with([](auto&, auto&, auto& w, auto&) { w[7] += 1; });
  const auto turned = with([](auto& s, auto& d, auto&, auto&) { std::swap(s[3], d[3]); });
  const auto more = with([](auto& s, auto& d, auto& w, auto&) {
    s.push_back(0);
    d.push_back(5);
    w.push_back(1);
  });
  EXPECT_THROW(h.check(heavier), apsp::hierarchy_mismatch_error);
  EXPECT_THROW(h.check(turned), apsp::hierarchy_mismatch_error);
  EXPECT_THROW(h.check(more), apsp::hierarchy_mismatch_error);
  EXPECT_THROW(h.check(street_grid(12, 9, 20, false, 4)), apsp::hierarchy_mismatch_error);
  const auto file = temp_file("changed.ch");
  h.save(file.string());
  EXPECT_THROW((void)apsp::hierarchy::load(file.string(), heavier), apsp::hierarchy_mismatch_error);
  EXPECT_NO_THROW((void)apsp::hierarchy::load(file.string(), g));
  std::filesystem::remove(file);
}

TEST(Hierarchy, RefusesDamagedFilesAndOtherVersions) {
  const auto g = street_grid(10, 8, 20, true, 6);
  const auto file = temp_file("damaged.ch");
  apsp::hierarchy(g, options_for(apsp::dtype::int32)).save(file.string());
  const std::vector<char> good = bytes_of(file);
  ASSERT_GT(good.size(), 200u);
  // A flipped byte anywhere: header, body or checksum.
  for (std::size_t at = 0; at < good.size(); at += good.size() / 37 + 1) {
    auto bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    write_bytes(file, bad);
    SCOPED_TRACE("byte " + std::to_string(at));
    if (at >= 8 && at < 12) // the version field
      EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::hierarchy_mismatch_error);
    else
      EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::invalid_input_error);
  }
  auto truncated = good;
  truncated.resize(good.size() - 9);
  write_bytes(file, truncated);
  EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::invalid_input_error);
  auto longer = good;
  longer.push_back('x');
  write_bytes(file, longer);
  EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::invalid_input_error);
  auto version = good;
  version[8] = 2; // version 2: a format this build does not read
  write_bytes(file, version);
  try {
    (void)apsp::hierarchy::load(file.string());
    ADD_FAILURE() << "a version-2 file loaded";
  } catch (const apsp::hierarchy_mismatch_error& e) {
    EXPECT_NE(std::string(e.what()).find("version 2"), std::string::npos) << e.what();
  }
  write_bytes(file, {'p', ' ', 's', 'p', ' ', '3', ' ', '1', '\n'});
  EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::invalid_input_error);
  write_bytes(file, good);
  EXPECT_NO_THROW((void)apsp::hierarchy::load(file.string(), g));
  std::filesystem::remove(file);
  EXPECT_THROW((void)apsp::hierarchy::load(file.string()), apsp::invalid_argument_error);
}

TEST(Hierarchy, RefusesFloatTypesAndIdsOutsideTheGraph) {
  const auto g = street_grid(5, 5, 9, false, 1);
  EXPECT_THROW(apsp::hierarchy(g, options_for(apsp::dtype::float32)), apsp::invalid_argument_error);
  const apsp::hierarchy h(g, options_for(apsp::dtype::int64));
  const std::vector<std::int64_t> ok{1};
  const std::vector<std::int64_t> bad{25};
  EXPECT_THROW((void)h.table(bad, ok), apsp::invalid_argument_error);
  EXPECT_THROW((void)h.table(ok, bad), apsp::invalid_argument_error);
}

TEST(Hierarchy, NegativeCycleRefusesTheBuild) {
  apsp::graph g(3);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, -3);
  g.add_edge(2, 1, 1);
  EXPECT_THROW(apsp::hierarchy(g, options_for(apsp::dtype::int32)), apsp::negative_cycle_error);
}

} // namespace

// Core library behaviour that does not depend on a back end's speed: parsing of names, graph
// checks, overflow refusal, dense input, path queries; the reference checked against
// Bellman-Ford.

#include <gtest/gtest.h>
#include <omp.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"
#include "core/checks.hpp"

namespace {

using apsp::dtype;

apsp::solve_options reference_options(dtype t = dtype::int32, bool paths = false) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::reference;
  o.type = t;
  o.paths = paths;
  return o;
}

TEST(Types, NamesRoundTrip) {
  for (dtype t : {dtype::int32, dtype::float32, dtype::int64, dtype::float64}) {
    EXPECT_EQ(apsp::parse_dtype(apsp::to_string(t)), t);
  }
  EXPECT_THROW((void)apsp::parse_dtype("int8"), apsp::invalid_argument_error);
  EXPECT_EQ(apsp::parse_backend("cpu"), apsp::backend_kind::cpu);
  EXPECT_THROW((void)apsp::parse_backend("gpu9"), apsp::invalid_argument_error);
}

TEST(Graph, RejectsBadEdges) {
  apsp::graph g(3);
  EXPECT_THROW(g.add_edge(0, 3, 1), apsp::invalid_argument_error);
  EXPECT_THROW(g.add_edge(-1, 0, 1), apsp::invalid_argument_error);
  EXPECT_THROW(g.add_edge(0, 1, std::nan("")), apsp::invalid_argument_error);
  EXPECT_THROW(g.add_edge(0, 1, HUGE_VAL), apsp::invalid_argument_error);
  EXPECT_THROW(apsp::graph(-5), apsp::invalid_argument_error);
  EXPECT_EQ(g.num_edges(), 0);
  EXPECT_THROW(g.assign({0, 1}, {1, 3}, {1.0, 2.0}), apsp::invalid_argument_error);
  EXPECT_THROW(g.assign({0, 1}, {1, 2}, {1.0, std::nan("")}), apsp::invalid_argument_error);
  EXPECT_THROW(g.assign({0}, {1, 2}, {1.0}), apsp::invalid_argument_error);
  EXPECT_EQ(g.num_edges(), 0); // a refused assign changes nothing
  g.assign({0, 1}, {1, 2}, {1.0, -2.0});
  EXPECT_EQ(g.num_edges(), 2);
}

TEST(Semantics, ParallelEdgesKeepMinimumAndZeroIsAnEdge) {
  apsp::graph g(3);
  g.add_edge(0, 1, 7);
  g.add_edge(0, 1, 3);
  g.add_edge(1, 2, 0);
  g.add_edge(2, 2, 5); // a positive self-loop does not change d[2][2] = 0
  const auto r = apsp::solve(g, reference_options());
  EXPECT_EQ(r.distance(0, 1), 3);
  EXPECT_EQ(r.distance(1, 2), 0);
  EXPECT_EQ(r.distance(0, 2), 3);
  EXPECT_EQ(r.distance(2, 2), 0);
  EXPECT_TRUE(std::isinf(r.distance(2, 0)));
  const auto& d = r.distances_as<std::int32_t>();
  EXPECT_EQ(d(2, 0), apsp::weight_traits<std::int32_t>::infinity);
  EXPECT_THROW((void)r.distances_as<float>(), apsp::invalid_argument_error);
}

TEST(Semantics, Int32OverflowIsRefusedWithAdvice) {
  apsp::graph g(1000);
  for (int v = 0; v + 1 < 1000; ++v)
    g.add_edge(v, v + 1, 2'000'000);
  try {
    (void)apsp::solve(g, reference_options());
    FAIL() << "expected overflow_risk_error";
  } catch (const apsp::overflow_risk_error& e) {
    EXPECT_NE(std::string(e.what()).find("int64"), std::string::npos) << e.what();
  }
  // The same graph is fine in int64 and float64, and the long path is exact.
  const auto r = apsp::solve(g, reference_options(dtype::int64));
  EXPECT_EQ(r.distance(0, 999), 999.0 * 2'000'000);
}

/// analyze_weights' facts that pick kernels: a weight with its sign bit set is negative (-0.0
/// too: the GPU's float32 minima on bit patterns need every value without it), and a weight
/// with a fraction is noted (the GPU then does not try whole-number tagged slices), from an
/// edge list and from a dense matrix alike.
TEST(Semantics, WeightFactsNoteSignBitsAndFractions) {
  const auto facts_of = [](std::initializer_list<double> weights) {
    apsp::graph g(3);
    for (const double w : weights)
      g.add_edge(0, 1, w);
    return apsp::detail::analyze_weights(g, dtype::float32, false);
  };
  EXPECT_FALSE(facts_of({1, 2, 0}).has_negative);
  EXPECT_FALSE(facts_of({1, 2, 0}).has_fraction);
  EXPECT_TRUE(facts_of({1, -0.0}).has_negative);
  EXPECT_TRUE(facts_of({1, -3}).has_negative);
  EXPECT_TRUE(facts_of({1, 2.5}).has_fraction);
  EXPECT_FALSE(facts_of({1, 2.5}).has_negative);
  apsp::any_matrix am = apsp::dense_matrix<float>(2);
  auto& m = std::get<apsp::dense_matrix<float>>(am);
  m(0, 0) = 0;
  m(1, 1) = 0;
  m(0, 1) = 1.0f;
  m(1, 0) = 4.0f;
  auto dense = apsp::detail::analyze_weights(am);
  EXPECT_FALSE(dense.has_negative);
  EXPECT_FALSE(dense.has_fraction);
  m(1, 0) = -0.0f;
  m(0, 1) = 0.25f;
  dense = apsp::detail::analyze_weights(am);
  EXPECT_TRUE(dense.has_negative);
  EXPECT_TRUE(dense.has_fraction);
}

TEST(Semantics, NonIntegralWeightsNeedAFloatType) {
  apsp::graph g(2);
  g.add_edge(0, 1, 0.5);
  EXPECT_THROW((void)apsp::solve(g, reference_options(dtype::int32)), apsp::invalid_input_error);
  EXPECT_EQ(apsp::solve(g, reference_options(dtype::float32)).distance(0, 1), 0.5);
}

TEST(Semantics, NegativeWeightsKeepUnreachableUnreachable) {
  // 0 -> 1 costs -5; 1 reaches nothing, 2 is isolated: sums with "no path" must not leak.
  apsp::graph g(3);
  g.add_edge(0, 1, -5);
  for (dtype t : {dtype::int32, dtype::int64, dtype::float32, dtype::float64}) {
    const auto r = apsp::solve(g, reference_options(t, true));
    EXPECT_EQ(r.distance(0, 1), -5);
    EXPECT_FALSE(r.reachable(0, 2)) << apsp::to_string(t);
    EXPECT_FALSE(r.reachable(1, 0));
    EXPECT_TRUE(r.path(0, 2).empty());
  }
}

TEST(Reference, AgreesWithBellmanFord) {
  for (std::uint64_t seed : {11u, 12u, 13u}) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    apsp::testing::random_graph_spec spec;
    spec.n = 60;
    spec.negative_edges = seed != 11;
    const auto g = apsp::testing::make_random_graph(spec, seed);
    const auto r = apsp::solve(g, reference_options(dtype::int64));
    for (std::int64_t s = 0; s < spec.n; ++s) {
      const auto want = apsp::testing::bellman_ford(g, s);
      for (std::int64_t t = 0; t < spec.n; ++t) {
        ASSERT_EQ(r.distance(s, t), want[static_cast<std::size_t>(t)]) << s << " -> " << t;
      }
    }
  }
}

TEST(SolveDense, MatchesGraphSolve) {
  apsp::testing::random_graph_spec spec;
  spec.n = 40;
  spec.negative_edges = true;
  const auto g = apsp::testing::make_random_graph(spec, 21);
  apsp::dense_matrix<float> m(spec.n);
  for (auto& v : m.values())
    v = apsp::weight_traits<float>::infinity;
  for (std::size_t e = 0; e < g.weights().size(); ++e) {
    float& cell = m(g.sources()[e], g.targets()[e]);
    cell = std::min(cell, static_cast<float>(g.weights()[e]));
  }
  const auto from_dense = apsp::solve_dense(std::move(m), reference_options(dtype::float32));
  const auto from_graph = apsp::solve(g, reference_options(dtype::float32));
  for (std::int64_t i = 0; i < spec.n; ++i)
    for (std::int64_t j = 0; j < spec.n; ++j)
      ASSERT_EQ(from_dense.distance(i, j), from_graph.distance(i, j));
  apsp::dense_matrix<std::int32_t> wrong(2);
  EXPECT_THROW((void)apsp::solve_dense(std::move(wrong), reference_options(dtype::float32)),
               apsp::invalid_argument_error);
}

TEST(Result, PathQueriesCheckTheirArguments) {
  apsp::graph g(3);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, 1);
  const auto with = apsp::solve(g, reference_options(dtype::int32, true));
  EXPECT_EQ(with.path(0, 2), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(with.path(1, 1), (std::vector<std::int64_t>{1}));
  EXPECT_THROW((void)with.path(0, 3), apsp::invalid_argument_error);
  const auto pred = with.predecessors();
  EXPECT_EQ(pred(0, 2), 1);
  EXPECT_EQ(pred(0, 1), 0);
  EXPECT_EQ(pred(2, 0), apsp::no_predecessor);
  EXPECT_EQ(pred(1, 1), apsp::no_predecessor);
  const auto without = apsp::solve(g, reference_options());
  EXPECT_THROW((void)without.path(0, 2), apsp::invalid_argument_error);
}

/// An n x n matrix of T with every entry `value`.
template <class T> apsp::dense_matrix<T> filled(std::int64_t n, T value) {
  apsp::dense_matrix<T> m(n);
  for (auto& v : m.values())
    v = value;
  return m;
}

TEST(Result, CorruptPathMatrixFailsInsteadOfLooping) {
  auto via = filled(3, apsp::no_via);
  via(0, 2) = 1; // 0 -> 2 goes through 1, and 1 -> 2 through 0: a cycle
  via(1, 2) = 0;
  const apsp::result r(filled<std::int32_t>(3, 1), std::move(via), apsp::plan{});
  EXPECT_THROW((void)r.path(0, 2), apsp::internal_error);
  EXPECT_THROW((void)r.predecessors(), apsp::internal_error);
  // An entry outside 0..n-1 is reported, not followed; a path matrix of another size is refused.
  auto far = filled(3, apsp::no_via);
  far(0, 2) = 1000;
  const apsp::result outside(filled<std::int32_t>(3, 1), std::move(far), apsp::plan{});
  EXPECT_THROW((void)outside.predecessors(), apsp::internal_error);
  EXPECT_THROW((void)outside.path(0, 2), apsp::internal_error);
  EXPECT_THROW(apsp::result(apsp::dense_matrix<std::int32_t>(3), apsp::via_matrix(2), apsp::plan{}),
               apsp::invalid_argument_error);
}

TEST(Matrix, MovesLeaveAnEmptyMatrixAndHugeSizesAreRefused) {
  apsp::dense_matrix<double> a(4);
  apsp::dense_matrix<double> b(std::move(a));
  EXPECT_EQ(a.n(), 0); // NOLINT(bugprone-use-after-move): the state after a move is the point
  EXPECT_EQ(b.n(), 4);
  a = std::move(b);
  EXPECT_EQ(b.n(), 0); // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.n(), 4);
  EXPECT_THROW(apsp::dense_matrix<std::int32_t>(std::int64_t{1} << 32), std::bad_array_new_length);
  // Adopted storage with no owner is the caller's: never freed by the matrix.
  std::vector<float> mine(9, 1.0F);
  {
    const auto m = apsp::dense_matrix<float>::adopt(3, mine.data(), nullptr);
    EXPECT_EQ(m(2, 2), 1.0F);
  }
  EXPECT_EQ(mine[8], 1.0F);
}

TEST(ExpandViaPath, ExpandsValidMatricesAndNamesTheBadEntry) {
  apsp::via_matrix via(4);
  for (auto& v : via.values())
    v = apsp::no_via;
  via(0, 3) = 2; // 0 -> 2 -> 3, and 0 -> 2 through 1
  via(0, 2) = 1;
  EXPECT_EQ(apsp::expand_via_path(via, 0, 3), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(apsp::expand_via_path(via, 2, 2), (std::vector<std::int64_t>{2}));
  via(0, 2) = 7; // out of range
  try {
    (void)apsp::expand_via_path(via, 0, 3);
    ADD_FAILURE() << "no error for an out-of-range entry";
  } catch (const apsp::invalid_input_error& e) {
    EXPECT_NE(std::string(e.what()).find("entry [0][2] = 7"), std::string::npos) << e.what();
  }
  via(0, 2) = 3; // 0 -> 2 through 3, 3 -> 2 an edge, but 0 -> 3 through 2 again: a cycle
  EXPECT_THROW((void)apsp::expand_via_path(via, 0, 3), apsp::invalid_input_error);
  EXPECT_THROW((void)apsp::expand_via_path(via, 0, 4), apsp::invalid_argument_error);
}

TEST(SolveInFile, DistancesLiveInTheMappedFile) {
  apsp::testing::random_graph_spec spec;
  spec.n = 90;
  spec.negative_edges = true;
  const auto g = apsp::testing::make_random_graph(spec, 31);
  const auto file = std::filesystem::temp_directory_path() / "apsp_core_test_mapped.bin";
  for (dtype t : {dtype::int32, dtype::float64}) {
    auto o = reference_options(t, true);
    const auto in_ram = apsp::solve(g, o);
    o.distances_file = file;
    o.distances_file_offset = 128;
    {
      const auto mapped = apsp::solve(g, o);
      EXPECT_EQ(mapped.executed_plan().file_bytes, 128 + 90u * 90u * apsp::size_of(t));
      for (std::int64_t i = 0; i < spec.n; ++i)
        for (std::int64_t j = 0; j < spec.n; ++j)
          ASSERT_EQ(mapped.distance(i, j), in_ram.distance(i, j));
    }
    // The values are in the file, after the offset, row-major.
    EXPECT_EQ(std::filesystem::file_size(file), 128 + 90u * 90u * apsp::size_of(t));
    std::ifstream f(file, std::ios::binary);
    f.seekg(128 + static_cast<std::streamoff>((5 * 90 + 7) * apsp::size_of(t)));
    if (t == dtype::int32) {
      std::int32_t v = 0;
      f.read(reinterpret_cast<char*>(&v), sizeof v);
      EXPECT_EQ(v, in_ram.distances_as<std::int32_t>()(5, 7));
    } else {
      double v = 0;
      f.read(reinterpret_cast<char*>(&v), sizeof v);
      EXPECT_EQ(v, in_ram.distances_as<double>()(5, 7));
    }
  }
  std::filesystem::remove(file);
  auto bad = reference_options(dtype::float64);
  bad.distances_file = file;
  bad.distances_file_offset = 4; // not a multiple of 8
  EXPECT_THROW((void)apsp::solve(g, bad), apsp::invalid_argument_error);
  bad.distances_file = "/nonexistent-dir/x.bin";
  bad.distances_file_offset = 0;
  EXPECT_THROW((void)apsp::solve(g, bad), apsp::invalid_argument_error);
}

// A path file that cannot be made (bad offset, missing directory) fails the solve before the
// distances' file is touched: a user's existing file keeps its bytes.
TEST(SolveInFile, ABadPathFileLeavesTheDistancesFileAlone) {
  apsp::graph g(3);
  g.add_edge(0, 1, 2);
  g.add_edge(1, 2, 3);
  const auto file = std::filesystem::temp_directory_path() / "apsp_core_test_keep.bin";
  const std::string kept = "the user's data, not a matrix\n";
  auto o = reference_options(dtype::int32, true);
  o.distances_file = file;
  o.distances_file_offset = 128;
  for (const auto& [paths_file, offset] :
       {std::pair{std::filesystem::temp_directory_path() / "apsp_core_test_paths.bin",
                  std::uint64_t{6}},
        std::pair{std::filesystem::path("/nonexistent-dir/paths.bin"), std::uint64_t{0}}}) {
    std::ofstream(file, std::ios::binary) << kept;
    o.paths_file = paths_file;
    o.paths_file_offset = offset;
    EXPECT_THROW((void)apsp::solve(g, o), apsp::invalid_argument_error) << paths_file;
    std::ifstream in(file, std::ios::binary);
    const std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(now, kept) << paths_file;
  }
  std::filesystem::remove(file);
}

// An existing file of exactly the right size is written over in place (the CLI prefills its
// output's pages while a GPU starts): every value is the solve's, whatever was there, and the
// header bytes stay; a file of any other size is cut to the right size.
TEST(SolveInFile, ExistingFilesAreWrittenOverOrResized) {
  apsp::testing::random_graph_spec spec;
  spec.n = 60;
  spec.negative_edges = true;
  const auto g = apsp::testing::make_random_graph(spec, 41);
  const auto file = std::filesystem::temp_directory_path() / "apsp_core_test_existing.bin";
  for (auto backend : {apsp::backend_kind::reference, apsp::backend_kind::cpu}) {
    auto o = reference_options(dtype::int32, true);
    o.backend = backend;
    const auto in_ram = apsp::solve(g, o);
    o.distances_file = file;
    o.distances_file_offset = 64;
    const std::uint64_t exact = 64 + 60u * 60u * 4u;
    for (const std::uint64_t before : {exact, exact + 4096, std::uint64_t{100}}) {
      {
        std::ofstream f(file, std::ios::binary | std::ios::trunc);
        const std::string garbage(before, '\x5a');
        f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
      }
      {
        const auto mapped = apsp::solve(g, o);
        for (std::int64_t i = 0; i < spec.n; ++i)
          for (std::int64_t j = 0; j < spec.n; ++j)
            ASSERT_EQ(mapped.distance(i, j), in_ram.distance(i, j)) << "file of " << before;
      }
      EXPECT_EQ(std::filesystem::file_size(file), exact) << "file of " << before;
      std::ifstream f(file, std::ios::binary);
      char first = 0;
      f.read(&first, 1);
      // The header's bytes: kept from a file of the right size, zeros in a resized one.
      EXPECT_EQ(first, before == exact ? '\x5a' : '\0') << "file of " << before;
    }
  }
  std::filesystem::remove(file);
}

TEST(SolveInFile, PathsLiveInTheirMappedFile) {
  apsp::testing::random_graph_spec spec;
  spec.n = 70;
  const auto g = apsp::testing::make_random_graph(spec, 33);
  const auto file = std::filesystem::temp_directory_path() / "apsp_core_test_mapped_via.bin";
  for (auto backend : {apsp::backend_kind::reference, apsp::backend_kind::cpu}) {
    auto o = reference_options(dtype::int32, true);
    o.backend = backend;
    const auto in_ram = apsp::solve(g, o);
    o.paths_file = file;
    o.paths_file_offset = 64;
    {
      const auto mapped = apsp::solve(g, o);
      EXPECT_EQ(mapped.executed_plan().file_bytes, 64 + 70u * 70u * 4u);
      ASSERT_TRUE(mapped.has_paths());
      std::int64_t differ = 0;
      for (std::size_t e = 0; e < mapped.via().size(); ++e)
        differ += mapped.via().data()[e] != in_ram.via().data()[e];
      EXPECT_EQ(differ, 0);
      EXPECT_EQ(mapped.path(3, 40), in_ram.path(3, 40));
    }
    // The values are in the file, after the offset, row-major.
    EXPECT_EQ(std::filesystem::file_size(file), 64 + 70u * 70u * 4u);
    std::ifstream f(file, std::ios::binary);
    std::vector<std::int32_t> back(70u * 70u);
    f.seekg(64);
    f.read(reinterpret_cast<char*>(back.data()), static_cast<std::streamsize>(back.size() * 4));
    EXPECT_TRUE(std::equal(back.begin(), back.end(), in_ram.via().data()));
  }
  std::filesystem::remove(file);
  auto bad = reference_options(dtype::int32, true);
  bad.paths_file = file;
  bad.paths_file_offset = 2; // not a multiple of 4
  EXPECT_THROW((void)apsp::solve(g, bad), apsp::invalid_argument_error);
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(SolveInFile, AFileLargerThanTheFreeSpaceIsRefusedBeforeAnyBlockIsTaken) {
  const auto dir = std::filesystem::temp_directory_path();
  struct statvfs fs {};
  ASSERT_EQ(::statvfs(dir.c_str(), &fs), 0);
  const double free_bytes = static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
  // An int64 matrix of twice the free space (at least 2 x 2 cells).
  const auto n = std::max<std::int64_t>(2, static_cast<std::int64_t>(std::sqrt(free_bytes / 4)));
  apsp::graph g(n);
  g.add_edge(0, 1, 1);
  auto o = reference_options(dtype::int64);
  o.distances_file = dir / "apsp_core_test_no_room.bin";
  try {
    (void)apsp::solve(g, o);
    FAIL() << "a " << n << " x " << n << " int64 file was reserved with " << free_bytes
           << " bytes free";
  } catch (const apsp::out_of_memory_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("free"), std::string::npos) << what; // refused by the free-space check
    EXPECT_NE(what.find(o.distances_file.string()), std::string::npos) << what;
  }
  EXPECT_FALSE(std::filesystem::exists(o.distances_file));
}

TEST(SolveInFile, PlansLeaveTheMatrixOutOfRam) {
  auto o = reference_options(dtype::int32);
  o.backend = apsp::backend_kind::cpu;
  const std::int64_t n = 20000;
  const auto in_ram = apsp::make_plan(n, o);
  o.distances_file = "unused.bin";
  const auto in_file = apsp::make_plan(n, o);
  EXPECT_EQ(in_ram.host_bytes - in_file.host_bytes, 20000u * 20000u * 4u);
  EXPECT_EQ(in_file.file_bytes, 20000u * 20000u * 4u);
  EXPECT_EQ(in_ram.file_bytes, 0u);
  o.paths = true;
  const auto paths_in_ram = apsp::make_plan(n, o);
  o.paths_file = "unused_via.bin";
  const auto paths_in_file = apsp::make_plan(n, o);
  EXPECT_EQ(paths_in_ram.host_bytes - paths_in_file.host_bytes, 20000u * 20000u * 4u);
  EXPECT_EQ(paths_in_file.file_bytes, 2u * 20000u * 20000u * 4u);
}

TEST(Plan, ReferencePlanCountsBytes) {
  auto o = reference_options(dtype::float64, true);
  const auto p = apsp::make_plan(1000, o);
  EXPECT_EQ(p.backend, apsp::backend_kind::reference);
  EXPECT_EQ(p.host_bytes, 1000u * 1000u * (8u + 4u));
  EXPECT_TRUE(p.fits);
}

TEST(Backends, CudaIsListedAndHonestAboutAvailability) {
  bool found = false;
  for (const auto& s : apsp::list_backends()) {
    if (s.kind != apsp::backend_kind::cuda)
      continue;
    found = true;
    if (!s.available) {
      EXPECT_FALSE(s.detail.empty());
      apsp::graph g(2);
      apsp::solve_options o;
      o.backend = apsp::backend_kind::cuda;
      EXPECT_THROW((void)apsp::solve(g, o), apsp::backend_unavailable_error);
    }
  }
  EXPECT_TRUE(found);
}

TEST(Backends, ReleaseDevicesLeavesTheOtherBackEndsWorking) {
  // Whether or not this machine has a GPU: releasing (twice) between solves changes nothing
  // for the host back ends (tests/cuda covers the contexts themselves).
  apsp::graph g(3);
  g.add_edge(0, 1, 4);
  g.add_edge(1, 2, 5);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  apsp::release_devices();
  const auto first = apsp::solve(g, o);
  apsp::release_devices();
  apsp::release_devices();
  const auto again = apsp::solve(g, o);
  EXPECT_EQ(first.distance(0, 2), 9);
  EXPECT_EQ(again.distance(0, 2), 9);
  EXPECT_FALSE(again.reachable(2, 0));
}

// What no back end can take is refused before any work, whichever back end is chosen.
TEST(SolveOptions, RefusedAlikeOnEveryBackEnd) {
  apsp::graph g(3);
  g.add_edge(0, 1, 2);
  g.add_edge(1, 2, 3);
  for (const auto backend : {apsp::backend_kind::reference, apsp::backend_kind::cpu}) {
    apsp::solve_options o;
    o.backend = backend;
    o.block = -1;
    EXPECT_THROW((void)apsp::solve(g, o), apsp::invalid_argument_error);
    o.block = 0;
    o.checkpoint_every_seconds = -1;
    EXPECT_THROW((void)apsp::make_plan(3, o), apsp::invalid_argument_error);
    o.checkpoint_every_seconds = 600;
    o.paths_file = std::filesystem::temp_directory_path() / "apsp_never_written.bin";
    EXPECT_THROW((void)apsp::solve(g, o), apsp::invalid_argument_error); // without paths
    EXPECT_FALSE(std::filesystem::exists(o.paths_file));
    o.paths = true;
    o.distances_file = o.paths_file.parent_path() / "." / o.paths_file.filename();
    EXPECT_THROW((void)apsp::solve(g, o), apsp::invalid_argument_error); // one file for both
    EXPECT_FALSE(std::filesystem::exists(o.paths_file));
  }
}

TEST(SolveDense, EntriesThatAreNeitherWeightsNorNoPathAreRefused) {
  const auto refused = [](auto bad, dtype type) {
    using T = decltype(bad);
    apsp::dense_matrix<T> m(3);
    for (auto& v : m.values())
      v = apsp::weight_traits<T>::infinity;
    m(0, 1) = bad;
    apsp::solve_options o;
    o.type = type;
    o.backend = apsp::backend_kind::cpu;
    EXPECT_THROW((void)apsp::solve_dense(std::move(m), o), apsp::invalid_input_error);
  };
  refused(std::numeric_limits<double>::quiet_NaN(), dtype::float64);
  refused(-std::numeric_limits<float>::infinity(), dtype::float32);
  refused(std::numeric_limits<std::int32_t>::max(), dtype::int32);
  refused(std::numeric_limits<std::int64_t>::max(), dtype::int64);
}

TEST(Overflow, LargeWeightsAreRefusedNotWrapped) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.type = dtype::int32;
  apsp::graph one(1); // no paths, but a negative self-loop's weight is still cast to int32
  one.add_edge(0, 0, -5e9);
  EXPECT_THROW((void)apsp::solve(one, o), apsp::overflow_risk_error);
  apsp::graph heavy(2); // the heaviest parallel edge is the one a path takes: refused
  heavy.add_edge(0, 1, 1);
  heavy.add_edge(1, 0, 2e9);
  heavy.add_edge(1, 0, 3e9);
  EXPECT_THROW((void)apsp::solve(heavy, o), apsp::overflow_risk_error);
  apsp::graph far(3); // float32 sums beyond its largest value would read as no path
  far.add_edge(0, 1, 3e38);
  far.add_edge(1, 2, 3e38);
  o.type = dtype::float32;
  EXPECT_THROW((void)apsp::solve(far, o), apsp::overflow_risk_error);
  o.type = dtype::float64;
  EXPECT_DOUBLE_EQ(apsp::solve(far, o).distance(0, 2), 6e38);
  apsp::graph huge(3); // float64 sums past its largest value would read as no path, or NaN
  huge.add_edge(0, 1, 1e308);
  huge.add_edge(1, 2, 1e308);
  EXPECT_THROW((void)apsp::solve(huge, o), apsp::overflow_risk_error);
}

TEST(Overflow, WeightsNoPathTakesAreNotCounted) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.type = dtype::int32;
  apsp::graph one(1); // a positive self-loop leaves d[0][0] = 0, whatever its weight
  one.add_edge(0, 0, 5e9);
  EXPECT_EQ(apsp::solve(one, o).distance(0, 0), 0);
  // The bound takes each vertex's heaviest out-edge once, the lightest of parallel edges, and
  // no positive self-loop: here 3 * 3.5e8 = 1.05e9, just below int32's no-path value 1073741823,
  // where any parallel or self-loop weight counted would add 1e12.
  apsp::graph g(4);
  for (int v = 0; v < 3; ++v) {
    g.add_edge(v, v + 1, 3.5e8);
    g.add_edge(v, v + 1, 1e12);
    g.add_edge(v + 1, v, 3.5e8 - 1);
    g.add_edge(v + 1, v + 1, 1e12);
  }
  const auto facts = apsp::detail::analyze_weights(g, dtype::int32, false);
  EXPECT_EQ(facts.distance_bound, 10.5e8);
  const auto r = apsp::solve(g, o);
  EXPECT_EQ(r.distance(0, 3), 10.5e8);
  EXPECT_EQ(r.distance(3, 0), 10.5e8 - 3);
  EXPECT_EQ(r.distance(2, 2), 0);
  const auto usable = apsp::detail::usable_edges(g, dtype::int32);
  ASSERT_TRUE(usable.has_value());
  EXPECT_EQ(usable->num_edges(), 6);
  EXPECT_FALSE(apsp::detail::usable_edges(g, dtype::float64).has_value());
}

TEST(Overflow, DenseMatricesBoundEachRowOnce) {
  // Row 0 holds 1e9 - 20 (a path leaves vertex 0 once), the other rows 1: the bound is
  // 1e9 - 20 + 18, below int32's no-path value, where (n - 1) * max|w| would be 1.9e10. A
  // second row of 1e8 makes it 1.08e9 and more: refused.
  const std::int64_t n = 20;
  const auto matrix = [n](bool second_heavy_row) {
    apsp::dense_matrix<std::int32_t> m(n);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        m(i, j) =
            i == j ? 0
                   : (i == 0 ? 1'000'000'000 - 20 : (i == 1 && second_heavy_row ? 100'000'000 : 1));
    return m;
  };
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  const auto r = apsp::solve_dense(matrix(false), o);
  EXPECT_EQ(r.distance(0, 5), 1'000'000'000 - 20);
  EXPECT_EQ(r.distance(5, 0), 1);
  EXPECT_THROW((void)apsp::solve_dense(matrix(true), o), apsp::overflow_risk_error);
}

TEST(Threads, TheWholeSolveKeepsToTheThreadsAsked) {
  // Checks, fills and the back end alike: the OpenMP regions the solve starts in the calling
  // thread (seen from its progress callback) have at most `threads` threads; the caller's
  // setting is back afterwards.
  apsp::testing::random_graph_spec spec;
  spec.n = 300;
  const auto g = apsp::testing::make_random_graph(spec, 5);
  const int before = omp_get_max_threads();
  for (const auto backend : {apsp::backend_kind::reference, apsp::backend_kind::cpu}) {
    apsp::solve_options o;
    o.backend = backend;
    o.threads = 1;
    int seen = 0;
    o.progress = [&seen](const apsp::progress_info&) {
      seen = std::max(seen, omp_get_max_threads());
      return true;
    };
    (void)apsp::solve(g, o);
    EXPECT_EQ(seen, 1);
    EXPECT_EQ(omp_get_max_threads(), before);
  }
}

TEST(Plans, AbsurdSizesSaturateAndDoNotFit) {
  for (const auto backend : {apsp::backend_kind::reference, apsp::backend_kind::cpu}) {
    apsp::solve_options o;
    o.backend = backend;
    o.type = dtype::int64;
    o.paths = true;
    const apsp::plan p = apsp::make_plan(std::int64_t{2147483647}, o);
    EXPECT_EQ(p.host_bytes, std::numeric_limits<std::uint64_t>::max());
    EXPECT_FALSE(p.fits);
  }
}

TEST(WriteGraph, WeightsTheReadersRefuseAreNotWritten) {
  apsp::io::graph_file f;
  f.g = apsp::graph(2);
  f.g.add_edge(0, 1, 1e300);
  const auto target = std::filesystem::temp_directory_path() / "apsp_big_weight.gr";
  EXPECT_THROW(apsp::io::write_graph(target, f, apsp::io::format::dimacs),
               apsp::invalid_argument_error);
  EXPECT_FALSE(std::filesystem::exists(target));
}


namespace plan_contract {

// The plan is the contract (apsp/plan.hpp): solve(g, plan, options) runs the plan it is given,
// with the same distances as solve(g, options), and refuses a plan made for another problem.
std::vector<apsp::solve_options> engines() {
  std::vector<apsp::solve_options> out;
  for (auto algorithm : {apsp::algorithm_kind::floyd_warshall, apsp::algorithm_kind::johnson,
                         apsp::algorithm_kind::supernodal}) {
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    o.algorithm = algorithm;
    o.threads = 2;
    out.push_back(o);
  }
  out.push_back(reference_options());
  return out;
}

TEST(PlanContract, SolveRunsThePlanItIsGiven) {
  apsp::testing::random_graph_spec spec;
  spec.n = 61;
  spec.density = 0.08;
  const apsp::graph g = apsp::testing::make_random_graph(spec, 7);
  const apsp::result oracle = apsp::solve(g, reference_options());
  for (const apsp::solve_options& o : engines()) {
    const apsp::plan p = apsp::make_plan(g, o);
    const apsp::result r = apsp::solve(g, p, o);
    EXPECT_EQ(apsp::to_string(r.executed_plan().run), apsp::to_string(p.run));
    EXPECT_EQ(r.executed_plan().block, p.block);
    EXPECT_TRUE(std::equal(r.distances_as<std::int32_t>().data(),
                           r.distances_as<std::int32_t>().data() + 61 * 61,
                           oracle.distances_as<std::int32_t>().data()))
        << apsp::to_string(p.run);
    if (o.algorithm == apsp::algorithm_kind::supernodal) {
      // The analysis made while planning travels in the plan, for the solve to use.
      const auto* s = std::get_if<apsp::drivers::supernodal>(&p.run);
      ASSERT_NE(s, nullptr);
      EXPECT_NE(s->analysis, nullptr);
    }
  }
}

TEST(PlanContract, APlanForAnotherProblemIsRefused) {
  apsp::testing::random_graph_spec spec;
  spec.n = 20;
  const apsp::graph g = apsp::testing::make_random_graph(spec, 3);
  apsp::testing::random_graph_spec other = spec;
  other.n = 21;
  const apsp::graph h = apsp::testing::make_random_graph(other, 3);
  apsp::solve_options o = engines().front();
  const apsp::plan for_h = apsp::make_plan(h, o);
  EXPECT_THROW((void)apsp::solve(g, for_h, o), apsp::invalid_argument_error);
  apsp::solve_options with_paths = o;
  with_paths.paths = true;
  EXPECT_THROW((void)apsp::solve(g, apsp::make_plan(g, o), with_paths),
               apsp::invalid_argument_error);
  apsp::plan unplanned; // no driver
  unplanned.n = g.num_vertices();
  unplanned.type = o.type;
  EXPECT_THROW((void)apsp::solve(g, unplanned, o), apsp::invalid_argument_error);
  apsp::plan too_big = apsp::make_plan(g, o);
  too_big.fits = false;
  too_big.reason = "made up";
  EXPECT_THROW((void)apsp::solve(g, too_big, o), apsp::out_of_memory_error);
}

} // namespace plan_contract

} // namespace

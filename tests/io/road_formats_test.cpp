// Road data as people have it: TransportationNetworks `_net.tntp` (metadata, `~` comments,
// links ended by `;`, the weight column chosen by name, a second column), and CSV edge lists
// with named endpoint columns (source/target, u/v, or chosen) and a oneway column as OSMnx,
// pyrosm and QGIS export them; the errors of each.

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;
using apsp::io::read_options;

TEST(ReadTntp, LinksWithFreeFlowTimeByDefault) {
  const auto f = read_graph(test_data("tiny_net.tntp"));
  EXPECT_EQ(f.source_format, format::tntp);
  ASSERT_EQ(f.g.num_vertices(), 5);
  EXPECT_EQ(f.labels.label(0), "1");
  const std::vector<edge> want = {{0, 1, 6}, {0, 2, 4}, {1, 0, 6}, {1, 3, 9},
                                  {2, 3, 4}, {3, 4, 3}, {4, 0, 2}}; // edges_by_index sorts
  EXPECT_EQ(edges_by_index(f.g), want);
  EXPECT_TRUE(f.second.empty());
}

TEST(ReadTntp, ChosenWeightAndSecondColumns) {
  read_options o;
  o.weight_column = "Length";
  o.second_column = "free flow time";
  const auto f = read_graph(test_data("tiny_net.tntp"), o);
  EXPECT_EQ(f.g.weights(), (std::vector<double>{6, 6, 4, 5, 5, 2, 8}));
  EXPECT_EQ(f.second, (std::vector<double>{6, 6, 4, 4, 9, 3, 2}));
  o.weight_column = "capacity";
  o.second_column.clear();
  EXPECT_DOUBLE_EQ(read_graph(test_data("tiny_net.tntp"), o).g.weights()[0], 25900.2);
  o.undirected = true;
  o.weight_column = "weight";
  o.second_column = "length";
  const auto both = read_graph(test_data("tiny_net.tntp"), o);
  EXPECT_EQ(both.g.num_edges(), 14);
  EXPECT_EQ(both.second.size(), 14u);
}

TEST(ReadTntp, Errors) {
  scratch_dir dir;
  const auto p = dir / "bad_net.tntp";
  const std::string head = "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<END OF METADATA>\n";
  write_bytes(p, head + "1 2 10 1 1 ;\n2 4 10 1 1 ;\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"line 5"});
  write_bytes(p, head + "1 2 10 1 1 ;\n2 3 10 1 1\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"line 5", "';'"});
  write_bytes(p, head + "1 2 10 1 1 ;\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"says 2", "1 link"});
  write_bytes(p, "<NUMBER OF NODES> 3\n1 2 10 1 1 ;\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"END OF METADATA"});
  write_bytes(p, head + "1 2 10 1 ;\n2 3 10 1 1 ;\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"line 4", "at least 5"});
  read_options o;
  o.weight_column = "lenght";
  write_bytes(p, head + "1 2 10 1 1 ;\n2 3 10 1 1 ;\n");
  expect_input_error([&] { (void)read_graph(p, o); }, p, {"'lenght'"});
  EXPECT_EQ(read_graph(p).g.num_edges(), 2);
}

TEST(ReadCsv, OsmnxColumnsAndOneway) {
  read_options o;
  o.weight_column = "travel_time";
  o.second_column = "length";
  o.oneway_column = "oneway";
  const auto f = read_graph(test_data("osm_edges.csv"), o);
  ASSERT_EQ(f.g.num_vertices(), 4); // 101 102 103 104
  // 101-102 both ways; 102 -> 103 only; 103 -> 101 reversed (-1): 101 -> 103; 103-104 both.
  const std::vector<edge> want = {{0, 1, 9}, {0, 2, 20}, {1, 0, 9},
                                  {1, 2, 6}, {2, 3, 3},  {3, 2, 3}}; // sorted
  EXPECT_EQ(edges_by_index(f.g), want);
  EXPECT_EQ(f.second, (std::vector<double>{120.5, 120.5, 80.25, 200, 50, 50}));
  // Without the oneway column each row is one arc u -> v, found by the header's u and v.
  o.oneway_column.clear();
  EXPECT_EQ(read_graph(test_data("osm_edges.csv"), o).g.num_edges(), 4);
}

TEST(ReadCsv, NamedEndpointColumns) {
  scratch_dir dir;
  const auto p = dir / "named.csv";
  write_bytes(p, "id,cost,to,from\n7,2.5,b,a\n8,1,c,b\n");
  read_options o;
  o.source_column = "from";
  o.target_column = "to";
  o.weight_column = "cost";
  const auto f = read_graph(p, o);
  ASSERT_EQ(f.g.num_vertices(), 3);
  EXPECT_EQ(f.labels.label(0), "a");
  EXPECT_EQ(edges_by_index(f.g), (std::vector<edge>{{0, 1, 2.5}, {1, 2, 1}}));
  write_bytes(p, "weight,target,source\n4,y,x\n");
  const auto auto_named = read_graph(p);
  EXPECT_EQ(auto_named.labels.label(static_cast<std::int64_t>(auto_named.g.sources()[0])), "x");
  EXPECT_EQ(auto_named.g.weights()[0], 4);
  o.source_column = "frm";
  expect_input_error([&] { (void)read_graph(p, o); }, p, {"'frm'"});
  o.source_column.clear();
  expect_input_error([&] { (void)read_graph(p, o); }, p, {"both endpoint columns"});
  read_options w;
  w.oneway_column = "oneway";
  expect_input_error([&] { (void)read_graph(p, w); }, p, {"no oneway column"});
  write_bytes(p, "u,v,oneway\na,b,maybe\n");
  expect_input_error([&] { (void)read_graph(p, w); }, p, {"line 2", "'maybe'"});
}

TEST(ReadTntp, IsReadOnly) {
  scratch_dir dir;
  const auto f = read_graph(test_data("tiny_net.tntp"));
  EXPECT_THROW(apsp::io::write_graph(dir / "out.tntp", f, format::tntp),
               apsp::invalid_argument_error);
}

} // namespace

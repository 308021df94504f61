// Format names, suffix detection and vertex labels.

#include <gtest/gtest.h>

#include "io_test_util.hpp"

namespace {

using apsp::io::format;
using apsp::io::format_from_path;
using apsp::io::vertex_labels;

TEST(FormatNames, RoundTripThroughParse) {
  for (format f : {format::dimacs, format::mtx, format::edgelist, format::csv,
                   format::course_binary, format::npy}) {
    EXPECT_EQ(apsp::io::parse_format(apsp::io::to_string(f)), f);
  }
  EXPECT_EQ(apsp::io::to_string(format::course_binary), "course-binary");
  EXPECT_THROW((void)apsp::io::parse_format("xml"), apsp::invalid_argument_error);
}

TEST(FormatNames, SuffixTable) {
  EXPECT_EQ(format_from_path("a/rome99.gr"), format::dimacs);
  EXPECT_EQ(format_from_path("x.mtx"), format::mtx);
  EXPECT_EQ(format_from_path("x.MTX"), format::mtx);
  for (const char* s : {"x.txt", "x.el", "x.wel", "x.edges"}) {
    EXPECT_EQ(format_from_path(s), format::edgelist) << s;
  }
  EXPECT_EQ(format_from_path("x.csv"), format::csv);
  EXPECT_EQ(format_from_path("edgelist.csv.gz"), format::csv);
  EXPECT_EQ(format_from_path("x.gr.gz"), format::dimacs);
  EXPECT_EQ(format_from_path("x.bin"), format::course_binary);
  EXPECT_EQ(format_from_path("x.course"), format::course_binary);
  EXPECT_EQ(format_from_path("x.npy"), format::npy);
  EXPECT_EQ(format_from_path("x.npy.gz"), std::nullopt); // binary formats are never gzipped
  EXPECT_EQ(format_from_path("x.json"), std::nullopt);
  EXPECT_EQ(format_from_path("noext"), std::nullopt);
  EXPECT_EQ(format_from_path(".gr"), std::nullopt);
}

TEST(VertexLabels, NumericWithBase) {
  const auto l = vertex_labels::numeric(5, 1);
  EXPECT_TRUE(l.is_numeric());
  EXPECT_EQ(l.size(), 5);
  EXPECT_EQ(l.label(0), "1");
  EXPECT_EQ(l.label(4), "5");
  EXPECT_EQ(l.find("1"), 0);
  EXPECT_EQ(l.find("5"), 4);
  EXPECT_EQ(l.find("0"), std::nullopt);
  EXPECT_EQ(l.find("6"), std::nullopt);
  EXPECT_EQ(l.find("x"), std::nullopt);
  EXPECT_EQ(l.find("-9223372036854775808"), std::nullopt);
  EXPECT_THROW((void)l.label(5), apsp::invalid_argument_error);
}

TEST(VertexLabels, SortedNamesUseBinarySearch) {
  const auto l = vertex_labels::named({"ADAL", "ADAR", "AVAL", "M1"});
  EXPECT_FALSE(l.is_numeric());
  EXPECT_EQ(l.find("ADAL"), 0);
  EXPECT_EQ(l.find("AVAL"), 2);
  EXPECT_EQ(l.find("M1"), 3);
  EXPECT_EQ(l.find("ADA"), std::nullopt);
  EXPECT_EQ(l.find("ZZZ"), std::nullopt);
  EXPECT_EQ(l.label(1), "ADAR");
}

TEST(VertexLabels, NumericOrderNamesAndCanonicalIds) {
  // Edge-list ids are kept in numeric order, which is not byte order.
  const auto l = vertex_labels::named({"-5", "7", "100", "1000000000000"}, true);
  EXPECT_EQ(l.find("-5"), 0);
  EXPECT_EQ(l.find("7"), 1);
  EXPECT_EQ(l.find("100"), 2);
  EXPECT_EQ(l.find("1000000000000"), 3);
  EXPECT_EQ(l.find("007"), 1);
  EXPECT_EQ(l.find("+100"), 2);
  EXPECT_EQ(l.find("8"), std::nullopt);
}

TEST(VertexLabels, CsvNamesAreFoundOnlyAsWritten) {
  // CSV ids are strings: "02139" is not the vertex "2139", nor "+7" the vertex "7".
  const auto l = vertex_labels::named({"2139", "7", "99"});
  EXPECT_EQ(l.find("2139"), 0);
  EXPECT_EQ(l.find("02139"), std::nullopt);
  EXPECT_EQ(l.find("+7"), std::nullopt);
  EXPECT_EQ(l.find("007"), std::nullopt);
}

TEST(VertexLabels, DuplicateNamesAreRejected) {
  EXPECT_THROW((void)vertex_labels::named({"b", "a", "b"}), apsp::invalid_argument_error);
  EXPECT_THROW((void)vertex_labels::named({"a", "a"}), apsp::invalid_argument_error);
}

TEST(VertexLabels, FindIsFastOnLargeLabelSets) {
  std::vector<std::string> names;
  for (int i = 0; i < 200000; ++i)
    names.push_back(std::to_string(i * 3)); // numeric order
  const auto l = vertex_labels::named(names);
  for (int i = 0; i < 200000; i += 997) {
    ASSERT_EQ(l.find(std::to_string(i * 3)), i);
    ASSERT_EQ(l.find(std::to_string(i * 3 + 1)), std::nullopt);
  }
}

} // namespace

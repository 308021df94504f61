// CSV edge lists: a header row, the endpoints (any strings) in the columns read_options names,
// else `source,target` or `u,v` (OSMnx, pyrosm), else the first two; the weight in the column
// named by read_options::weight_column when the header has it (else every weight is 1), a
// second weight from read_options::second_column when asked, and each row one way or both as
// read_options::oneway_column says. Ids are
// remapped to 0..n-1 in byte-string order, so a file's internal numbering does not depend on
// row order (and matches Python's sorted() on str).

#include <algorithm>
#include <cctype>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/csv_records.hpp"
#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {
namespace {

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

/// The index of the column named `name` in `header`, or `header.size()`.
std::size_t find_column(const std::vector<std::string>& header, std::string_view name) {
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (trim(header[c]) == name)
      return c;
  }
  return header.size();
}

/// The endpoint columns: as named, else source/target, else u/v, else the first two.
std::pair<std::size_t, std::size_t> endpoint_columns(const std::filesystem::path& p,
                                                     std::int64_t line,
                                                     const std::vector<std::string>& header,
                                                     const read_options& o) {
  const std::size_t absent = header.size();
  if (!o.source_column.empty() || !o.target_column.empty()) {
    const std::size_t s = find_column(header, o.source_column);
    const std::size_t t = find_column(header, o.target_column);
    if (o.source_column.empty() || o.target_column.empty())
      fail_line(p, line, "name both endpoint columns (source and target), or neither");
    if (s == absent || t == absent) {
      fail_line(p, line,
                "no endpoint column " +
                    quote_token(s == absent ? o.source_column : o.target_column));
    }
    return {s, t};
  }
  for (const auto& [a, b] :
       {std::pair<std::string_view, std::string_view>{"source", "target"}, {"u", "v"}}) {
    const std::size_t s = find_column(header, a);
    const std::size_t t = find_column(header, b);
    if (s != absent && t != absent)
      return {s, t};
  }
  return {0, 1};
}

enum class direction { forward, both, backward };

direction oneway_value(std::string_view cell, const std::filesystem::path& p, std::int64_t at) {
  std::string v;
  for (const char c : cell)
    v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (v == "true" || v == "yes" || v == "1" || v == "t" || v == "y")
    return direction::forward;
  if (v.empty() || v == "false" || v == "no" || v == "0" || v == "f" || v == "n")
    return direction::both;
  if (v == "-1" || v == "reverse" || v == "reversed")
    return direction::backward;
  fail_line(p, at,
            "oneway value " + quote_token(cell) +
                " is not one of true/yes/1, false/no/0 (or empty), -1/reverse");
}

} // namespace

graph_file read_csv(const std::filesystem::path& p, std::string_view text, const read_options& o,
                    std::int64_t limit) {
  const std::string& weight_column = o.weight_column;
  const std::string& second_column = o.second_column;
  if (text.empty())
    fail_line(p, 1, "empty file (expected a CSV header row)");
  csv_records records(text, p);
  std::vector<std::string> fields;
  if (!records.next(fields))
    fail_line(p, 1, "missing header row");
  const std::int64_t header_line = records.line();
  if (fields.size() < 2) {
    fail_line(p, header_line,
              "header has " + std::to_string(fields.size()) +
                  " column(s); the first two must be the endpoints");
  }
  const std::size_t columns = fields.size();
  const auto endpoints = endpoint_columns(p, header_line, fields, o);
  const auto [source_index, target_index] = endpoints;
  // (a lambda captures the pair, not the bindings: clang's C++20 refuses those)
  const auto endpoint = [&endpoints](std::size_t c) {
    return c == endpoints.first || c == endpoints.second;
  };
  std::size_t weight_index = columns; // columns = absent
  std::size_t second_index = columns;
  for (std::size_t c = 0; c < columns; ++c) {
    if (!endpoint(c) && trim(fields[c]) == weight_column)
      weight_index = c;
    if (!endpoint(c) && !second_column.empty() && trim(fields[c]) == second_column)
      second_index = c;
  }
  if (weight_index == columns && find_column(fields, weight_column) != columns) {
    fail_line(p, header_line,
              "weight column " + quote_token(weight_column) +
                  " cannot be one of the endpoint columns");
  }
  if (!second_column.empty() && second_index == columns) {
    fail_line(p, header_line,
              "no column " + quote_token(second_column) +
                  " for the second weight among the columns after the endpoints");
  }
  const std::size_t oneway_index =
      o.oneway_column.empty() ? columns : find_column(fields, o.oneway_column);
  if (!o.oneway_column.empty() && oneway_index == columns)
    fail_line(p, header_line, "no oneway column " + quote_token(o.oneway_column));

  // First-seen ids, renumbered to sorted order once all are known.
  std::unordered_map<std::string, std::int32_t> first_seen;
  std::vector<std::string> names;
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;
  std::vector<double> second;
  const auto intern = [&](std::string& id, std::int64_t at) {
    if (id.empty())
      fail_line(p, at, "empty vertex id");
    auto [it, inserted] = first_seen.try_emplace(id, static_cast<std::int32_t>(names.size()));
    if (inserted) {
      if (static_cast<std::int64_t>(names.size()) == limit) {
        fail_line(p, at, "more than " + std::to_string(limit) + " distinct vertex ids");
      }
      names.push_back(id);
    }
    return it->second;
  };
  while (records.next(fields)) {
    const std::int64_t at = records.line();
    if (fields.size() != columns) {
      fail_line(p, at,
                "row has " + std::to_string(fields.size()) + " field(s) but the header has " +
                    std::to_string(columns));
    }
    const std::int32_t from = intern(fields[source_index], at);
    const std::int32_t to = intern(fields[target_index], at);
    double w = 1.0;
    if (weight_index != columns) {
      const std::string_view cell = trim(fields[weight_index]);
      if (cell.empty())
        fail_line(p, at, "empty " + quote_token(weight_column) + " cell");
      w = parse_weight(cell, p, at);
    }
    double l = 0.0;
    if (second_index != columns) {
      const std::string_view cell = trim(fields[second_index]);
      if (cell.empty())
        fail_line(p, at, "empty " + quote_token(second_column) + " cell");
      l = parse_weight(cell, p, at);
    }
    const direction way = oneway_index == columns ? direction::forward
                                                  : oneway_value(trim(fields[oneway_index]), p, at);
    const auto add = [&](std::int32_t a, std::int32_t b) {
      src.push_back(a);
      dst.push_back(b);
      weight.push_back(w);
      if (second_index != columns)
        second.push_back(l);
    };
    if (way != direction::backward)
      add(from, to);
    if (way == direction::backward || (way == direction::both && from != to))
      add(to, from);
  }
  if (src.empty())
    fail_line(p, header_line, "no edges after the header row");

  std::vector<std::int32_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return names[a] < names[b]; });
  std::vector<std::int32_t> rank(names.size());
  for (std::size_t r = 0; r < order.size(); ++r)
    rank[order[r]] = static_cast<std::int32_t>(r);
  for (std::size_t e = 0; e < src.size(); ++e) {
    src[e] = rank[src[e]];
    dst[e] = rank[dst[e]];
  }
  std::vector<std::string> sorted_names(names.size());
  for (std::size_t r = 0; r < order.size(); ++r)
    sorted_names[r] = std::move(names[order[r]]);

  const auto n = static_cast<std::int64_t>(sorted_names.size());
  graph_file out{graph(n), vertex_labels::named(std::move(sorted_names)), format::csv, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  out.second = std::move(second);
  return out;
}

} // namespace apsp::io::detail

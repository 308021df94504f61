#include "vertex_lists.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <numeric>

#include "apsp/error.hpp"

namespace apsp::cli {
namespace {

/// The words of `line` up to a '#', split at whitespace and commas.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : line.substr(0, line.find('#'))) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (!word.empty())
        out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty())
    out.push_back(std::move(word));
  return out;
}

/// Calls take(line_number, words) for each line of `path` that holds a word.
template <class Take>
void for_each_line(const std::string& path, const std::string& what, Take take) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw invalid_argument_error("cannot read " + what + " file '" + path +
                                 "': " + std::strerror(errno));
  }
  std::string line;
  for (std::int64_t number = 1; std::getline(file, line); ++number) {
    const auto w = words(line);
    if (!w.empty())
      take(number, w);
  }
  if (file.bad())
    throw invalid_argument_error("cannot read " + what + " file '" + path + "'");
}

} // namespace

std::vector<written_id> read_id_list(const std::string& value, const std::string& option) {
  std::vector<written_id> ids;
  if (value.starts_with('@')) {
    const std::string path = value.substr(1);
    for_each_line(path, option, [&](std::int64_t line, const std::vector<std::string>& w) {
      for (const std::string& id : w)
        ids.push_back({id, "line " + std::to_string(line) + " of " + path});
    });
    if (ids.empty())
      throw invalid_argument_error(option + " file '" + path + "' names no vertex");
    return ids;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string id = value.substr(start, comma - start);
    if (id.empty()) {
      throw invalid_argument_error(option + " '" + value +
                                   "' has an empty entry: give vertex ids separated by commas, "
                                   "or @FILE");
    }
    ids.push_back({id, option});
    if (comma == std::string::npos)
      return ids;
    start = comma + 1;
  }
}

std::vector<std::pair<written_id, written_id>> read_pairs(const std::string& path) {
  std::vector<std::pair<written_id, written_id>> pairs;
  for_each_line(path, "--pairs", [&](std::int64_t line, const std::vector<std::string>& w) {
    const std::string where = "line " + std::to_string(line) + " of " + path;
    if (w.size() != 2) {
      throw invalid_argument_error(where + ": expected two vertex ids (SRC DST), found " +
                                   std::to_string(w.size()));
    }
    pairs.push_back({{w[0], where}, {w[1], where}});
  });
  if (pairs.empty())
    throw invalid_argument_error("--pairs file '" + path + "' holds no pair");
  return pairs;
}

std::vector<std::int64_t> find_vertices(const loaded_graph& in,
                                        const std::vector<written_id>& ids) {
  std::vector<std::int64_t> out;
  out.reserve(ids.size());
  for (const written_id& w : ids) {
    try {
      out.push_back(find_vertex(in, w.id));
    } catch (const invalid_argument_error& e) {
      throw invalid_argument_error(w.where + ": " + e.what());
    }
  }
  return out;
}

std::vector<std::int64_t> every_vertex(std::int64_t n) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), std::int64_t{0});
  return all;
}

} // namespace apsp::cli

#include <algorithm>
#include <cctype>
#include <string>

#include "apsp/error.hpp"
#include "apsp/io.hpp"

namespace apsp::io {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

std::string_view to_string(format f) noexcept {
  switch (f) {
  case format::dimacs:
    return "dimacs";
  case format::mtx:
    return "mtx";
  case format::edgelist:
    return "edgelist";
  case format::csv:
    return "csv";
  case format::course_binary:
    return "course-binary";
  case format::npy:
    return "npy";
  case format::tntp:
    return "tntp";
  }
  return "?";
}

format parse_format(std::string_view name) {
  for (format f : {format::dimacs, format::mtx, format::edgelist, format::csv,
                   format::course_binary, format::npy, format::tntp}) {
    if (name == to_string(f))
      return f;
  }
  throw invalid_argument_error(
      "unknown format '" + std::string(name) +
      "' (expected dimacs, mtx, edgelist, csv, course-binary, npy or tntp)");
}

std::optional<format> format_from_path(const std::filesystem::path& p) {
  std::string name = p.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  bool gz = false;
  if (ends_with(name, ".gz")) {
    name.resize(name.size() - 3);
    gz = true;
  }
  struct suffix_format {
    std::string_view suffix;
    format f;
    bool text;
  };
  static constexpr suffix_format table[] = {
      {".gr", format::dimacs, true},
      {".mtx", format::mtx, true},
      {".txt", format::edgelist, true},
      {".el", format::edgelist, true},
      {".wel", format::edgelist, true},
      {".edges", format::edgelist, true},
      {".csv", format::csv, true},
      {".bin", format::course_binary, false},
      {".course", format::course_binary, false},
      {".npy", format::npy, false},
      {".tntp", format::tntp, true},
  };
  for (const auto& entry : table) {
    // A stem is required: a file named just ".gr" has no suffix.
    if (name.size() > entry.suffix.size() && ends_with(name, entry.suffix)) {
      if (gz && !entry.text)
        return std::nullopt;
      return entry.f;
    }
  }
  return std::nullopt;
}

} // namespace apsp::io

#include "command_line.hpp"

#include <string_view>
#include <vector>

namespace apsp::cli {
namespace {

std::vector<std::string>& arguments() {
  static std::vector<std::string> args;
  return args;
}

/// `word` as a POSIX shell reads it back: bare when it has no special characters, else in
/// single quotes (a quote inside as '\'').
std::string shell_quoted(std::string_view word) {
  constexpr std::string_view plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_-+=.,:/@%";
  if (!word.empty() && word.find_first_not_of(plain) == std::string_view::npos)
    return std::string(word);
  std::string out = "'";
  for (const char c : word)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

} // namespace

void remember_command_line(int argc, const char* const* argv) {
  arguments().assign(argv, argv + argc);
}

std::string resume_command(const std::string& dir) {
  const std::vector<std::string>& args = arguments();
  std::string out;
  const auto add = [&out](std::string_view word) {
    if (!out.empty())
      out += ' ';
    out += shell_quoted(word);
  };
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a == "--checkpoint" || a == "--resume") {
      ++k; // and its value
      continue;
    }
    if (a.rfind("--checkpoint=", 0) == 0 || a.rfind("--resume=", 0) == 0)
      continue;
    add(a);
  }
  add("--resume");
  add(dir);
  return out;
}

} // namespace apsp::cli

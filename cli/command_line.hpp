#pragma once
// The command line apsp was started with, for messages that give the command to run next.

#include <string>

namespace apsp::cli {

/// Keeps argv (main calls it first).
void remember_command_line(int argc, const char* const* argv);

/// The command line again, quoted for a POSIX shell, that continues from the checkpoint in
/// `dir`: every --checkpoint and --resume option (with its value) replaced by `--resume dir`.
[[nodiscard]] std::string resume_command(const std::string& dir);

} // namespace apsp::cli

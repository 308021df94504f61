#pragma once
// One registration function per subcommand. Each adds its subcommand to `app` and, when that
// subcommand is the one parsed, stores in `action` the work to run after parsing succeeds.

#include <functional>

#include <CLI/CLI.hpp>

namespace apsp::cli {

using command_action = std::function<int()>;

void add_solve_command(CLI::App& app, command_action& action);
void add_path_command(CLI::App& app, command_action& action);
void add_paths_command(CLI::App& app, command_action& action);
void add_info_command(CLI::App& app, command_action& action);
void add_convert_command(CLI::App& app, command_action& action);
void add_verify_command(CLI::App& app, command_action& action);
void add_metrics_command(CLI::App& app, command_action& action);
void add_prepare_command(CLI::App& app, command_action& action);

} // namespace apsp::cli

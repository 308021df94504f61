// apsp convert: graph file to graph file.

#include <cstdio>
#include <memory>
#include <string>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "output.hpp"

namespace apsp::cli {
namespace {

struct convert_args {
  input_options in;
  std::string out;
  std::string output_format;
  bool quiet = false;
};

int run(const convert_args& a) {
  const io::format out_format = graph_output_format(a.out, a.output_format);
  check_writable(a.out);
  const sigint_scope sigint;
  const loaded_graph in = read_input(a.in);
  throw_if_interrupted();
  output_files outputs;
  outputs.write(a.out, [&](const auto& partial) { io::write_graph(partial, in.file, out_format); });
  outputs.commit(); // a Ctrl-C during the write removes the partial file instead

  if (!a.quiet) {
    std::printf("wrote %s (%s, %lld vertices, %lld edges)\n", a.out.c_str(),
                std::string(io::to_string(out_format)).c_str(),
                static_cast<long long>(in.file.g.num_vertices()),
                static_cast<long long>(in.file.g.num_edges()));
  }
  return 0;
}

} // namespace

void add_convert_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<convert_args>();
  CLI::App* cmd = app.add_subcommand("convert", "convert a graph from one file format to another");
  add_input_options(*cmd, args->in);
  cmd->add_option("OUT", args->out, "graph file to write (format by suffix)")->required();
  cmd->add_option("--output-format", args->output_format,
                  "format of OUT, overriding its suffix: dimacs, mtx, edgelist, csv, "
                  "course-binary, npy")
      ->check(format_name());
  cmd->add_flag("-q,--quiet", args->quiet, "print nothing on success");
  cmd->footer("Vertex ids are kept where the target format can hold them (edge lists and CSV keep\n"
              "names; .gr, .mtx, .bin and .npy renumber 1..n or 0..n-1 in sorted-id order).\n\n"
              "Examples:\n"
              "  apsp convert data/rome99.gr rome99.bin\n"
              "  apsp convert edges.txt edges.gr\n"
              "  apsp convert graph.bin graph.mtx --format course-binary");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli

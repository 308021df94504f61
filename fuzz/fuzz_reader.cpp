// One libFuzzer target per graph format: APSP_FUZZ_FORMAT names the io::format (the build
// compiles this file once per format). The input's bytes go through read_graph's own path
// (gunzip for text formats, then the format's reader) as a file named "fuzz-input.SUFFIX"; the
// count peeked from its first bytes must be the reader's.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "contract.hpp"
#include "io/readers.hpp"

#ifndef APSP_FUZZ_FORMAT
#error "define APSP_FUZZ_FORMAT (dimacs, mtx, edgelist, csv, course_binary or npy)"
#endif

namespace {

constexpr apsp::io::format fuzzed = apsp::io::format::APSP_FUZZ_FORMAT;

const char* file_name() {
  switch (fuzzed) {
  case apsp::io::format::dimacs:
    return "fuzz-input.gr";
  case apsp::io::format::mtx:
    return "fuzz-input.mtx";
  case apsp::io::format::edgelist:
    return "fuzz-input.txt";
  case apsp::io::format::csv:
    return "fuzz-input.csv";
  case apsp::io::format::course_binary:
    return "fuzz-input.bin";
  case apsp::io::format::npy:
    return "fuzz-input.npy";
  case apsp::io::format::tntp:
    return "fuzz-input_net.tntp";
  }
  return "fuzz-input";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  static const std::filesystem::path name = file_name();
  try {
    const apsp::io::graph_file f = apsp::io::detail::read_graph_bytes(name, input, fuzzed, {});
    apsp::fuzz::check_graph_file(f, fuzzed, input);
    // The header's count, read ahead of the file (io::peek_vertex_count), is the reader's.
    const auto declared = apsp::io::detail::peek_vertex_count_bytes(input, input.size(), fuzzed);
    apsp::fuzz::expect(!declared || *declared == f.g.num_vertices(),
                       "peek_vertex_count disagrees with the reader's vertex count");
    // ... also from a part of the file, as the peek reads only the first 64 KiB.
    const auto part = apsp::io::detail::peek_vertex_count_bytes(input.substr(0, input.size() / 2),
                                                                input.size(), fuzzed);
    apsp::fuzz::expect(!part || *part == f.g.num_vertices(),
                       "peek_vertex_count on a prefix disagrees with the reader");
  } catch (const apsp::invalid_input_error& e) {
    apsp::fuzz::check_rejection(e, name, input);
  }
  // Any other exception escapes: libFuzzer reports it as a crash (the contract allows only
  // invalid_input_error).
  return 0;
}

#pragma once
// What every fuzz target asserts beyond "no crash": a reader either returns a graph that holds
// the library's invariants, or throws invalid_input_error with a one-line message naming the
// file and a line or byte. A broken contract aborts, which libFuzzer reports as a crash.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "apsp/error.hpp"
#include "apsp/io.hpp"

namespace apsp::fuzz {

/// Prints "contract broken: WHAT" (with the input's size) and aborts unless `ok`.
void expect(bool ok, std::string_view what);

/// n in range, labels of size n that map back to their indices, edge arrays of one length with
/// ids in [0, n) and finite weights |w| <= 2^53, the format the reader was asked for, and no
/// more edges than the input's bytes can describe (unless it was gzip-compressed).
void check_graph_file(const io::graph_file& f, io::format expected, std::string_view input);

/// The message is "NAME: line N: ..." or "NAME: byte N: ..." on one line, N within the input
/// (a byte offset at most `file_size`, the input's size unless the input is a file's start).
void check_rejection(const invalid_input_error& e, const std::filesystem::path& name,
                     std::string_view input, std::optional<std::size_t> file_size = {});

} // namespace apsp::fuzz

#pragma once
// Plans from the vertex count a file declares in its header, before a byte of its edges is
// read: each command refuses (exit 5, with the sizes) what could not fit in memory or on disk
// for that n, instead of reading a large file first or growing until the kernel stops it. And,
// once read, a warning when the header declares far more vertices than the arcs use.

#include <cstdint>
#include <optional>
#include <string>

#include "input.hpp"

namespace apsp::cli {

/// The vertex count INPUT's header declares (io::peek_vertex_count: DIMACS, Matrix Market,
/// .npy, course binary), or nullopt (edge lists, CSV, gzip, no header).
[[nodiscard]] std::optional<std::int64_t> declared_vertices(const input_options& in);

/// Throws out_of_memory_error (exit 5) when `bytes`, what `command` ("apsp path") needs at the
/// least for the `n` vertices INPUT declares, exceed the physical memory: "g.gr declares
/// 2000000000 vertices: apsp path needs at least 164.5 GiB of host memory for them, but this
/// machine has 23.5 GiB (planned from the header; no edge was read)", then `advice`.
void refuse_declared_memory(const input_options& in, std::int64_t n, std::uint64_t bytes,
                            const std::string& command, const std::string& advice = {});

/// apsp solve for all pairs: throws out_of_memory_error (exit 5) when its n x n outputs,
/// `bytes`, fit neither in the physical memory nor, where `out` is not empty (an output the
/// solve can work in, memory-mapped), in the free space of out's file system. Vertex counts
/// beyond the matrix formats' limit (2^19) are left to the reader, which refuses them (exit 3).
void refuse_declared_matrix(const input_options& in, std::int64_t n, std::uint64_t bytes,
                            const std::string& out);

/// Warns when the header of `in` declared more than 10 times, and 1,000 more than, the vertices
/// its arcs use (the largest vertex an arc names): every n-sized array pays for the rest.
void warn_about_inflated_header(const loaded_graph& in);

/// The advice of an exit 5 for all pairs: "; without the n x n matrix: " and the commands
/// that need none.
[[nodiscard]] std::string without_the_matrix();

} // namespace apsp::cli

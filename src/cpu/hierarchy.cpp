// apsp::hierarchy (apsp/hierarchy.hpp): built here; saved and loaded in cpu/hierarchy_file.cpp;
// its tables in cpu/table.cpp beside apsp::solve_table's.

#include <bit>
#include <cstring>
#include <string>
#include <utility>

#include "apsp/error.hpp"
#include "core/thread_count.hpp"
#include "cpu/hierarchy_state.hpp"

namespace apsp {
namespace {

/// One step of the fingerprint's hash (splitmix64's finaliser on the running value and a word).
std::uint64_t mixed(std::uint64_t h, std::uint64_t word) noexcept {
  std::uint64_t z = (h ^ word) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

} // namespace

graph_fingerprint fingerprint_of(const graph& g) {
  graph_fingerprint f;
  f.vertices = g.num_vertices();
  f.edges = g.num_edges();
  std::uint64_t h =
      mixed(static_cast<std::uint64_t>(f.vertices), static_cast<std::uint64_t>(f.edges));
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  for (std::size_t e = 0; e < src.size(); ++e) {
    const double weight = w[e] == 0.0 ? 0.0 : w[e]; // -0.0 and 0.0 are one weight
    h = mixed(h, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src[e])) << 32) |
                     static_cast<std::uint32_t>(dst[e]));
    h = mixed(h, std::bit_cast<std::uint64_t>(weight));
  }
  f.hash = h;
  return f;
}

hierarchy::hierarchy(const graph& g, const solve_options& options) : s_(std::make_unique<state>()) {
  const detail::omp_thread_cap cap(options.threads);
  s_->fingerprint = fingerprint_of(g);
  const auto build = [&](auto zero) {
    using T = decltype(zero);
    auto p = cpu::prepare_hierarchy<T>(g, options.threads);
    if (!p.ch.complete) {
      throw invalid_input_error(
          "the graph has no small separators: its contraction hierarchy outgrew its budget of "
          "shortcuts; tables without a prepared hierarchy run Dijkstra instead");
    }
    s_->prepared = std::move(p);
  };
  if (options.type == dtype::int32)
    build(std::int32_t{});
  else if (options.type == dtype::int64)
    build(std::int64_t{});
  else
    throw invalid_argument_error("a contraction hierarchy needs integer weights: --dtype int32 "
                                 "or int64, not " +
                                 std::string(to_string(options.type)));
}

hierarchy::~hierarchy() = default;
hierarchy::hierarchy(hierarchy&&) noexcept = default;
hierarchy& hierarchy::operator=(hierarchy&&) noexcept = default;

hierarchy hierarchy::load(const std::string& path, const graph& g) {
  hierarchy h = load(path);
  h.check(g);
  return h;
}

void hierarchy::check(const graph& g) const {
  const graph_fingerprint now = fingerprint_of(g);
  const graph_fingerprint& was = s_->fingerprint;
  if (now == was)
    return;
  std::string why;
  if (now.vertices != was.vertices || now.edges != was.edges) {
    why = "it was built from a graph of " + std::to_string(was.vertices) + " vertices and " +
          std::to_string(was.edges) + " edges; this one has " + std::to_string(now.vertices) +
          " vertices and " + std::to_string(now.edges) + " edges";
  } else {
    why = "it was built from a graph of as many vertices and edges whose edges or weights "
          "differ (another graph, another weight column, or the file changed since)";
  }
  throw hierarchy_mismatch_error("the contraction hierarchy does not belong to this graph: " + why +
                                 "; prepare it again (apsp prepare)");
}

const graph_fingerprint& hierarchy::fingerprint() const noexcept {
  return s_->fingerprint;
}

dtype hierarchy::type() const noexcept {
  return s_->prepared.index() == 0 ? dtype::int32 : dtype::int64;
}

std::int64_t hierarchy::num_vertices() const noexcept {
  return std::visit([](const auto& p) { return p.ch.n; }, s_->prepared);
}

std::int64_t hierarchy::shortcuts() const noexcept {
  return std::visit([](const auto& p) { return p.ch.shortcuts; }, s_->prepared);
}

std::int32_t hierarchy::levels() const noexcept {
  return std::visit([](const auto& p) { return p.ch.levels; }, s_->prepared);
}

} // namespace apsp

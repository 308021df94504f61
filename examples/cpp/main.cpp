// shortest_path GRAPH SOURCE TARGET: solves all pairs of GRAPH (any format apsp reads) and prints
// the distance and a shortest path from SOURCE to TARGET, in the file's own vertex ids.
#include <apsp/apsp.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s GRAPH SOURCE TARGET\n", argv[0]);
    return 2;
  }
  try {
    const apsp::io::graph_file file = apsp::io::read_graph(argv[1]);
    const auto s = file.labels.find(argv[2]); // the file's id -> vertex 0..n-1
    const auto t = file.labels.find(argv[3]);
    if (!s || !t) {
      std::fprintf(stderr, "%s: no vertex %s\n", argv[1], s ? argv[3] : argv[2]);
      return 2;
    }
    apsp::solve_options options; // int32 distances; back end and algorithm chosen per graph
    options.paths = true;        // keep the path matrix too
    const apsp::result r = apsp::solve(file.g, options);
    if (!r.reachable(*s, *t)) {
      std::printf("%s -> %s: no path\n", argv[2], argv[3]);
      return 0;
    }
    std::printf("%s -> %s: distance %.15g, path", argv[2], argv[3], r.distance(*s, *t));
    for (const std::int64_t v : r.path(*s, *t))
      std::printf(" %s", file.labels.label(v).c_str());
    std::printf("\n");
    return 0;
  } catch (const std::exception& e) { // apsp::error and its kinds are std::exceptions
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

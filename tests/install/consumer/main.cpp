#include <apsp/apsp.hpp>

#include <cstdio>

int main() {
  apsp::graph g(3);
  g.add_edge(0, 1, 2);
  g.add_edge(1, 2, 3);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.paths = true;
  const auto r = apsp::solve(g, o);
  const bool ok = r.distance(0, 2) == 5 && r.path(0, 2).size() == 3;
  std::printf("consumer: d(0,2) = %g, %s\n", r.distance(0, 2), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

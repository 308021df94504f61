// Links apsp::distributed (and through it MPI) into a program; reports without starting MPI.

#include <apsp/distributed.hpp>

#include <cstdio>

int main() {
  const bool ok = apsp::distributed::available() && apsp::distributed::launched_size() >= 1;
  std::printf("apsp::distributed available: %s\n", ok ? "yes" : "no");
  return ok ? 0 : 1;
}

#include "process_knobs.hpp"

#include <cstdlib>
#include <cstring>

namespace apsp::cli {
namespace {

// How each knob reads its variable (process_knobs.hpp); called only when it is set.
void trace_switch(const char* v, bool& f) noexcept { f = v[0] != '\0' && std::strcmp(v, "0") != 0; }
void optional_switch(const char* v, std::optional<bool>& f) noexcept {
  if (v[0] != '\0')
    f = v[0] != '0';
}
void int_value(const char* v, int& f) noexcept { f = std::atoi(v); }

process_knobs from_environment() noexcept {
  process_knobs k;
#define APSP_CLI_READ(field, type, env, def, how, doc)                                            \
  if (const char* v = std::getenv(env); v != nullptr)                                            \
    how(v, k.field);
  APSP_CLI_KNOBS(APSP_CLI_READ)
#undef APSP_CLI_READ
  return k;
}

} // namespace

const process_knobs& knobs() noexcept {
  static const process_knobs read = from_environment();
  return read;
}

} // namespace apsp::cli

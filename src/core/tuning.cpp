#include "core/tuning.hpp"

#include <array>
#include <atomic>
#include <cstdlib>

namespace apsp::detail {
namespace {

// How each knob reads its variable (tuning.hpp lists them); called only when it is set.
void present(const char*, bool& f) { f = true; }
void present_off(const char*, bool& f) { f = false; }
void zero_off(const char* v, bool& f) { f = v[0] != '0'; }
void exact_zero_off(const char* v, bool& f) { f = std::string_view(v) != "0"; }
void one_on(const char* v, bool& f) { f = v[0] == '1'; }
void nonzero_on(const char* v, bool& f) { f = v[0] != '\0' && v[0] != '0'; }
void optional_switch(const char* v, std::optional<bool>& f) {
  if (v[0] != '\0')
    f = v[0] != '0';
}
void positive_int(const char* v, int& f) {
  if (std::atoi(v) > 0)
    f = std::atoi(v);
}
void optional_int(const char* v, std::optional<int>& f) {
  if (v[0] != '\0')
    f = std::atoi(v);
}
void text(const char* v, std::string& f) { f = v; }

void byte_count(const char* v, std::uint64_t& f) {
  if (v[0] == '\0') {
    f = 0;
    return;
  }
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v, &end, 10);
  std::uint64_t scale = 1;
  if (end != nullptr && *end != '\0') {
    switch (*end) {
    case 'K':
    case 'k':
      scale = std::uint64_t{1} << 10;
      break;
    case 'M':
    case 'm':
      scale = std::uint64_t{1} << 20;
      break;
    case 'G':
    case 'g':
      scale = std::uint64_t{1} << 30;
      break;
    default:
      break;
    }
  }
  f = static_cast<std::uint64_t>(x) * scale;
}

/// The default as docs/tuning.md writes it.
constexpr std::string_view shown_default(std::string_view code) {
  if (code == "std::nullopt")
    return "unset";
  if (code == "\"\"")
    return "empty";
  return code;
}

constexpr std::array<tuning_knob, tuning_knob_count> knobs = {
#define APSP_TUNING_ROW(field, type, env, def, how, doc)                                          \
  tuning_knob{#field, env, shown_default(#def), doc},
    APSP_TUNING_KNOBS(APSP_TUNING_ROW)
#undef APSP_TUNING_ROW
};

std::atomic<const tuning*> replaced{nullptr};

} // namespace

const std::array<tuning_knob, tuning_knob_count>& tuning_knobs() {
  return knobs;
}

tuning tuning_from(const environment_lookup& lookup) {
  tuning t;
#define APSP_TUNING_READ(field, type, env, def, how, doc)                                         \
  if (const char* v = lookup(env); v != nullptr)                                                 \
    how(v, t.field);
  APSP_TUNING_KNOBS(APSP_TUNING_READ)
#undef APSP_TUNING_READ
  return t;
}

tuning tuning_from_environment() {
  return tuning_from([](const char* name) -> const char* { return std::getenv(name); });
}

int launcher_size_from_environment() noexcept {
  for (const char* name :
       {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    if (const char* v = std::getenv(name); v != nullptr && std::atoi(v) > 0)
      return std::atoi(v);
  }
  return 1;
}

const tuning& current_tuning() {
  if (const tuning* t = replaced.load(std::memory_order_acquire))
    return *t;
  static const tuning from_environment = tuning_from_environment();
  return from_environment;
}

scoped_tuning::scoped_tuning(tuning t)
    : record_(std::move(t)), previous_(replaced.exchange(&record_, std::memory_order_acq_rel)) {}

scoped_tuning::scoped_tuning(const std::function<void(tuning&)>& edit)
    : record_(current_tuning()), previous_(nullptr) {
  edit(record_);
  previous_ = replaced.exchange(&record_, std::memory_order_acq_rel);
}

scoped_tuning::~scoped_tuning() {
  replaced.store(previous_, std::memory_order_release);
}

} // namespace apsp::detail

namespace apsp {

bool devices_may_repeat() {
  return detail::current_tuning().cuda_force_multi_gpu;
}

} // namespace apsp

// The tuning record (core/tuning.hpp): each knob reads its variable as documented, from a fake
// environment; docs/tuning.md lists exactly the knobs the library and the apsp command declare;
// scoped_tuning replaces the process's record and a run context carries the one in force.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../../cli/process_knobs.hpp"
#include "core/backend.hpp"
#include "core/tuning.hpp"

namespace {

using apsp::detail::tuning;
using apsp::detail::tuning_from;

/// The record a fake environment of `vars` gives.
tuning read(const std::map<std::string, std::string>& vars) {
  return tuning_from([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(Tuning, AnEmptyEnvironmentGivesTheDefaults) {
  const tuning t = read({});
  const tuning d;
  EXPECT_EQ(t.cpu_isa, "");
  EXPECT_TRUE(t.cpu_lookahead && t.cpu_prefetch && t.cpu_panels_first && t.cpu_panel_affinity);
  EXPECT_FALSE(t.cpu_profile || t.supernodal_verbose || t.cuda_verbose || t.cuda_rank_times);
  EXPECT_FALSE(t.cpu_spin.has_value());
  EXPECT_FALSE(t.cuda_lookahead.has_value());
  EXPECT_TRUE(t.cuda_tagged_paths && t.cuda_deferred_pivots && t.cuda_three_way);
  EXPECT_TRUE(t.cuda_trim_padding && t.cuda_prefault && t.cuda_ooc_pin && t.cuda_ooc_cpu && t.nccl);
  EXPECT_EQ(t.cuda_staging_mb, 0);
  EXPECT_EQ(t.cuda_force_out_of_core_bytes, 0u);
  EXPECT_FALSE(t.cuda_sync_launches || t.cuda_force_multi_gpu);
  EXPECT_EQ(t.cuda_force_out_of_core_bytes, d.cuda_force_out_of_core_bytes);
}

TEST(Tuning, SwitchesReadTheirVariablesAsBefore) {
  // Set to anything, even 0: on (or, for APSP_CUDA_OOC_NO_PIN, pinning off).
  for (const char* v : {"", "0", "1"}) {
    const tuning t = read({{"APSP_CUDA_VERBOSE", v},
                           {"APSP_SUPERNODAL_VERBOSE", v},
                           {"APSP_CUDA_OOC_NO_PIN", v}});
    EXPECT_TRUE(t.cuda_verbose) << v;
    EXPECT_TRUE(t.supernodal_verbose) << v;
    EXPECT_FALSE(t.cuda_ooc_pin) << v;
  }
  // Off by a leading 0 ...
  EXPECT_FALSE(read({{"APSP_CPU_LOOKAHEAD", "0"}}).cpu_lookahead);
  EXPECT_FALSE(read({{"APSP_CUDA_THREE_WAY", "00"}}).cuda_three_way);
  EXPECT_TRUE(read({{"APSP_CUDA_PREFAULT", "1"}}).cuda_prefault);
  EXPECT_TRUE(read({{"APSP_CUDA_TRIM_PADDING", ""}}).cuda_trim_padding);
  // ... or by exactly "0".
  EXPECT_FALSE(read({{"APSP_CUDA_TAGGED_PATHS", "0"}}).cuda_tagged_paths);
  EXPECT_TRUE(read({{"APSP_CUDA_TAGGED_PATHS", "00"}}).cuda_tagged_paths);
  EXPECT_FALSE(read({{"APSP_NCCL", "0"}}).nccl);
  EXPECT_FALSE(read({{"APSP_CUDA_OOC_CPU", "0"}}).cuda_ooc_cpu);
  // On by a leading 1; on unless empty or 0.
  EXPECT_TRUE(read({{"APSP_CPU_PROFILE", "1"}}).cpu_profile);
  EXPECT_FALSE(read({{"APSP_CPU_PROFILE", "yes"}}).cpu_profile);
  EXPECT_TRUE(read({{"APSP_CUDA_FORCE_MULTI_GPU", "yes"}}).cuda_force_multi_gpu);
  EXPECT_FALSE(read({{"APSP_CUDA_FORCE_MULTI_GPU", ""}}).cuda_force_multi_gpu);
  EXPECT_FALSE(read({{"APSP_CUDA_SYNC_LAUNCHES", "0"}}).cuda_sync_launches);
  // Three ways: unset, on, off.
  EXPECT_FALSE(read({{"APSP_CUDA_LOOKAHEAD", ""}}).cuda_lookahead.has_value());
  EXPECT_EQ(read({{"APSP_CUDA_LOOKAHEAD", "1"}}).cuda_lookahead, std::optional<bool>(true));
  EXPECT_EQ(read({{"APSP_CUDA_LOOKAHEAD", "0"}}).cuda_lookahead, std::optional<bool>(false));
}

TEST(Tuning, NumbersAndTextReadTheirVariablesAsBefore) {
  EXPECT_EQ(read({{"APSP_CUDA_STAGING_MB", "16"}}).cuda_staging_mb, 16);
  EXPECT_EQ(read({{"APSP_CUDA_STAGING_MB", "-3"}}).cuda_staging_mb, 0); // ignored
  EXPECT_EQ(read({{"APSP_CUDA_STAGING_MB", "many"}}).cuda_staging_mb, 0);
  EXPECT_EQ(read({{"APSP_CPU_SPIN", "0"}}).cpu_spin, std::optional<int>(0));
  EXPECT_EQ(read({{"APSP_CPU_SPIN", "500"}}).cpu_spin, std::optional<int>(500));
  EXPECT_FALSE(read({{"APSP_CPU_SPIN", ""}}).cpu_spin.has_value());
  const auto bytes = [](const char* v) {
    return read({{"APSP_CUDA_FORCE_OUT_OF_CORE_BYTES", v}}).cuda_force_out_of_core_bytes;
  };
  EXPECT_EQ(bytes("1536K"), 1536u << 10);
  EXPECT_EQ(bytes("6m"), std::uint64_t{6} << 20);
  EXPECT_EQ(bytes("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(bytes("12345"), 12345u);
  EXPECT_EQ(bytes(""), 0u);
  // An unknown ISA is kept as written: the cpu back end refuses it when it plans
  // (cpu_backend_test's IsaOverrideIsCheckedAndReported).
  EXPECT_EQ(read({{"APSP_CPU_ISA", "sse9"}}).cpu_isa, "sse9");
}

TEST(Tuning, ScopedTuningReplacesTheRecordAndRestoresIt) {
  const tuning before = apsp::detail::current_tuning();
  {
    apsp::detail::scoped_tuning outer([](tuning& t) { t.cuda_staging_mb = 7; });
    EXPECT_EQ(apsp::detail::current_tuning().cuda_staging_mb, 7);
    {
      const apsp::detail::scoped_tuning inner([](tuning& t) { t.cpu_spin = 3; });
      EXPECT_EQ(apsp::detail::current_tuning().cuda_staging_mb, 7); // edits the one in force
      EXPECT_EQ(apsp::detail::current_tuning().cpu_spin, std::optional<int>(3));
    }
    EXPECT_EQ(apsp::detail::current_tuning().cpu_spin, before.cpu_spin);
    // A run context copies the record when it is made.
    apsp::solve_options o;
    outer.record().cuda_verbose = true;
    const apsp::detail::run_context ctx(o, 10, false);
    outer.record().cuda_verbose = false;
    EXPECT_TRUE(ctx.tuning().cuda_verbose);
    EXPECT_EQ(ctx.tuning().cuda_staging_mb, 7);
  }
  EXPECT_EQ(apsp::detail::current_tuning().cuda_staging_mb, before.cuda_staging_mb);
}

/// The 5-column rows of docs/tuning.md's tables under each "## " heading: heading -> rows of
/// (field, variable, default), backticks stripped.
using row = std::tuple<std::string, std::string, std::string>;
std::map<std::string, std::set<row>> documented_knobs() {
  std::ifstream f(APSP_SOURCE_DIR "/docs/tuning.md");
  EXPECT_TRUE(f.good()) << "docs/tuning.md not found";
  std::map<std::string, std::set<row>> out;
  std::string heading;
  std::string line;
  const auto strip = [](std::string s) {
    s = std::regex_replace(s, std::regex("`"), "");
    const auto a = s.find_first_not_of(' ');
    const auto b = s.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
  };
  while (std::getline(f, line)) {
    if (line.rfind("## ", 0) == 0) {
      heading = line.substr(3);
      continue;
    }
    if (line.empty() || line[0] != '|')
      continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|'))
      cells.push_back(strip(cell));
    if (cells.size() != 5 || cells[1].rfind("APSP_", 0) != 0)
      continue; // headers, separators, other tables
    EXPECT_FALSE(cells[3].empty()) << line;
    EXPECT_FALSE(cells[4].empty()) << "who should touch it: " << line;
    out[heading].insert({cells[0], cells[1], cells[2]});
  }
  return out;
}

TEST(Tuning, DocsListExactlyTheDeclaredKnobs) {
  const auto docs = documented_knobs();
  std::set<row> library;
  for (const auto& k : apsp::detail::tuning_knobs())
    library.insert({std::string(k.field), std::string(k.env), std::string(k.default_text)});
  ASSERT_EQ(library.size(), apsp::detail::tuning_knobs().size()) << "a knob declared twice";
  ASSERT_TRUE(docs.count("Library knobs")) << "docs/tuning.md has no '## Library knobs'";
  EXPECT_EQ(docs.at("Library knobs"), library);

  std::set<std::pair<std::string, std::string>> command;
#define APSP_CLI_ROW(field, type, env, def, how, doc) command.insert({#field, env});
  APSP_CLI_KNOBS(APSP_CLI_ROW)
#undef APSP_CLI_ROW
  ASSERT_TRUE(docs.count("The apsp command's knobs"));
  std::set<std::pair<std::string, std::string>> documented;
  for (const auto& [field, env, def] : docs.at("The apsp command's knobs"))
    documented.insert({field, env});
  EXPECT_EQ(documented, command);
}

} // namespace

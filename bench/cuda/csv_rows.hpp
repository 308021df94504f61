#pragma once
// The CSV that the cuda benchmarks append to (bench/results/): one header, then
// date,device,commit,command,n,mode,seconds,updates_per_s,pct_peak per row.

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace apsp::bench {

struct csv_row {
  std::string device;
  std::int64_t n = 0;
  std::string mode;
  double seconds = 0;
  double updates_per_s = 0;
  double pct = 100; ///< of the row's reference (peak, in-core or one-device rate)
};

/// Appends `rows` to `path` (creating it with the header), dated today (UTC).
inline void append_csv(const std::string& path, const std::string& commit,
                       const std::string& command, const std::vector<csv_row>& rows) {
  const bool fresh = !std::filesystem::exists(path);
  std::ofstream out(path, std::ios::app);
  if (fresh)
    out << "date,device,commit,command,n,mode,seconds,updates_per_s,pct_peak\n";
  char date[16];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  for (const auto& r : rows) {
    out << date << ",\"" << r.device << "\"," << commit << ",\"" << command << "\"," << r.n << ","
        << r.mode << "," << r.seconds << "," << r.updates_per_s << "," << r.pct << "\n";
  }
}

} // namespace apsp::bench

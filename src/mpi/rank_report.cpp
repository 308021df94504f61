#include "mpi/rank_report.hpp"

#include <algorithm>
#include <sstream>

namespace apsp::distributed {
namespace {

// Separators that no host name, CPU list or thread name holds.
constexpr char field_sep = '\x1e';
constexpr char group_sep = '\x1d';
constexpr char item_sep = '\x1f';

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::stringstream in(text);
  while (std::getline(in, part, sep))
    out.push_back(part);
  if (!text.empty() && text.back() == sep)
    out.emplace_back();
  return out;
}

std::string encode(const traffic& t) {
  return std::to_string(t.sent_messages) + item_sep + std::to_string(t.sent_bytes) + item_sep +
         std::to_string(t.received_messages) + item_sep + std::to_string(t.received_bytes);
}

traffic decode_traffic(const std::string& text) {
  const auto v = split(text, item_sep);
  traffic t;
  if (v.size() == 4) {
    t.sent_messages = std::stoll(v[0]);
    t.sent_bytes = std::stoll(v[1]);
    t.received_messages = std::stoll(v[2]);
    t.received_bytes = std::stoll(v[3]);
  }
  return t;
}

std::string encode(const rank_report& r) {
  std::ostringstream o;
  o.precision(17);
  o << r.rank << field_sep << r.host << field_sep << r.cpus << field_sep << r.placement
    << field_sep << r.computes_on << field_sep << r.rounds_seconds << field_sep
    << r.compute_seconds << field_sep << r.communication_seconds << field_sep << r.wait_seconds
    << field_sep << r.download_seconds << field_sep << encode(r.pivots) << field_sep << encode(r.panels) << field_sep
    << encode(r.device) << field_sep << r.waits << field_sep << r.agreements << field_sep;
  for (const thread_group& t : r.threads) {
    o << t.name << item_sep << t.threads << item_sep << t.cpu_seconds << item_sep
      << t.voluntary_switches << item_sep << t.involuntary_switches << item_sep << t.migrations
      << group_sep;
  }
  return o.str();
}

rank_report decode(const std::string& text) {
  const auto f = split(text, field_sep);
  rank_report r;
  if (f.size() < 16)
    return r;
  r.rank = std::stoi(f[0]);
  r.host = f[1];
  r.cpus = f[2];
  r.placement = f[3];
  r.computes_on = f[4];
  r.rounds_seconds = std::stod(f[5]);
  r.compute_seconds = std::stod(f[6]);
  r.communication_seconds = std::stod(f[7]);
  r.wait_seconds = std::stod(f[8]);
  r.download_seconds = std::stod(f[9]);
  r.pivots = decode_traffic(f[10]);
  r.panels = decode_traffic(f[11]);
  r.device = decode_traffic(f[12]);
  r.waits = std::stoll(f[13]);
  r.agreements = std::stoll(f[14]);
  for (const std::string& g : split(f[15], group_sep)) {
    const auto v = split(g, item_sep);
    if (v.size() != 6)
      continue;
    thread_group t;
    t.name = v[0];
    t.threads = std::stoi(v[1]);
    t.cpu_seconds = std::stod(v[2]);
    t.voluntary_switches = std::stoll(v[3]);
    t.involuntary_switches = std::stoll(v[4]);
    t.migrations = std::stoll(v[5]);
    r.threads.push_back(t);
  }
  return r;
}

} // namespace

std::vector<std::string> allgather_text(MPI_Comm comm, const std::string& text) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int mine = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  std::vector<int> at(lengths.size(), 0);
  for (std::size_t r = 1; r < at.size(); ++r)
    at[r] = at[r - 1] + lengths[r - 1];
  std::string all(static_cast<std::size_t>(at.back() + lengths.back()), '\0');
  MPI_Allgatherv(text.data(), mine, MPI_CHAR, all.data(), lengths.data(), at.data(), MPI_CHAR,
                 comm);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    out.push_back(all.substr(static_cast<std::size_t>(at[r]), static_cast<std::size_t>(lengths[r])));
  return out;
}

std::vector<thread_group> busiest(const std::vector<detail::thread_usage>& census,
                                  std::size_t keep) {
  std::vector<thread_group> out;
  for (const detail::thread_usage& u : census) {
    if (out.size() == keep)
      break;
    out.push_back({u.name, u.threads, u.cpu_seconds, u.voluntary_switches, u.involuntary_switches,
                   u.migrations});
  }
  return out;
}

void collect_reports(MPI_Comm world, const rank_report& mine, summary& out) {
  // Small (a few hundred bytes a rank): gathered everywhere, kept on the first rank.
  const std::vector<std::string> all = allgather_text(world, encode(mine));
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  out.ranks.clear();
  if (rank != 0) {
    out.ranks.push_back(mine);
    return;
  }
  double longest = -1;
  for (const std::string& text : all) {
    out.ranks.push_back(decode(text));
    const rank_report& r = out.ranks.back();
    if (r.compute_seconds + r.communication_seconds > longest) {
      longest = r.compute_seconds + r.communication_seconds;
      out.slowest_rank = r.rank;
    }
  }
}

} // namespace apsp::distributed

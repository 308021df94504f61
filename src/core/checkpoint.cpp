// Checkpoint files: see checkpoint.hpp.

#include "core/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"

namespace apsp::detail {
namespace {

constexpr char magic[8] = {'A', 'P', 'S', 'P', 'C', 'K', 'P', '1'};
constexpr std::uint64_t fnv_offset = 1469598103934665603ull;
constexpr std::uint64_t fnv_prime = 1099511628211ull;

std::uint64_t fnv(const void* data, std::size_t bytes, std::uint64_t h = fnv_offset) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i)
    h = (h ^ p[i]) * fnv_prime;
  return h;
}

/// FNV-1a of `bytes` in 1 MiB chunks hashed in parallel, combined in order.
std::uint64_t chunked_hash(const void* data, std::size_t bytes, std::uint64_t seed) {
  constexpr std::size_t chunk = std::size_t{1} << 20;
  const std::size_t chunks = (bytes + chunk - 1) / chunk;
  std::vector<std::uint64_t> parts(chunks);
  const auto* p = static_cast<const unsigned char*>(data);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(chunks); ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    parts[static_cast<std::size_t>(c)] = fnv(p + at, std::min(chunk, bytes - at));
  }
  return fnv(parts.data(), parts.size() * sizeof(std::uint64_t), fnv(&bytes, sizeof bytes, seed));
}

std::string rank_file_name(int rank, int ranks, std::int64_t round) {
  char name[64];
  std::snprintf(name, sizeof name, "rank-%05d-of-%05d.r%08lld", rank, ranks,
                static_cast<long long>(round));
  return name;
}

[[noreturn]] void fail_io(const std::string& what, const std::filesystem::path& p) {
  throw internal_error("checkpoint: cannot " + what + " " + p.string() + ": " +
                       std::strerror(errno));
}

void write_all(int fd, const void* data, std::uint64_t bytes, const std::filesystem::path& p) {
  const auto* c = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t w = ::write(fd, c, std::min<std::uint64_t>(bytes, 1u << 30));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      fail_io("write", p);
    c += w;
    bytes -= static_cast<std::uint64_t>(w);
  }
}

void read_all(int fd, void* data, std::uint64_t bytes, const std::filesystem::path& p) {
  auto* c = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t r = ::read(fd, c, std::min<std::uint64_t>(bytes, 1u << 30));
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      throw invalid_input_error("checkpoint: " + p.string() + " is truncated");
    if (r < 0)
      fail_io("read", p);
    c += r;
    bytes -= static_cast<std::uint64_t>(r);
  }
}

/// Writes `parts` to `p` through a temporary file, flushed, then renamed over `p`.
void write_atomically(const std::filesystem::path& p,
                      const std::vector<std::pair<const void*, std::uint64_t>>& parts) {
  const std::filesystem::path tmp = p.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    fail_io("create", tmp);
  try {
    for (const auto& [data, bytes] : parts)
      write_all(fd, data, bytes, tmp);
    if (::fsync(fd) != 0)
      fail_io("flush", tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), p.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail_io("write", p);
  }
  const int dir = ::open(p.parent_path().empty() ? "." : p.parent_path().c_str(),
                         O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

struct file_header {
  char tag[8];
  std::int64_t rank;
  std::int64_t ranks;
  std::int64_t rounds_done;
  std::uint64_t d_bytes;
  std::uint64_t via_bytes;
  std::uint64_t input_hash;
  std::uint64_t reserved;
};
static_assert(sizeof(file_header) == 64);

std::string hex(std::uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// In the order a resume compares them: the input first, the block (which follows from the
/// others under the default block) last, so that a mismatch names its cause.
std::vector<std::pair<std::string, std::string>> identity_fields(const checkpoint_identity& id) {
  return {{"input_hash", hex(id.input_hash)},
          {"n", std::to_string(id.n)},
          {"dtype", std::string(to_string(id.type))},
          {"paths", id.paths ? "yes" : "no"},
          {"grid", std::to_string(id.rows) + "x" + std::to_string(id.cols)},
          {"block", std::to_string(id.block)}};
}

/// Whether `name` is one of the files a checkpoint writes: rank-RRRRR-of-PPPPP.rNNNNNNNN
/// (rank_file_name) or the manifest, each possibly still as its ".tmp" (write_atomically).
bool is_checkpoint_file(const std::filesystem::path& p) {
  static const std::regex rank_file("rank-[0-9]{5,}-of-[0-9]{5,}\\.r[0-9]{8,}(\\.tmp)?");
  const std::string name = p.filename().string();
  if (std::regex_match(name, rank_file))
    return true;
  if (name != "manifest" && name != "manifest.tmp")
    return false;
  std::ifstream in(p);
  std::string first;
  return static_cast<bool>(in >> first) && first == "apsp-checkpoint";
}

/// The "key value" lines of DIR/manifest; empty when it cannot be read.
std::map<std::string, std::string> read_manifest(const std::filesystem::path& manifest) {
  std::map<std::string, std::string> got;
  std::ifstream in(manifest);
  std::string key;
  std::string value;
  while (in >> key >> value)
    got[key] = value;
  return got;
}

/// The fields of DIR/manifest when it is an apsp checkpoint's manifest; empty otherwise.
std::map<std::string, std::string> checkpoint_manifest(const std::filesystem::path& dir) {
  std::map<std::string, std::string> got = read_manifest(dir / "manifest");
  const auto magic_line = got.find("apsp-checkpoint");
  if (magic_line == got.end() || magic_line->second != "1")
    return {};
  return got;
}

} // namespace

std::uint64_t hash_graph(const graph& g) {
  const std::int64_t n = g.num_vertices();
  std::uint64_t h = fnv(&n, sizeof n);
  h = chunked_hash(g.sources().data(), g.sources().size() * sizeof(std::int32_t), h);
  h = chunked_hash(g.targets().data(), g.targets().size() * sizeof(std::int32_t), h);
  return chunked_hash(g.weights().data(), g.weights().size() * sizeof(double), h);
}

std::uint64_t hash_matrix(const any_matrix& m) {
  return std::visit(
      [](const auto& d) {
        const std::int64_t n = d.n();
        return chunked_hash(d.data(), static_cast<std::size_t>(d.size()) * sizeof(*d.data()),
                            fnv(&n, sizeof n, 7));
      },
      m);
}

checkpoint_store::checkpoint_store(std::filesystem::path dir, checkpoint_identity id, int rank,
                                   double every_seconds, std::int64_t resumed_round)
    : dir_(std::move(dir)), id_(id), rank_(rank), every_(every_seconds),
      last_(std::chrono::steady_clock::now()), previous_(resumed_round) {
  // The directory is made by the first save, so that a solve that saves nothing (done or
  // cancelled before a round ends) leaves none behind.
  std::error_code ec;
  APSP_EXPECTS(!std::filesystem::exists(dir_, ec) || std::filesystem::is_directory(dir_, ec),
               invalid_argument_error,
               "--checkpoint: " + dir_.string() + " exists and is not a directory");
  // The manifest is written over at every save: a file of that name must be apsp's own.
  const std::filesystem::path manifest = dir_ / "manifest";
  APSP_EXPECTS(!std::filesystem::exists(manifest, ec) || is_checkpoint_file(manifest),
               invalid_argument_error,
               "--checkpoint: " + manifest.string() +
                   " exists and is not an apsp checkpoint manifest; give a new or empty directory");
}

bool checkpoint_store::due() const {
  return std::chrono::steady_clock::now() - last_ >= every_;
}

void checkpoint_store::save(std::int64_t rounds_done, const void* d, std::uint64_t d_bytes,
                            const std::int32_t* via, std::uint64_t via_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir_, ec)) {
    const bool made = std::filesystem::create_directories(dir_, ec);
    APSP_EXPECTS(!ec && std::filesystem::is_directory(dir_), invalid_argument_error,
                 "cannot create the checkpoint directory " + dir_.string() +
                     (ec ? ": " + ec.message() : std::string()));
    made_dir_ = made;
  }
  try {
    save_files(rounds_done, d, d_bytes, via, via_bytes);
  } catch (...) {
    // A directory this store made and no save filled (a disk full at the first save) goes.
    if (made_dir_ && std::filesystem::is_empty(dir_, ec))
      std::filesystem::remove(dir_, ec);
    throw;
  }
}

void checkpoint_store::save_files(std::int64_t rounds_done, const void* d, std::uint64_t d_bytes,
                                  const std::int32_t* via, std::uint64_t via_bytes) {
  const int ranks = id_.rows * id_.cols;
  std::error_code ec;
  // Files older than the last complete checkpoint are no longer needed by any manifest.
  const std::string own = rank_file_name(rank_, ranks, 0);
  const std::string prefix = own.substr(0, own.size() - 8);
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() != prefix.size() + 8)
      continue;
    const long long round = std::atoll(name.c_str() + prefix.size());
    if (round < previous_ || (round > previous_ && round != rounds_done))
      std::filesystem::remove(entry.path(), ec);
  }
  file_header h{};
  std::memcpy(h.tag, magic, sizeof magic);
  h.rank = rank_;
  h.ranks = ranks;
  h.rounds_done = rounds_done;
  h.d_bytes = d_bytes;
  h.via_bytes = via != nullptr ? via_bytes : 0;
  h.input_hash = id_.input_hash;
  std::vector<std::pair<const void*, std::uint64_t>> parts{{&h, sizeof h}, {d, d_bytes}};
  if (via != nullptr)
    parts.emplace_back(via, via_bytes);
  write_atomically(dir_ / rank_file_name(rank_, ranks, rounds_done), parts);
  previous_ = rounds_done;
  last_ = std::chrono::steady_clock::now();
}

void checkpoint_store::commit(std::int64_t rounds_done, std::int64_t rounds_total) const {
  std::ostringstream text;
  text << "apsp-checkpoint 1\n";
  text << "rounds_done " << rounds_done << "\nrounds_total " << rounds_total << "\n";
  for (const auto& [key, value] : identity_fields(id_))
    text << key << " " << value << "\n";
  const std::string s = text.str();
  write_atomically(dir_ / "manifest", {{s.data(), s.size()}});
}

std::int64_t checkpoint_store::find(const std::filesystem::path& dir,
                                    const checkpoint_identity& id) {
  const std::filesystem::path manifest = dir / "manifest";
  APSP_EXPECTS(std::ifstream(manifest).good(), invalid_argument_error,
               "--resume: no checkpoint in " + dir.string() + " (" + manifest.string() +
                   " is missing)");
  std::map<std::string, std::string> got = read_manifest(manifest);
  APSP_EXPECTS(got.count("apsp-checkpoint") && got["apsp-checkpoint"] == "1", invalid_input_error,
               manifest.string() + " is not an apsp checkpoint manifest");
  for (const auto& [k, want] : identity_fields(id)) {
    if (got[k] != want) {
      throw invalid_argument_error(
          "--resume: the checkpoint in " + dir.string() + " was saved with " + k + " " +
          (got[k].empty() ? "(none)" : got[k]) + ", this solve has " + want +
          (k == "input_hash" ? " (a different input file)" : "") +
          "; resume with the same input and options, or start without --resume");
    }
  }
  return std::atoll(got["rounds_done"].c_str());
}

std::int64_t checkpoint_store::saved_block(const std::filesystem::path& dir) {
  const std::map<std::string, std::string> got = checkpoint_manifest(dir);
  const auto block = got.find("block");
  if (block == got.end())
    return 0;
  return std::max<std::int64_t>(0, std::atoll(block->second.c_str()));
}

void checkpoint_store::load(const std::filesystem::path& dir, const checkpoint_identity& id,
                            int rank, std::int64_t rounds_done, void* d, std::uint64_t d_bytes,
                            std::int32_t* via, std::uint64_t via_bytes) {
  const std::filesystem::path p = dir / rank_file_name(rank, id.rows * id.cols, rounds_done);
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw invalid_input_error("--resume: the checkpoint file " + p.string() +
                              " is missing: " + std::strerror(errno));
  try {
    file_header h{};
    read_all(fd, &h, sizeof h, p);
    const std::uint64_t want_via = via != nullptr ? via_bytes : 0;
    APSP_EXPECTS(std::memcmp(h.tag, magic, sizeof magic) == 0 && h.rank == rank &&
                     h.rounds_done == rounds_done && h.d_bytes == d_bytes &&
                     h.via_bytes == want_via && h.input_hash == id.input_hash,
                 invalid_input_error,
                 "--resume: " + p.string() + " does not belong to this checkpoint");
    read_all(fd, d, d_bytes, p);
    if (via != nullptr)
      read_all(fd, via, via_bytes, p);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

void remove_checkpoint_files(const std::filesystem::path& dir) {
  std::error_code ec;
  std::vector<std::filesystem::path> doomed;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && is_checkpoint_file(entry.path()))
      doomed.push_back(entry.path());
  }
  for (const auto& p : doomed)
    std::filesystem::remove(p, ec);
  if (std::filesystem::is_empty(dir, ec) && !ec)
    std::filesystem::remove(dir, ec);
}

} // namespace apsp::detail

namespace apsp {

std::optional<checkpoint_progress> saved_checkpoint(const std::filesystem::path& dir) {
  const std::map<std::string, std::string> got = detail::checkpoint_manifest(dir);
  const auto done = got.find("rounds_done");
  const auto total = got.find("rounds_total");
  if (done == got.end() || total == got.end())
    return std::nullopt;
  return checkpoint_progress{std::atoll(done->second.c_str()), std::atoll(total->second.c_str())};
}

} // namespace apsp

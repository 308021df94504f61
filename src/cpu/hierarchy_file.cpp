// apsp::hierarchy::save and load: the hierarchy file (format version hierarchy::file_version,
// docs/formats.md). Little-endian, in this order:
//   header   8-byte magic "APSPCH1\n"; uint32 version; uint32 weight bytes (4: int32, 8: int64);
//            int64 graph vertices, int64 graph edges, uint64 graph hash (the fingerprint);
//            int64 upward arcs, int64 downward arcs, int64 shortcuts; int32 levels;
//            uint32 potentials (0 or 1)
//   body     int32 position[n]; int64 up_offsets[n + 1]; int32 up_other[]; W up_weight[];
//            int64 down_offsets[n + 1]; int32 down_other[]; W down_weight[]; W h[n] if potentials
//   trailer  uint64 checksum of every section before it
// A load checks the magic, the version, the size, the checksum and then the structure (a
// permutation, ordered offsets, arcs that point the way their half says), so that a file that
// passes is a hierarchy the searches can run on without reading out of bounds.

#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "apsp/error.hpp"
#include "cpu/hierarchy_state.hpp"
#include "io/atomic_output.hpp"

namespace apsp {
namespace {

static_assert(std::endian::native == std::endian::little, "hierarchy files are little-endian");

constexpr char magic[8] = {'A', 'P', 'S', 'P', 'C', 'H', '1', '\n'};

struct file_header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t weight_bytes;
  std::int64_t vertices;
  std::int64_t edges;
  std::uint64_t graph_hash;
  std::int64_t up_arcs;
  std::int64_t down_arcs;
  std::int64_t shortcuts;
  std::int32_t levels;
  std::uint32_t potentials;
};
static_assert(sizeof(file_header) == 72 && std::is_trivially_copyable_v<file_header>);

/// The checksum over the sections in order: each section's bytes as 8-byte words (its last
/// partial word padded with zeros) and its length, through splitmix64's finaliser.
class checksum {
public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      step(w);
    }
    if (i < bytes) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + i, bytes - i);
      step(w);
    }
    step(bytes);
  }
  [[nodiscard]] std::uint64_t value() const noexcept { return h_; }

private:
  void step(std::uint64_t w) noexcept {
    std::uint64_t z = (h_ ^ w) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h_ = z ^ (z >> 31);
  }
  std::uint64_t h_ = 0x6170737063680001ULL;
};

/// The arcs' two fields as the file keeps them: all the ends, then all the weights.
template <class T> struct split_arcs {
  std::vector<std::int32_t> other;
  std::vector<T> weight;
};

template <class T> split_arcs<T> split(const std::vector<cpu::ch_arc<T>>& arcs) {
  split_arcs<T> s;
  s.other.reserve(arcs.size());
  s.weight.reserve(arcs.size());
  for (const auto& a : arcs) {
    s.other.push_back(a.other);
    s.weight.push_back(a.weight);
  }
  return s;
}

class file_writer {
public:
  explicit file_writer(const std::string& path) : out_(path, false) {}
  template <class V> void section(const std::vector<V>& v) { put(v.data(), v.size() * sizeof(V)); }
  void put(const void* data, std::size_t bytes) {
    sum_.add(data, bytes);
    out_.write(data, bytes);
  }
  void finish() {
    const std::uint64_t s = sum_.value();
    out_.write(&s, sizeof s);
    out_.commit();
  }

private:
  io::detail::atomic_output out_;
  checksum sum_;
};

template <class T>
void write_prepared(const std::string& path, const graph_fingerprint& f,
                    const cpu::prepared_hierarchy<T>& p) {
  const auto& ch = p.ch;
  file_header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.version = hierarchy::file_version;
  h.weight_bytes = sizeof(T);
  h.vertices = f.vertices;
  h.edges = f.edges;
  h.graph_hash = f.hash;
  h.up_arcs = static_cast<std::int64_t>(ch.up_arcs.size());
  h.down_arcs = static_cast<std::int64_t>(ch.down_arcs.size());
  h.shortcuts = ch.shortcuts;
  h.levels = ch.levels;
  h.potentials = p.h.empty() ? 0 : 1;
  file_writer w(path);
  w.put(&h, sizeof h);
  w.section(ch.position);
  w.section(ch.up_offsets);
  {
    const auto up = split(ch.up_arcs);
    w.section(up.other);
    w.section(up.weight);
  }
  w.section(ch.down_offsets);
  {
    const auto down = split(ch.down_arcs);
    w.section(down.other);
    w.section(down.weight);
  }
  if (!p.h.empty())
    w.section(p.h);
  w.finish();
}

struct file_closer {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

class file_reader {
public:
  explicit file_reader(const std::string& path) : path_(path) {
    f_.reset(std::fopen(path.c_str(), "rb"));
    if (!f_)
      throw invalid_argument_error("cannot read " + path + ": " +
                                   std::generic_category().message(errno));
  }
  [[nodiscard]] bool get(void* data, std::size_t bytes) {
    if (bytes != 0 && std::fread(data, 1, bytes, f_.get()) != bytes)
      return false;
    sum_.add(data, bytes);
    return true;
  }
  template <class V> void section(std::vector<V>& v, std::int64_t count) {
    v.resize(static_cast<std::size_t>(count));
    if (!get(v.data(), v.size() * sizeof(V)))
      corrupt("it ends early (truncated)");
  }
  void finish() {
    std::uint64_t stored = 0;
    const std::uint64_t computed = sum_.value();
    if (std::fread(&stored, 1, sizeof stored, f_.get()) != sizeof stored)
      corrupt("it ends early (truncated)");
    if (std::fgetc(f_.get()) != EOF)
      corrupt("it has bytes after its end");
    if (stored != computed)
      corrupt("its checksum does not match its contents");
  }
  [[noreturn]] void corrupt(const std::string& why) const {
    throw invalid_input_error(path_ + ": not a usable contraction hierarchy file: " + why +
                              "; prepare it again (apsp prepare)");
  }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
  std::string path_;
  std::unique_ptr<std::FILE, file_closer> f_;
  checksum sum_;
};

/// Offsets of n positions into `count` arcs: from 0 to count, never decreasing.
bool ordered(const std::vector<std::int64_t>& offsets, std::int64_t count) {
  if (offsets.front() != 0 || offsets.back() != count)
    return false;
  for (std::size_t p = 1; p < offsets.size(); ++p) {
    if (offsets[p] < offsets[p - 1])
      return false;
  }
  return true;
}

/// Every arc of position p has its other end at a position below p, and a weight in [0, cap).
template <class T>
bool arcs_point_up(const std::vector<std::int64_t>& offsets,
                   const std::vector<cpu::ch_arc<T>>& arcs) {
  for (std::size_t p = 0; p + 1 < offsets.size(); ++p) {
    for (auto a = offsets[p]; a < offsets[p + 1]; ++a) {
      const auto& arc = arcs[static_cast<std::size_t>(a)];
      if (arc.other < 0 || static_cast<std::size_t>(arc.other) >= p || arc.weight < 0 ||
          arc.weight >= weight_traits<T>::infinity)
        return false;
    }
  }
  return true;
}

template <class T>
void read_arcs(file_reader& r, std::int64_t n, std::int64_t count,
               std::vector<std::int64_t>& offsets, std::vector<cpu::ch_arc<T>>& arcs) {
  r.section(offsets, n + 1);
  split_arcs<T> s;
  r.section(s.other, count);
  r.section(s.weight, count);
  arcs.resize(static_cast<std::size_t>(count));
  for (std::size_t a = 0; a < arcs.size(); ++a)
    arcs[a] = {s.other[a], s.weight[a]};
}

template <class T> cpu::prepared_hierarchy<T> read_prepared(file_reader& r, const file_header& h) {
  cpu::prepared_hierarchy<T> p;
  auto& ch = p.ch;
  const std::int64_t n = h.vertices;
  ch.n = n;
  ch.shortcuts = h.shortcuts;
  ch.levels = h.levels;
  ch.complete = true;
  r.section(ch.position, n);
  read_arcs(r, n, h.up_arcs, ch.up_offsets, ch.up_arcs);
  read_arcs(r, n, h.down_arcs, ch.down_offsets, ch.down_arcs);
  if (h.potentials != 0)
    r.section(p.h, n);
  r.finish();
  // The checksum passed; the structure is checked too, so that no search reads outside.
  ch.vertex_at.assign(static_cast<std::size_t>(n), -1);
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int32_t at = ch.position[static_cast<std::size_t>(v)];
    if (at < 0 || at >= n || ch.vertex_at[static_cast<std::size_t>(at)] != -1)
      r.corrupt("its vertex order is not a permutation");
    ch.vertex_at[static_cast<std::size_t>(at)] = static_cast<std::int32_t>(v);
  }
  if (!ordered(ch.up_offsets, h.up_arcs) || !ordered(ch.down_offsets, h.down_arcs) ||
      !arcs_point_up(ch.up_offsets, ch.up_arcs) || !arcs_point_up(ch.down_offsets, ch.down_arcs))
    r.corrupt("its arcs are out of order");
  return p;
}

} // namespace

void hierarchy::save(const std::string& path) const {
  std::visit([&](const auto& p) { write_prepared(path, s_->fingerprint, p); }, s_->prepared);
}

hierarchy hierarchy::load(const std::string& path) {
  file_reader r(path);
  file_header h{};
  if (!r.get(&h, sizeof h) || std::memcmp(h.magic, magic, sizeof magic) != 0)
    r.corrupt("it does not start as one (was it written by apsp prepare?)");
  if (h.version != file_version) {
    throw hierarchy_mismatch_error(path + ": a contraction hierarchy file of format version " +
                                   std::to_string(h.version) + "; this apsp reads version " +
                                   std::to_string(file_version) +
                                   "; prepare it again (apsp prepare)");
  }
  if ((h.weight_bytes != 4 && h.weight_bytes != 8) || h.vertices < 0 || h.edges < 0 ||
      h.vertices >= (std::int64_t{1} << 31) || h.up_arcs < 0 || h.down_arcs < 0 || h.potentials > 1)
    r.corrupt("its header is damaged");
  // Sizes from the header are checked against the file's before anything is allocated.
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  const auto w = static_cast<std::uint64_t>(h.weight_bytes);
  const auto n = static_cast<std::uint64_t>(h.vertices);
  const auto arcs = static_cast<std::uint64_t>(h.up_arcs) + static_cast<std::uint64_t>(h.down_arcs);
  if (arcs > (std::uint64_t{1} << 40))
    r.corrupt("its header is damaged");
  const std::uint64_t expected = sizeof(file_header) + 4 * n + 2 * 8 * (n + 1) + (4 + w) * arcs +
                                 (h.potentials != 0 ? w * n : 0) + 8;
  if (ec || size != expected)
    r.corrupt("its size does not match its header (truncated or damaged)");
  hierarchy out;
  out.s_ = std::make_unique<state>();
  out.s_->fingerprint = {h.vertices, h.edges, h.graph_hash};
  if (h.weight_bytes == 4)
    out.s_->prepared = read_prepared<std::int32_t>(r, h);
  else
    out.s_->prepared = read_prepared<std::int64_t>(r, h);
  return out;
}

} // namespace apsp

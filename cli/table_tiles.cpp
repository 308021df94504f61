#include "table_tiles.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <type_traits>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "apsp/hierarchy.hpp"
#include "apsp/table.hpp"

namespace apsp::cli {
namespace {

constexpr const char* manifest_name = "table.manifest";
constexpr const char* manifest_magic = "apsp-table-checkpoint 1";

/// The table's identity: the graph's fingerprint, the dtype, the sets and the tile size. A
/// manifest of another key belongs to another table.
std::string table_key(const graph& g, const std::vector<std::int64_t>& sources,
                      const std::vector<std::int64_t>& targets, const plan& p) {
  const graph_fingerprint f = fingerprint_of(g);
  std::uint64_t h = 1469598103934665603ULL; // FNV-1a over the ids
  const auto mix = [&h](std::uint64_t x) {
    for (int b = 0; b < 8; ++b) {
      h ^= (x >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  };
  for (const std::int64_t v : sources)
    mix(static_cast<std::uint64_t>(v));
  mix(~0ULL);
  for (const std::int64_t v : targets)
    mix(static_cast<std::uint64_t>(v));
  std::ostringstream key;
  key << "graph " << f.vertices << ' ' << f.edges << ' ' << std::hex << f.hash << std::dec
      << " dtype " << to_string(p.type) << " rows " << sources.size() << " cols " << targets.size()
      << " ids " << std::hex << h << std::dec << " tile " << p.block;
  return key.str();
}

/// A tile on the disk: its pairs (s != t) and reachable pairs.
struct tile_counts {
  std::uint64_t pairs = 0;
  std::uint64_t reachable = 0;
};

/// The manifest: the key, then one line per tile on the disk.
class table_manifest {
public:
  table_manifest(std::filesystem::path dir, std::string key)
      : dir_(std::move(dir)), key_(std::move(key)) {}

  /// Reads DIR's manifest (--resume): invalid_input_error when there is none or its key differs.
  void load() {
    std::ifstream in(dir_ / manifest_name);
    std::string magic;
    std::string key;
    if (!in || !std::getline(in, magic) || magic != manifest_magic || !std::getline(in, key)) {
      throw invalid_input_error((dir_ / manifest_name).string() +
                                ": no table checkpoint to resume (start with --checkpoint)");
    }
    if (key != "key " + key_) {
      throw invalid_input_error((dir_ / manifest_name).string() +
                                ": the checkpoint is of another table (" + key.substr(4) +
                                "; this one: " + key_ + ")");
    }
    std::string word;
    std::int64_t tile = 0;
    tile_counts c;
    while (in >> word >> tile >> c.pairs >> c.reachable && word == "tile")
      done_[tile] = c;
  }

  [[nodiscard]] bool has(std::int64_t tile) const { return done_.count(tile) != 0; }
  void add(std::int64_t tile, tile_counts c) { done_[tile] = c; }
  [[nodiscard]] const std::map<std::int64_t, tile_counts>& tiles() const { return done_; }

  /// Writes the manifest atomically (a temporary file renamed over it).
  void save() const {
    std::filesystem::create_directories(dir_);
    const std::filesystem::path tmp = dir_ / (std::string(manifest_name) + ".tmp");
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << manifest_magic << "\nkey " << key_ << '\n';
      for (const auto& [tile, c] : done_)
        out << "tile " << tile << ' ' << c.pairs << ' ' << c.reachable << '\n';
      out.flush();
      if (!out)
        throw io_error(tmp.string() + ": cannot write the table's checkpoint");
    }
    std::filesystem::rename(tmp, dir_ / manifest_name);
  }

private:
  std::filesystem::path dir_;
  std::string key_;
  std::map<std::int64_t, tile_counts> done_;
};

/// Writes tiles into the .npy file, counts them, and keeps the manifest.
class file_sink : public table_tile_sink {
public:
  file_sink(io::npy_rows_file& file, table_manifest* manifest, double every_seconds, dtype type,
            const std::vector<std::int64_t>& sources, const std::vector<std::int64_t>& targets)
      : file_(file), manifest_(manifest), every_(every_seconds), type_(type), sources_(sources),
        targets_(targets), last_save_(std::chrono::steady_clock::now()) {}

  [[nodiscard]] bool has(std::int64_t index) const override {
    return manifest_ != nullptr && manifest_->has(index);
  }

  void put(std::int64_t index, std::int64_t first, std::int64_t count,
           const void* values) override {
    file_.write_rows(first, count, values);
    tile_counts c;
    visit_dtype(type_, [&](auto zero) {
      using T = decltype(zero);
      const T* v = static_cast<const T*>(values);
      const std::size_t cols = targets_.size();
      for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t s = sources_[static_cast<std::size_t>(first + i)];
        for (std::size_t j = 0; j < cols; ++j) {
          if (s == targets_[j])
            continue;
          ++c.pairs;
          if (v[static_cast<std::size_t>(i) * cols + j] < weight_traits<T>::infinity)
            ++c.reachable;
        }
      }
    });
    made_[index] = c;
    if (manifest_ == nullptr)
      return;
    manifest_->add(index, c);
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_save_).count() >= every_)
      save();
  }

  /// The tiles so far on the disk, then in the manifest.
  void save() {
    if (manifest_ == nullptr)
      return;
    file_.sync();
    manifest_->save();
    last_save_ = std::chrono::steady_clock::now();
  }

  [[nodiscard]] tiled_table_counts counts() const {
    tiled_table_counts all;
    const auto add = [&all](const tile_counts& c) {
      all.pairs += c.pairs;
      all.reachable += c.reachable;
    };
    for (const auto& [tile, c] : made_)
      add(c);
    if (manifest_ != nullptr) {
      for (const auto& [tile, c] : manifest_->tiles()) {
        if (made_.count(tile) == 0) {
          add(c);
          ++all.resumed_tiles;
        }
      }
    }
    return all;
  }

private:
  io::npy_rows_file& file_;
  table_manifest* manifest_;
  double every_;
  dtype type_;
  const std::vector<std::int64_t>& sources_;
  const std::vector<std::int64_t>& targets_;
  std::chrono::steady_clock::time_point last_save_;
  std::map<std::int64_t, tile_counts> made_;
};

} // namespace

std::int64_t checkpoint_tile_rows(std::int64_t rows) {
  return std::max<std::int64_t>(1, std::max<std::int64_t>(1024, (rows + 15) / 16));
}

plan solve_tiled_table(const graph& g, const std::vector<std::int64_t>& sources,
                       const std::vector<std::int64_t>& targets, const plan& p,
                       const tile_maker& make, const tiled_table_request& r,
                       tiled_table_counts& counts) {
  const bool checkpointed = !r.checkpoint_dir.empty();
  std::optional<table_manifest> manifest;
  if (checkpointed) {
    manifest.emplace(r.checkpoint_dir, table_key(g, sources, targets, p));
    if (r.resume)
      manifest->load();
  }
  // With a checkpoint the partial file keeps one name, so that a later run finds it; without
  // one, a name of this process's, removed on failure.
  const std::filesystem::path partial =
      r.out + (checkpointed ? std::string(".apsp-table-partial")
                            : ".apsp-partial-" + std::to_string(::getpid()));
  plan ran;
  {
    io::npy_rows_file file(partial, p.type, static_cast<std::int64_t>(sources.size()),
                           static_cast<std::int64_t>(targets.size()), r.resume);
    file_sink sink(file, manifest ? &*manifest : nullptr, r.checkpoint_every, p.type, sources,
                   targets);
    try {
      ran = make(sink, make_progress(r.progress));
    } catch (...) {
      if (checkpointed) {
        try {
          sink.save(); // the tiles made so far, for --resume
        } catch (const std::exception& e) {
          std::fprintf(stderr, "apsp: warning: the table's checkpoint was not saved: %s\n",
                       e.what());
        }
      } else {
        std::error_code ec;
        std::filesystem::remove(partial, ec);
      }
      throw;
    }
    file.sync();
    counts = sink.counts();
  }
  std::filesystem::rename(partial, r.out);
  if (checkpointed) {
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(r.checkpoint_dir) / manifest_name, ec);
    std::filesystem::remove(r.checkpoint_dir, ec); // only when empty
  }
  return ran;
}

} // namespace apsp::cli

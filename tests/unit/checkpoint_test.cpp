// Checkpoint files (src/core/checkpoint.hpp) without a solve: a save becomes resumable only once
// committed; find() names what differs; saved_block() reads the block of a manifest, 0 where
// there is none.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "apsp/error.hpp"
#include "core/checkpoint.hpp"

namespace {

namespace fs = std::filesystem;
using apsp::detail::checkpoint_identity;
using apsp::detail::checkpoint_store;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

checkpoint_identity identity(std::int64_t block) {
  checkpoint_identity id;
  id.n = 5;
  id.block = block;
  id.input_hash = 42;
  return id;
}

TEST(CheckpointStore, SavedBlockReadsTheCommittedManifest) {
  const fs::path dir = fresh_dir("apsp_checkpoint_saved_block");
  EXPECT_EQ(checkpoint_store::saved_block(dir), 0); // no directory
  checkpoint_store store(dir, identity(384), 0, 0.0);
  std::vector<std::int32_t> d(25, 7);
  store.save(1, d.data(), d.size() * sizeof(std::int32_t), nullptr, 0);
  EXPECT_EQ(checkpoint_store::saved_block(dir), 0); // saved, not committed
  store.commit(1, 2);
  EXPECT_EQ(checkpoint_store::saved_block(dir), 384);
  EXPECT_EQ(checkpoint_store::find(dir, identity(384)), 1);
  std::vector<std::int32_t> back(25, 0);
  checkpoint_store::load(dir, identity(384), 0, 1, back.data(), back.size() * sizeof(std::int32_t),
                         nullptr, 0);
  EXPECT_EQ(back, d);
  try {
    (void)checkpoint_store::find(dir, identity(256));
    ADD_FAILURE() << "a checkpoint of block 384 resumed with block 256";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("block 384"), std::string::npos) << e.what();
  }
  apsp::detail::remove_checkpoint_files(dir);
  EXPECT_FALSE(fs::exists(dir));
}

TEST(CheckpointStore, TheDirectoryIsMadeByTheFirstSaveAndGoesWhenItFails) {
  const fs::path dir = fresh_dir("apsp_checkpoint_lazy_dir") / "inner";
  {
    checkpoint_store store(dir, identity(2), 0, 0.0);
    EXPECT_FALSE(fs::exists(dir.parent_path())); // nothing saved, nothing made
    // A write that fails (here from an address that cannot be read) throws and takes the
    // directory it made with it.
    EXPECT_THROW(store.save(1, nullptr, 100, nullptr, 0), apsp::internal_error);
    EXPECT_FALSE(fs::exists(dir));
    std::vector<std::int32_t> d(25, 7);
    store.save(1, d.data(), d.size() * sizeof(std::int32_t), nullptr, 0);
    EXPECT_TRUE(fs::is_directory(dir));
  }
  fs::remove_all(dir.parent_path());
}

TEST(CheckpointStore, SavedBlockIsZeroForOtherFiles) {
  const fs::path dir = fresh_dir("apsp_checkpoint_not_a_manifest");
  fs::create_directories(dir);
  std::ofstream(dir / "manifest") << "block 256\n"; // no "apsp-checkpoint 1" line
  EXPECT_EQ(checkpoint_store::saved_block(dir), 0);
  std::ofstream(dir / "manifest") << "apsp-checkpoint 1\nrounds_done 3\n"; // no block
  EXPECT_EQ(checkpoint_store::saved_block(dir), 0);
  fs::remove_all(dir);
}

} // namespace

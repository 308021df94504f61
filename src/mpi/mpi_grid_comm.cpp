// grid_comm over MPI (and NCCL for GPU ranks): see mpi_grid_comm.hpp.

#include "mpi/mpi_grid_comm.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>

#include "apsp/error.hpp"
#include "core/tuning.hpp"

namespace apsp::distributed {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// MPI counts are int: larger transfers go in pieces of 1 GiB.
constexpr std::size_t piece = std::size_t{1} << 30;

/// Calls f(pointer, count) for each piece of at most 1 GiB of `bytes` at `data`.
template <class F> void in_pieces(void* data, std::size_t bytes, F&& f) {
  auto* p = static_cast<char*>(data);
  for (std::size_t at = 0; at < bytes; at += piece)
    f(p + at, static_cast<int>(std::min(piece, bytes - at)));
}

void bcast(MPI_Comm c, void* data, std::size_t bytes, int root) {
  in_pieces(data, bytes, [&](char* p, int count) {
    check_mpi(MPI_Bcast(p, count, MPI_BYTE, root, c), "MPI_Bcast");
  });
}

/// Whether the ranks of `line` all use different GPUs (host name and device index).
bool distinct_gpus(MPI_Comm line, int device) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  const std::string me = std::string(name, static_cast<std::size_t>(len)) + "#" +
                         std::to_string(device);
  int size = 0;
  MPI_Comm_size(line, &size);
  std::vector<char> all(static_cast<std::size_t>(size) * (MPI_MAX_PROCESSOR_NAME + 16), '\0');
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME + 16, '\0');
  std::copy(me.begin(), me.end(), mine.begin());
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(),
                static_cast<int>(mine.size()), MPI_CHAR, line);
  std::vector<std::string> keys;
  for (int r = 0; r < size; ++r)
    keys.emplace_back(all.data() + static_cast<std::size_t>(r) * mine.size());
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

} // namespace

void mpi_failed(int code, const std::string& what) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw internal_error(what + ": " + std::string(text, static_cast<std::size_t>(len)));
}

void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS)
    mpi_failed(code, what);
}

mpi_grid_comm::mpi_grid_comm(MPI_Comm world, int rows, int cols) : size_(rows * cols) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_dup(world, &world_);
  MPI_Comm_split(world, rank / cols, rank % cols, &row_);
  MPI_Comm_split(world, rank % cols, rank / cols, &col_);
  row_size_ = cols;
  col_size_ = rows;
  row_index_ = rank % cols;
  col_index_ = rank / cols;
}

void mpi_grid_comm::count(traffic& t, std::size_t bytes, int members, int root, int me) {
  if (members <= 1)
    return;
  const auto b = static_cast<std::int64_t>(bytes);
  if (me == root) {
    t.sent_messages += members - 1;
    t.sent_bytes += b * (members - 1);
  } else {
    t.received_messages += 1;
    t.received_bytes += b;
  }
}

mpi_grid_comm::~mpi_grid_comm() {
  if (connecting_.joinable())
    connecting_.join();
  nccl_row_.reset();
  nccl_col_.reset();
  MPI_Comm_free(&row_);
  MPI_Comm_free(&col_);
  MPI_Comm_free(&world_);
}

std::string mpi_grid_comm::use_device(int device) {
  std::string why;
  if (!nccl_built(why))
    return "panels through host memory (" + why + ")";
  if (!apsp::detail::current_tuning().nccl)
    return "panels through host memory (APSP_NCCL=0)";
  // The same choice on every rank: NCCL for the rows only if every row has distinct GPUs.
  int ok[2] = {distinct_gpus(row_, device) ? 1 : 0, distinct_gpus(col_, device) ? 1 : 0};
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, ok, 2, MPI_INT, MPI_MIN, world_), "MPI_Allreduce");
  if (ok[0] == 1)
    nccl_row_ = make_nccl_lines(row_, device);
  if (ok[1] == 1)
    nccl_col_ = make_nccl_lines(col_, device);
  if (ok[0] == 1 && ok[1] == 1)
    return "panels GPU to GPU (NCCL)";
  const std::string shared = " (ranks share a GPU)";
  if (ok[0] == 1)
    return "NCCL along process rows, host memory along columns" + shared;
  if (ok[1] == 1)
    return "NCCL along process columns, host memory along rows" + shared;
  return "panels through host memory" + shared;
}

void mpi_grid_comm::start_connect() {
  if (nccl_row_ || nccl_col_) {
    connecting_ = std::thread([this] {
      try {
        const auto t0 = std::chrono::steady_clock::now();
        if (nccl_row_)
          nccl_row_->connect();
        if (nccl_col_)
          nccl_col_->connect();
        connect_seconds_ =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      } catch (...) {
        connect_failure_ = std::current_exception();
      }
    });
  }
}

double mpi_grid_comm::wait_device() {
  if (connecting_.joinable())
    connecting_.join();
  if (connect_failure_)
    std::rethrow_exception(std::exchange(connect_failure_, nullptr));
  return connect_seconds_;
}

void mpi_grid_comm::bcast_row(void* data, std::size_t bytes, int root_col) {
  count(stats_.pivots, bytes, row_size_, root_col, row_index_);
  const auto t0 = std::chrono::steady_clock::now();
  bcast(row_, data, bytes, root_col);
  stats_.broadcast_seconds += seconds_since(t0);
}

void mpi_grid_comm::bcast_col(void* data, std::size_t bytes, int root_row) {
  count(stats_.pivots, bytes, col_size_, root_row, col_index_);
  const auto t0 = std::chrono::steady_clock::now();
  bcast(col_, data, bytes, root_row);
  stats_.broadcast_seconds += seconds_since(t0);
}

void mpi_grid_comm::start_bcast_row(void* data, std::size_t bytes, int root_col) {
  start_on_row(stats_.panels, pending_, data, bytes, root_col);
}

void mpi_grid_comm::start_bcast_col(void* data, std::size_t bytes, int root_row) {
  start_on_col(stats_.panels, pending_, data, bytes, root_row);
}

void mpi_grid_comm::start_pivot_row(void* data, std::size_t bytes, int root_col) {
  start_on_row(stats_.pivots, pivot_pending_, data, bytes, root_col);
}

void mpi_grid_comm::start_pivot_col(void* data, std::size_t bytes, int root_row) {
  start_on_col(stats_.pivots, pivot_pending_, data, bytes, root_row);
}

void mpi_grid_comm::start_on_row(traffic& t, std::vector<MPI_Request>& into, void* data,
                                 std::size_t bytes, int root_col) {
  count(t, bytes, row_size_, root_col, row_index_);
  start(row_, data, bytes, root_col, into);
}

void mpi_grid_comm::start_on_col(traffic& t, std::vector<MPI_Request>& into, void* data,
                                 std::size_t bytes, int root_row) {
  count(t, bytes, col_size_, root_row, col_index_);
  start(col_, data, bytes, root_row, into);
}

bool mpi_grid_comm::pivot_arrived() {
  if (pivot_pending_.empty())
    return true;
  int done = 0;
  check_mpi(MPI_Testall(static_cast<int>(pivot_pending_.size()), pivot_pending_.data(), &done,
                        MPI_STATUSES_IGNORE),
            "MPI_Testall");
  if (done)
    pivot_pending_.clear();
  return done != 0;
}

void mpi_grid_comm::start(MPI_Comm c, void* data, std::size_t bytes, int root,
                          std::vector<MPI_Request>& into) {
  in_pieces(data, bytes, [&](char* p, int count) {
    MPI_Request req{};
    check_mpi(MPI_Ibcast(p, count, MPI_BYTE, root, c, &req), "MPI_Ibcast");
    into.push_back(req);
  });
}

void mpi_grid_comm::wait_all() {
  ++stats_.waits;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::vector<MPI_Request>* requests : {&pivot_pending_, &pending_}) {
    if (!requests->empty())
      check_mpi(
          MPI_Waitall(static_cast<int>(requests->size()), requests->data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
    requests->clear();
  }
  stats_.broadcast_seconds += seconds_since(t0);
}

bool mpi_grid_comm::poll() {
  for (std::vector<MPI_Request>* requests : {&pivot_pending_, &pending_}) {
    if (requests->empty())
      continue;
    int done = 0;
    check_mpi(MPI_Testall(static_cast<int>(requests->size()), requests->data(), &done,
                          MPI_STATUSES_IGNORE),
              "MPI_Testall");
    if (done)
      requests->clear();
  }
  return !pivot_pending_.empty() || !pending_.empty();
}

std::uint32_t mpi_grid_comm::all_or(std::uint32_t bits) {
  ++stats_.agreements;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint32_t out = 0;
  check_mpi(MPI_Allreduce(&bits, &out, 1, MPI_UINT32_T, MPI_BOR, world_), "MPI_Allreduce");
  stats_.agreement_seconds += seconds_since(t0);
  return out;
}

bool mpi_grid_comm::device_row() const noexcept {
  return nccl_row_ != nullptr;
}

bool mpi_grid_comm::device_col() const noexcept {
  return nccl_col_ != nullptr;
}

void mpi_grid_comm::device_bcast_row(void* data, std::size_t bytes, int root_col, void* stream) {
  count(stats_.device, bytes, row_size_, root_col, row_index_);
  nccl_row_->bcast(data, bytes, root_col, stream);
}

void mpi_grid_comm::device_bcast_col(void* data, std::size_t bytes, int root_row, void* stream) {
  count(stats_.device, bytes, col_size_, root_row, col_index_);
  nccl_col_->bcast(data, bytes, root_row, stream);
}

} // namespace apsp::distributed

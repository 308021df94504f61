// The distributed solver (apsp/distributed.hpp): MPI ranks on a process grid, each the cpu
// executor of the round schedule (core/round_schedule.hpp) on its own block-cyclic tiles, with
// MPI broadcasts along process rows and columns, and MPI-IO for the outputs.

#include "apsp/distributed.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "core/backend.hpp"
#include "core/checkpoint.hpp"
#include "core/checks.hpp"
#include "core/cpu_placement.hpp"
#include "core/stats.hpp"
#include "core/driver_fields.hpp"
#include "core/host_memory.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/process_checkpoints.hpp"
#include "core/round_schedule.hpp"
#include "core/tuning.hpp"
#include "cpu/blocked_fw.hpp"
#include "cpu/cpu_isa.hpp"
#include "cuda/rank_executor.hpp"
#include "mpi/mpi_grid_comm.hpp"
#include "mpi/rank_report.hpp"
#include "mpi/session_state.hpp"

namespace apsp::distributed {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

template <class T> MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return MPI_UINT64_T;
  else if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else {
    static_assert(std::is_same_v<T, double>);
    return MPI_DOUBLE;
  }
}

/// The near-square grid rows x cols = ranks, rows <= cols.
std::pair<int, int> choose_grid(int ranks) {
  int rows = static_cast<int>(std::sqrt(static_cast<double>(ranks)));
  while (rows > 1 && ranks % rows != 0)
    --rows;
  return {std::max(rows, 1), ranks / std::max(rows, 1)};
}

/// Error kinds carried between ranks, so that every rank throws the same type.
enum class failure_kind : int {
  negative_cycle = 1,
  out_of_memory,
  overflow_risk,
  invalid_input,
  invalid_argument,
  backend_unavailable,
  cancelled,
  internal
};

failure_kind classify(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const negative_cycle_error&) {
    return failure_kind::negative_cycle;
  } catch (const out_of_memory_error&) {
    return failure_kind::out_of_memory;
  } catch (const std::bad_alloc&) {
    return failure_kind::out_of_memory;
  } catch (const overflow_risk_error&) {
    return failure_kind::overflow_risk;
  } catch (const invalid_input_error&) {
    return failure_kind::invalid_input;
  } catch (const invalid_argument_error&) {
    return failure_kind::invalid_argument;
  } catch (const backend_unavailable_error&) {
    return failure_kind::backend_unavailable;
  } catch (const cancelled_error&) {
    return failure_kind::cancelled;
  } catch (...) {
    return failure_kind::internal;
  }
}

std::string message_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "out of host memory";
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "unknown failure";
  }
}

[[noreturn]] void throw_kind(failure_kind k, const std::string& what,
                             std::vector<std::int64_t> vertices) {
  switch (k) {
  case failure_kind::negative_cycle:
    throw negative_cycle_error(what, std::move(vertices));
  case failure_kind::out_of_memory:
    throw out_of_memory_error(what);
  case failure_kind::overflow_risk:
    throw overflow_risk_error(what);
  case failure_kind::invalid_input:
    throw invalid_input_error(what);
  case failure_kind::invalid_argument:
    throw invalid_argument_error(what);
  case failure_kind::backend_unavailable:
    throw backend_unavailable_error(what);
  case failure_kind::cancelled:
    throw cancelled_error(what);
  case failure_kind::internal:
    break;
  }
  throw internal_error(what);
}

} // namespace

bool available() noexcept {
  return true;
}

int launched_size() noexcept {
  return detail::launcher_size_from_environment();
}

session::session() : s_(std::make_unique<state>()) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    s_->initialised_here = true;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &s_->world);
  MPI_Comm_rank(s_->world, &s_->rank);
  MPI_Comm_size(s_->world, &s_->size);
  MPI_Comm_split_type(s_->world, MPI_COMM_TYPE_SHARED, s_->rank, MPI_INFO_NULL, &s_->node);
  MPI_Comm_rank(s_->node, &s_->node_rank);
  MPI_Comm_size(s_->node, &s_->node_size);
}

session::~session() {
  MPI_Comm_free(&s_->node);
  MPI_Comm_free(&s_->world);
  if (s_->initialised_here) {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised)
      MPI_Finalize();
  }
}

void session::barrier() const {
  MPI_Barrier(s_->world);
}

int session::rank() const noexcept {
  return s_->rank;
}
int session::size() const noexcept {
  return s_->size;
}
int session::node_rank() const noexcept {
  return s_->node_rank;
}
int session::node_size() const noexcept {
  return s_->node_size;
}

void session::agree_on_failure(std::exception_ptr local) const {
  const int mine = local ? s_->rank : INT_MAX;
  int first = INT_MAX;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, s_->world), "MPI_Allreduce");
  if (first == INT_MAX)
    return;
  // The lowest failing rank's kind, message and (negative cycle) vertices go to all ranks.
  int kind = 0;
  std::string text;
  std::vector<std::int64_t> vertices;
  if (s_->rank == first) {
    kind = static_cast<int>(classify(local));
    text = message_of(local);
    try {
      std::rethrow_exception(local);
    } catch (const negative_cycle_error& e) {
      vertices = e.vertices();
    } catch (...) {
    }
  }
  long long sizes[3] = {kind, static_cast<long long>(text.size()),
                        static_cast<long long>(vertices.size())};
  MPI_Bcast(sizes, 3, MPI_LONG_LONG, first, s_->world);
  text.resize(static_cast<std::size_t>(sizes[1]));
  vertices.resize(static_cast<std::size_t>(sizes[2]));
  MPI_Bcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, first, s_->world);
  MPI_Bcast(vertices.data(), static_cast<int>(vertices.size()), MPI_INT64_T, first, s_->world);
  if (local && s_->rank == first)
    std::rethrow_exception(local);
  throw_kind(static_cast<failure_kind>(sizes[0]), text, std::move(vertices));
}

namespace {

/// Threads per rank: what this rank may run on, shared with the other ranks of its node.
int rank_threads(const session& s, const solve_options& o) {
  APSP_EXPECTS(o.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(o.threads));
  if (o.threads > 0)
    return o.threads;
  const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min(omp_get_num_procs(), hardware / std::max(1, s.node_size())));
}

/// The ranks' part of a distributed plan.
const drivers::distributed& ranks_of(const plan& p) {
  const auto* d = std::get_if<drivers::distributed>(&p.run);
  APSP_EXPECTS(d != nullptr, invalid_argument_error,
               "the distributed solver runs a distributed plan, not " + to_string(p.run));
  return *d;
}

detail::grid_layout layout_of(const plan& p, int rank) {
  const drivers::distributed& d = ranks_of(p);
  detail::grid_layout L;
  L.n = p.n;
  L.b = std::max<std::int64_t>(p.block, 1);
  L.rows = d.grid_rows;
  L.cols = d.grid_cols;
  L.row = rank / d.grid_cols;
  L.col = rank % d.grid_cols;
  return L;
}

/// Ranks of this node whose GPU is `device`.
int gpu_sharing(const session& s, int device) {
  MPI_Comm node{};
  MPI_Comm_split_type(world_of(s), MPI_COMM_TYPE_SHARED, s.rank(), MPI_INFO_NULL, &node);
  int size = 0;
  MPI_Comm_size(node, &size);
  std::vector<int> devices(static_cast<std::size_t>(size));
  MPI_Allgather(&device, 1, MPI_INT, devices.data(), 1, MPI_INT, node);
  MPI_Comm_free(&node);
  return static_cast<int>(std::count(devices.begin(), devices.end(), device));
}

/// A rank's host memory: its tiles (none where GPU ranks reduce metrics on their devices) and
/// the cpu executor's workspace.
std::uint64_t rank_memory(const plan& p, const solve_options& o, int rank, bool host_tiles = true) {
  const detail::grid_layout L = layout_of(p, rank);
  const auto cells =
      static_cast<std::uint64_t>(L.local_rows()) * static_cast<std::uint64_t>(L.local_cols());
  const drivers::distributed& d = ranks_of(p);
  return (host_tiles ? cells * (size_of(o.type) + (o.paths ? 4 : 0)) : 0) +
         detail::cpu::workspace_bytes(L.tile_rows(), L.tile_cols(), L.b, d.threads, size_of(o.type),
                                      o.paths, d.ranks > 1);
}

/// Plan `p` (its driver fitting) refused when the ranks of a node need more host memory than
/// it has.
void check_node_memory(plan& p) {
  const drivers::distributed& ranks = ranks_of(p);
  p.fits = p.driver_fits;
  if (p.fits && ranks.node_memory != 0 &&
      p.host_bytes * static_cast<std::uint64_t>(ranks.ranks_per_node) > ranks.node_memory) {
    p.fits = false;
    p.reason = "each rank needs up to " + std::to_string(p.host_bytes >> 20) + " MiB and " +
               std::to_string(ranks.ranks_per_node) + " ranks share a node of " +
               std::to_string(ranks.node_memory >> 20) +
               " MiB; use more nodes or fewer ranks per node";
  }
}

/// Whether the ranks of a metrics run under plan `p` reduce their tiles on their devices and
/// keep none in host memory: GPU ranks that build their tiles from the edges (no resume), with
/// no paths.
bool ranks_reduce_on_devices(const plan& p, const solve_options& o) {
  return ranks_of(p).gpu && p.n > 0 && !o.paths && o.resume_dir.empty();
}

/// Plan `p` for metrics: where ranks_reduce_on_devices, only their workspace is counted.
void count_metrics_memory(plan& p, const solve_options& o, int ranks_total) {
  if (!ranks_reduce_on_devices(p, o))
    return;
  p.host_bytes = 0;
  for (int r = 0; r < ranks_total; ++r)
    p.host_bytes = std::max(p.host_bytes, rank_memory(p, o, r, false));
  p.working_host_bytes = p.host_bytes;
  check_node_memory(p);
}

} // namespace

plan make_plan(const session& s, std::int64_t n, const solve_options& o, const options& d) {
  APSP_EXPECTS(n >= 0 && n < (std::int64_t{1} << 31), invalid_argument_error,
               "the distributed solver handles 0 to 2^31 - 1 vertices");
  APSP_EXPECTS(o.backend != backend_kind::reference, backend_unavailable_error,
               "the distributed solver's ranks compute with the cuda or cpu back end, not the "
               "reference one");
  APSP_EXPECTS(o.block >= 0, invalid_argument_error,
               "block must be >= 0 (0 = choose), got " + std::to_string(o.block));
  plan p;
  drivers::distributed ranks;
  ranks.ranks = s.size();
  ranks.lookahead = d.lookahead;
  p.n = n;
  p.type = o.type;
  p.paths = o.paths;
  p.algorithm = algorithm_kind::floyd_warshall;
  p.algorithm_reason = o.algorithm == algorithm_kind::floyd_warshall
                           ? "requested"
                           : "under mpirun the ranks run Floyd-Warshall";
  p.checkpointed = (!o.checkpoint_dir.empty() || !o.resume_dir.empty()) && n > 0;
  if (d.grid_rows > 0 || d.grid_cols > 0) {
    APSP_EXPECTS(d.grid_rows > 0 && d.grid_cols > 0 &&
                     static_cast<long long>(d.grid_rows) * d.grid_cols == s.size(),
                 invalid_argument_error,
                 "--grid " + std::to_string(d.grid_rows) + "x" + std::to_string(d.grid_cols) +
                     " does not match the " + std::to_string(s.size()) +
                     " MPI ranks (rows x columns must equal the number of ranks)");
    ranks.grid_rows = d.grid_rows;
    ranks.grid_cols = d.grid_cols;
  } else {
    std::tie(ranks.grid_rows, ranks.grid_cols) = choose_grid(s.size());
  }
  const int widest = std::max(ranks.grid_rows, ranks.grid_cols);
  ranks.threads = rank_threads(s, o);
  // GPU ranks: int32 or float32 with a GPU on every rank (cuda asks for them, auto takes them).
  const cuda::rank_device gpu =
      o.backend == backend_kind::cpu ? cuda::rank_device{} : cuda::pick_rank_device(s.node_rank());
  const bool gpu_type = o.type == dtype::int32 || o.type == dtype::float32;
  int all_have_gpu = gpu.available ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_have_gpu, 1, MPI_INT, MPI_MIN, world_of(s));
  if (o.backend == backend_kind::cuda) {
    APSP_EXPECTS(gpu_type, backend_unavailable_error,
                 "GPU ranks solve int32 and float32; " + std::string(to_string(o.type)) +
                     " runs on cpu ranks (--backend cpu)");
    APSP_EXPECTS(all_have_gpu == 1, backend_unavailable_error,
                 "--backend cuda: not every rank has a GPU" +
                     (gpu.available ? std::string() : " (this one: " + gpu.name + ")"));
  }
  ranks.gpu = gpu_type && all_have_gpu == 1 && o.backend != backend_kind::cpu;
  if (o.block > 0) {
    APSP_EXPECTS(!ranks.gpu || o.block % 128 == 0, invalid_argument_error,
                 "GPU ranks need --block to be a multiple of 128, got " + std::to_string(o.block));
    p.block = ranks.gpu ? o.block : std::min(o.block, std::max<std::int64_t>(n, 1));
  } else if (ranks.gpu) {
    // Wide enough for the product kernels, narrow enough that the host's panels stay small.
    p.block = 256;
    if ((n + p.block - 1) / p.block < 2 * widest)
      p.block = 128;
  } else {
    // The cpu back end's tile for the local matrix, halved while the tiles are too few to give
    // every rank of the grid a share of each round (down to 32).
    solve_options local = o;
    local.backend = backend_kind::cpu;
    local.threads = ranks.threads;
    const std::int64_t local_n = n / widest;
    p.block = std::max<std::int64_t>(
        1, detail::make_cpu_backend()->make_plan(local_n > 0 ? local_n : n, local).block);
    while (p.block > 32 && (n + p.block - 1) / p.block < 2 * widest)
      p.block /= 2;
    p.block = std::min(p.block, std::max<std::int64_t>(n, 1));
  }
  p.rounds = n == 0 ? 0 : (n + p.block - 1) / p.block;
  int node_ranks = s.node_size();
  MPI_Allreduce(MPI_IN_PLACE, &node_ranks, 1, MPI_INT, MPI_MAX, world_of(s));
  ranks.ranks_per_node = node_ranks;
  ranks.node_memory = host_memory_bytes();
  const std::string cpu = std::to_string(ranks.threads) + " threads, " +
                          std::string(detail::cpu::to_string(detail::cpu::selected_isa()));
  p.device = "cpu (" + cpu + ") per rank";
  if (ranks.gpu) {
    ranks.gpu_device = gpu.device;
    p.device = gpu.name + " per rank (device " + std::to_string(gpu.device) + " here)";
  }
  p.run = ranks;
  detail::derive_driver_fields(p, backend_kind::cpu);
  for (int r = 0; r < s.size(); ++r)
    p.host_bytes = std::max(p.host_bytes, rank_memory(p, o, r));
  p.working_host_bytes = p.host_bytes;
  if (ranks.gpu) {
    for (int r = 0; r < s.size(); ++r)
      p.device_bytes = std::max(
          p.device_bytes, cuda::rank_executor_bytes(layout_of(p, r), size_of(o.type), o.paths));
    // Ranks of this node that share this rank's GPU.
    const int sharing = gpu_sharing(s, gpu.device);
    int fits_here = p.device_bytes * static_cast<std::uint64_t>(sharing) <= gpu.free_bytes ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &fits_here, 1, MPI_INT, MPI_MIN, world_of(s));
    if (fits_here == 0) {
      p.fits = false;
      p.reason = "each rank's GPU needs up to " + std::to_string(p.device_bytes >> 20) +
                 " MiB (times the ranks sharing a GPU); use more ranks or --backend cpu";
    }
  }
  p.driver_fits = p.fits;
  check_node_memory(p);
  return p;
}

namespace {

/// Throws for a failed MPI-IO call on the output `target` (messages name it, not its partial
/// file), as a one-process write would: a path that cannot be written (missing, no access,
/// read-only) is invalid_argument_error, a full disk or quota io_error, anything else
/// internal_error.
void check_output(int code, const std::string& what, const std::filesystem::path& target) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  const std::string message =
      "cannot write " + target.string() + ": " + what + ": " + std::string(text, len);
  int cls = 0;
  MPI_Error_class(code, &cls);
  if (cls == MPI_ERR_NO_SUCH_FILE || cls == MPI_ERR_ACCESS || cls == MPI_ERR_READ_ONLY ||
      cls == MPI_ERR_BAD_FILE)
    throw invalid_argument_error(message);
  if (cls == MPI_ERR_NO_SPACE || cls == MPI_ERR_QUOTA || cls == MPI_ERR_IO)
    throw io_error(message);
  throw internal_error(message);
}

/// Writes a rank's tiles (local_rows x local_cols of `etype`) into `path` after `header`, each
/// rank its own blocks (MPI_Type_create_darray describes them), collectively. `target`: the
/// output `path` will become, for messages.
void write_tiles(MPI_Comm world, const detail::grid_layout& L, int ranks, int rank,
                 const void* local, MPI_Datatype etype, const std::filesystem::path& path,
                 const std::string& header, const std::filesystem::path& target) {
  MPI_File fh{};
  check_output(
      MPI_File_open(world, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
      "cannot create it", target);
  struct closer {
    MPI_File* f;
    ~closer() {
      if (*f != MPI_FILE_NULL)
        MPI_File_close(f);
    }
  } close_on_error{&fh};
  check_output(MPI_File_set_size(fh, 0), "cannot truncate it", target);
  if (rank == 0 && !header.empty()) {
    check_output(MPI_File_write_at(fh, 0, header.data(), static_cast<int>(header.size()), MPI_BYTE,
                                   MPI_STATUS_IGNORE),
                 "cannot write its header", target);
  }
  if (L.n == 0) { // an empty matrix is its header alone (MPI cannot describe 0 x 0 blocks)
    check_output(MPI_File_close(&fh), "cannot close it", target);
    return;
  }
  const int gsizes[2] = {static_cast<int>(L.n), static_cast<int>(L.n)};
  const int distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
  const int dargs[2] = {static_cast<int>(L.b), static_cast<int>(L.b)};
  const int psizes[2] = {L.rows, L.cols};
  MPI_Datatype filetype{};
  check_mpi(MPI_Type_create_darray(ranks, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                   etype, &filetype),
            "MPI_Type_create_darray");
  MPI_Type_commit(&filetype);
  int code = MPI_File_set_view(fh, static_cast<MPI_Offset>(header.size()), etype, filetype,
                               "native", MPI_INFO_NULL);
  // One local row is one element of the write, so counts stay within int.
  const std::int64_t rows = L.local_rows();
  const std::int64_t cols = L.local_cols();
  MPI_Datatype row_type{};
  MPI_Type_contiguous(static_cast<int>(std::max<std::int64_t>(cols, 1)), etype, &row_type);
  MPI_Type_commit(&row_type);
  if (code == MPI_SUCCESS) {
    code = MPI_File_write_all(fh, local, static_cast<int>(rows * cols > 0 ? rows : 0), row_type,
                              MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&row_type);
  MPI_Type_free(&filetype);
  check_output(code, "cannot write the values", target);
  check_output(MPI_File_close(&fh), "cannot close it", target);
}

/// This rank's report of its rounds (the GPU's times are added by the caller): where it ran,
/// what its communicator carried, and its busiest threads.
rank_report report_of(const session& s, const plan& p, const comm_stats& c, double rounds,
                      const std::vector<detail::thread_usage>& threads) {
  const drivers::distributed& ranks = ranks_of(p);
  rank_report r;
  r.rank = s.rank();
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  r.host.assign(name, static_cast<std::size_t>(len));
  if (const auto& placed = session_access::of(s).placed) {
    r.cpus = placed->cpus;
    r.placement = placed->how;
  } else {
    r.cpus = detail::format_cpu_list(detail::allowed_cpus());
    r.placement = "CPUs " + r.cpus + " (not placed by apsp)";
  }
  r.computes_on = ranks.gpu ? "GPU " + std::to_string(ranks.gpu_device)
                            : "cpu, " + std::to_string(ranks.threads) + " threads";
  r.rounds_seconds = rounds;
  r.communication_seconds = c.broadcast_seconds;
  r.wait_seconds = c.agreement_seconds;
  r.compute_seconds = std::max(0.0, rounds - c.broadcast_seconds - c.agreement_seconds);
  r.pivots = c.pivots;
  r.panels = c.panels;
  r.device = c.device;
  r.waits = c.waits;
  r.agreements = c.agreements;
  r.threads = busiest(threads, 6);
  return r;
}

/// GPU ranks on one node whose panels all travel GPU to GPU: look-ahead by default only below
/// this n. For large n the split update costs more than the broadcasts it hides, while for
/// small n it hides the pivot and panel steps of short rounds (measured:
/// docs/dev/benchmark-log.md, 'Figures from code comments';
/// bench/results/mpi_gpu_ranks_2026-11-23.csv).
constexpr std::int64_t gpu_lookahead_below_n = 50000;

/// A metrics run (compute_metrics): what to reduce the tiles to, and the result.
struct rank_metrics {
  metrics_options options;
  graph_metrics result;
};

/// Element-wise reductions over every rank, for metrics_accumulator::combine.
struct all_ranks {
  MPI_Comm comm;
  template <class V> void max(V* values, std::size_t count) const {
    reduce(values, count, MPI_MAX);
  }
  template <class V> void sum(V* values, std::size_t count) const {
    reduce(values, count, MPI_SUM);
  }
  template <class V> void reduce(V* values, std::size_t count, MPI_Op op) const {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), mpi_type<V>(), op, comm),
              "MPI_Allreduce");
  }
};

/// The metrics of the distances in every rank's tiles (collective): each rank takes its parts
/// of rows with the accumulator of one process, on its threads; then the partials of all
/// ranks are combined, and every rank finishes the same metrics.
template <class T>
graph_metrics reduce_tiles(MPI_Comm world, const detail::grid_layout& L, const T* local,
                           int threads, const metrics_options& m) {
  detail::metrics_accumulator<T> acc(L.n, m);
  const std::int64_t rows = L.local_rows();
  const std::int64_t cols = L.local_cols();
  std::vector<std::int64_t> columns(static_cast<std::size_t>(cols));
  for (std::int64_t k = 0; k < cols; ++k)
    columns[static_cast<std::size_t>(k)] = L.global_col(k);
  const std::int64_t* global = columns.data();
  const int workers =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, rows)));
  acc.start(workers);
#pragma omp parallel for num_threads(workers) schedule(dynamic, 16)
  for (std::int64_t i = 0; i < rows; ++i) {
    acc.take_part(omp_get_thread_num(), L.global_row(i), local + i * cols, cols,
                  [global](std::int64_t k) { return global[k]; });
  }
  acc.combine(all_ranks{world});
  return acc.finish();
}

/// One rank's solve of `planned`, in the order its stages run: setup (the tiles allocated and
/// filled, or loaded from a checkpoint; GPU ranks: on the device), rounds, gather (negative
/// cycles, the summary's sums, the metrics) and write (the outputs, with MPI-IO). The members
/// are declared in the order the stages make them, so they are destroyed in reverse.
template <class T> class rank_solve {
public:
  rank_solve(const session& s, const graph& g, const plan& planned, const solve_options& o,
             const options& d, const detail::weight_facts& facts, rank_metrics* metrics)
      : t0_(clock_type::now()), s_(s), g_(g), o_(o), d_(d), facts_(facts), metrics_(metrics),
        world_(world_of(s)), out_(first_summary(planned)), ranks_(ranks_of(out_.plan)),
        L_(layout_of(out_.plan, s.rank())), rows_(L_.local_rows()), cols_(L_.local_cols()),
        cells_(static_cast<std::size_t>(rows_ * cols_)),
        gpu_fill_(gpu_type && ranks_.gpu && o.resume_dir.empty()),
        reduce_on_device_(gpu_type && metrics != nullptr &&
                          ranks_reduce_on_devices(out_.plan, o)) {}
  rank_solve(const rank_solve&) = delete;
  rank_solve& operator=(const rank_solve&) = delete;

  void setup() {
    const plan& p = out_.plan;
    id_ = {.n = p.n,
           .type = o_.type,
           .paths = o_.paths,
           .block = p.block,
           .rows = ranks_.grid_rows,
           .cols = ranks_.grid_cols};
    if (reduce_on_device_) {
      device_acc_.emplace(p.n, metrics_->options);
      device_sink_.emplace(*device_acc_, detail::path_limit<T>(facts_));
    }
    // The setup of a solve in one process (core/process_checkpoints.hpp), on this rank's tiles.
    s_.agree([&] {
      try {
        if (!reduce_on_device_) {
          local_ = std::make_unique_for_overwrite<T[]>(cells_);
          detail::advise_huge_pages(local_.get(), cells_ * sizeof(T));
        }
        if (o_.paths) {
          via_ = std::make_unique_for_overwrite<std::int32_t[]>(cells_);
          detail::advise_huge_pages(via_.get(), cells_ * sizeof(std::int32_t));
        }
      } catch (const std::bad_alloc&) {
        throw out_of_memory_error("rank " + std::to_string(s_.rank()) + " cannot allocate its " +
                                  std::to_string(rows_) + " x " + std::to_string(cols_) +
                                  " tiles");
      }
      if (detail::wants_checkpoints(o_))
        id_.input_hash = detail::hash_graph(g_);
      if (detail::fills_from_edges(o_, gpu_fill_))
        detail::fill_initial_tiles(g_, L_, local_.get());
      saved_.emplace(o_, id_, s_.rank(), local_.get(), cells_ * sizeof(T),
                     o_.paths ? via_.get() : nullptr, cells_ * 4, p.rounds);
    });
    hooks_ = saved_ ? saved_->hooks : detail::round_hooks{};
    comm_.emplace(world_, ranks_.grid_rows, ranks_.grid_cols);
    // GPU ranks: the tiles go to the device once; the rounds keep them there. The NCCL
    // communicators connect meanwhile (setup, not rounds).
    tiles_.emplace(detail::local_tiles<T>{L_, local_.get(), o_.paths ? via_.get() : nullptr});
    if constexpr (gpu_type) {
      if (ranks_.gpu && p.n > 0) {
        s_.agree([&] { out_.exchange = comm_->use_device(ranks_.gpu_device); });
        comm_->start_connect();
        s_.agree([&] {
          gpu_ = cuda::make_rank_gpu<T>(ranks_.gpu_device, *tiles_, facts_,
                                        gpu_fill_ ? &g_ : nullptr);
        });
        s_.agree([&] { out_.connect_seconds = comm_->wait_device(); });
      }
    }
    out_.setup_seconds = seconds_since(t0_);
  }

  void rounds() {
    const plan& p = out_.plan;
    const auto t1 = clock_type::now();
    const std::vector<detail::thread_usage> census_before = detail::thread_census();
    s_.agree([&] {
      if (p.n == 0)
        return;
      detail::run_context ctx(o_, p.n, facts_.has_negative);
      if (gpu_) {
        const bool one_node = ranks_.ranks_per_node == ranks_.ranks;
        const bool nvlink_like = one_node && comm_->device_row() && comm_->device_col();
        hooks_.lookahead =
            ranks_.lookahead.value_or(!(nvlink_like && p.n >= gpu_lookahead_below_n));
        out_.lookahead = hooks_.lookahead && comm_->distributed();
        if (device_sink_)
          ctx.set_reduction(&*device_sink_);
        gpu_->run(*comm_, ctx, hooks_);
        return;
      }
      hooks_.lookahead = ranks_.lookahead.value_or(true);
      out_.lookahead = hooks_.lookahead && comm_->distributed();
      detail::cpu::blocked_config cfg;
      cfg.block = p.block;
      cfg.threads = ranks_.threads;
      cfg.kernels = detail::cpu::selected_isa();
      if (const auto& placed = session_access::of(s_).placed) {
        // No oversubscription: the ranks on these CPUs have a thread for each at most.
        cfg.threads_fit =
            static_cast<std::int64_t>(cfg.threads) * placed->sharing <= placed->cpu_count;
      }
      detail::cpu::blocked_floyd_warshall(*tiles_, *comm_, cfg, ctx, hooks_);
    });
    out_.solve_seconds = seconds_since(t1);
    rank_report me = report_of(s_, p, comm_->stats(), out_.solve_seconds,
                               detail::census_since(census_before, detail::thread_census()));
    if constexpr (gpu_type) {
      if (gpu_) {
        s_.agree([&] {
          const cuda::rank_gpu_times t = gpu_->times();
          me.compute_seconds = std::max(0.0, t.compute_span - t.panel_waits);
          me.communication_seconds += t.exchange;
          me.wait_seconds += t.panel_waits;
          me.download_seconds = t.download;
        });
      }
    }
    collect_reports(world_, me, out_);
  }

  /// Returns false when the tiles were reduced on the devices (metrics): nothing to write.
  bool gather() {
    const auto t2 = clock_type::now();
    // Negative cycles: every rank's diagonal entries, gathered in vertex order.
    const detail::negative_diagonal mine = device_sink_
                                               ? device_sink_->negative()
                                               : detail::find_negative_diagonal(L_, local_.get());
    long long count = mine.count;
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_LONG_LONG, MPI_SUM, world_);
    if (count > 0) {
      const int kept = static_cast<int>(mine.first.size());
      std::vector<int> kept_per_rank(static_cast<std::size_t>(s_.size()));
      MPI_Allgather(&kept, 1, MPI_INT, kept_per_rank.data(), 1, MPI_INT, world_);
      std::vector<int> at(kept_per_rank.size(), 0);
      for (std::size_t r = 1; r < at.size(); ++r)
        at[r] = at[r - 1] + kept_per_rank[r - 1];
      std::vector<std::int64_t> all(static_cast<std::size_t>(at.back() + kept_per_rank.back()));
      MPI_Allgatherv(mine.first.data(), kept, MPI_INT64_T, all.data(), kept_per_rank.data(),
                     at.data(), MPI_INT64_T, world_);
      std::sort(all.begin(), all.end());
      detail::negative_diagonal found;
      found.count = count;
      found.first.assign(all.begin(),
                         all.begin() + static_cast<std::ptrdiff_t>(
                                           std::min(all.size(), detail::negative_diagonal::kept)));
      detail::throw_negative_cycle(found);
    }
    if (device_acc_) {
      // The tiles were reduced on the devices: the partials of every rank combined.
      s_.agree([&] {
        device_acc_->combine(all_ranks{world_});
        metrics_->result = device_acc_->finish();
      });
      out_.finish_seconds = seconds_since(t2);
      return false;
    }
    detail::normalize_unreachable_tiles(L_, local_.get(), o_.paths ? via_.get() : nullptr,
                                        facts_);
    const distance_summary st = detail::summarize_tiles(L_, local_.get());
    std::vector<distance_summary> every(static_cast<std::size_t>(s_.size()));
    MPI_Allgather(&st, sizeof st, MPI_BYTE, every.data(), sizeof st, MPI_BYTE, world_);
    distance_summary all;
    all.integral = out_.integral;
    for (const distance_summary& part : every)
      all.merge(part);
    out_.reachable_pairs = all.reachable_pairs;
    out_.max_distance = all.max;
    out_.distance_sum = all.sum_text();
    if (metrics_ != nullptr) {
      s_.agree([&] {
        metrics_->result =
            reduce_tiles(world_, L_, local_.get(), ranks_.threads, metrics_->options);
      });
    }
    out_.finish_seconds = seconds_since(t2);
    return true;
  }

  /// Outputs: OUT.apsp-partial, renamed by the first rank once every rank wrote its blocks.
  void write() {
    const plan& p = out_.plan;
    const auto t3 = clock_type::now();
    std::vector<std::filesystem::path> partials;
    const auto write_one = [&](const std::filesystem::path& final_path, const void* data,
                               MPI_Datatype etype, const std::string& header) {
      const std::filesystem::path partial = final_path.string() + ".apsp-partial";
      partials.push_back(partial);
      write_tiles(world_, L_, s_.size(), s_.rank(), data, etype, partial, header, final_path);
    };
    try {
      s_.agree([&] {
        if (!d_.distances_file.empty()) {
          write_one(d_.distances_file, local_.get(), mpi_type<T>(),
                    io::raw_matrix_header(d_.distances_format, o_.type, p.n));
        }
        if (!d_.paths_file.empty()) {
          write_one(d_.paths_file, via_.get(), MPI_INT32_T,
                    io::raw_matrix_header(io::format::npy, dtype::int32, p.n));
        }
      });
      // A cancel that came during the writes (a signal) still leaves no output.
      s_.agree([&] {
        if (d_.commit_outputs && !d_.commit_outputs())
          throw cancelled_error("cancelled before the outputs replaced their targets");
      });
      s_.agree([&] {
        if (s_.rank() != 0)
          return;
        std::error_code ec;
        if (!d_.distances_file.empty())
          std::filesystem::rename(d_.distances_file.string() + ".apsp-partial", d_.distances_file,
                                  ec);
        if (!ec && !d_.paths_file.empty())
          std::filesystem::rename(d_.paths_file.string() + ".apsp-partial", d_.paths_file, ec);
        APSP_EXPECTS(!ec, io_error,
                     "cannot rename the finished output onto its target: " + ec.message());
      });
    } catch (...) {
      if (s_.rank() == 0) {
        std::error_code ec;
        for (const auto& f : partials)
          std::filesystem::remove(f, ec);
      }
      throw;
    }
    out_.write_seconds = seconds_since(t3);
  }

  /// The summary, once the stages ran.
  [[nodiscard]] summary take_summary() { return std::move(out_); }

private:
  static constexpr bool gpu_type = std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>;

  static summary first_summary(const plan& planned) {
    summary out;
    out.integral = std::is_integral_v<T>;
    out.plan = planned;
    return out;
  }

  const clock_type::time_point t0_;
  const session& s_;
  const graph& g_;
  const solve_options& o_;
  const options& d_;
  const detail::weight_facts& facts_;
  rank_metrics* metrics_;
  const MPI_Comm world_;
  summary out_;
  const drivers::distributed& ranks_; ///< out_.plan's
  const detail::grid_layout L_;
  const std::int64_t rows_;
  const std::int64_t cols_;
  const std::size_t cells_;
  // Uninitialised: the fill, a checkpoint or (GPU ranks) the first download writes every value,
  // so no single-threaded pass touches the pages first.
  std::unique_ptr<T[]> local_;
  std::unique_ptr<std::int32_t[]> via_;
  detail::checkpoint_identity id_;
  /// GPU ranks starting afresh build their tiles on the device from the edges.
  const bool gpu_fill_;
  /// Metrics on GPU ranks: each device reduces its tiles where they are (as one GPU does), so
  /// the tiles never come to host memory, which holds none of them.
  const bool reduce_on_device_;
  std::optional<detail::metrics_accumulator<T>> device_acc_;
  std::optional<detail::metrics_reduction_sink<T>> device_sink_;
  std::optional<detail::process_checkpoints> saved_;
  detail::round_hooks hooks_;
  std::optional<mpi_grid_comm> comm_;
  std::unique_ptr<cuda::rank_gpu<T>> gpu_;
  std::optional<detail::local_tiles<T>> tiles_;
};

template <class T>
summary solve_typed(const session& s, const graph& g, const plan& planned, const solve_options& o,
                    const options& d, const detail::weight_facts& facts, rank_metrics* metrics) {
  rank_solve<T> rank(s, g, planned, o, d, facts, metrics);
  rank.setup();
  rank.rounds();
  if (rank.gather())
    rank.write();
  return rank.take_summary();
}

} // namespace

namespace {

/// The solve of `g` on every rank: the request checked (as before any planning), then `given`
/// (or, when null, the plan made now for these options) run as it is.
summary solve_planned(const session& s, const graph& g, const plan* given, const solve_options& o,
                      const options& d, rank_metrics* metrics = nullptr) {
  detail::weight_facts facts;
  std::optional<graph> usable;
  s.agree([&] {
    APSP_EXPECTS(o.narrow != narrow_mode::required, backend_unavailable_error,
                 "packed 16-bit arithmetic runs on the cuda back end only; the distributed "
                 "solver's ranks compute with the cpu back end");
    APSP_EXPECTS(d.paths_file.empty() || o.paths, invalid_argument_error,
                 "a path matrix output needs solve_options::paths");
    APSP_EXPECTS(o.distances_file.empty() && o.paths_file.empty(), invalid_argument_error,
                 "the distributed solver writes its outputs with MPI-IO (options::distances_file "
                 "and paths_file), not through a memory-mapped solve_options::distances_file");
    if (!d.distances_file.empty())
      (void)io::raw_matrix_header(d.distances_format, o.type, 1); // refuses what cannot be written
    const auto ws = g.summarize_weights();
    facts = detail::analyze_weights(g, o.type, false);
    detail::check_representable(facts, o.type, ws.all_integral);
    // Edges the type cannot hold change nothing once the bound passed: dropped before the fill.
    usable = detail::usable_edges(g, o.type);
  });
  const graph& edges = usable ? *usable : g;
  plan made;
  s.agree([&] {
    if (given == nullptr) {
      made = make_plan(s, edges.num_vertices(), o, d);
      if (metrics != nullptr)
        count_metrics_memory(made, o, s.size());
    }
    const plan& p = given != nullptr ? *given : made;
    const drivers::distributed& ranks = ranks_of(p);
    APSP_EXPECTS(ranks.ranks == s.size() && p.n == edges.num_vertices() && p.type == o.type &&
                     p.paths == o.paths,
                 invalid_argument_error,
                 "the plan was made for another problem (" + std::to_string(p.n) + " vertices, " +
                     std::string(to_string(p.type)) + (p.paths ? " with paths" : "") + ", " +
                     std::to_string(ranks.ranks) + " ranks), not for this one (" +
                     std::to_string(edges.num_vertices()) + " vertices, " +
                     std::string(to_string(o.type)) + (o.paths ? " with paths" : "") + ", " +
                     std::to_string(s.size()) + " ranks)");
    APSP_EXPECTS(p.fits, out_of_memory_error, "the distributed solve does not fit: " + p.reason);
  });
  const plan& p = given != nullptr ? *given : made;
  return visit_dtype(o.type, [&](auto zero) {
    return solve_typed<decltype(zero)>(s, edges, p, o, d, facts, metrics);
  });
}

} // namespace

summary solve(const session& s, const graph& g, const solve_options& o, const options& d) {
  return solve_planned(s, g, nullptr, o, d);
}

summary solve(const session& s, const graph& g, const plan& p, const solve_options& o,
              const options& d) {
  return solve_planned(s, g, &p, o, d);
}

graph_metrics compute_metrics(const session& s, const graph& g, const solve_options& o,
                              const metrics_options& m, const options& d) {
  const auto t0 = clock_type::now();
  s.agree([&] {
    detail::check_metrics_options(o, m);
    APSP_EXPECTS(d.distances_file.empty() && d.paths_file.empty(), invalid_argument_error,
                 "metrics keep no distance matrix: options::distances_file and paths_file do "
                 "not apply");
  });
  solve_options with_progress = o;
  if (m.progress)
    with_progress.progress = m.progress;
  rank_metrics request{m, {}};
  summary ran = solve_planned(s, g, nullptr, with_progress, d, &request);
  graph_metrics out = std::move(request.result);
  out.executed_plan = std::move(ran.plan);
  out.seconds = seconds_since(t0);
  return out;
}

} // namespace apsp::distributed

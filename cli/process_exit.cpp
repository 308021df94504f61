#include "process_exit.hpp"

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "distributed.hpp"
#include "process_knobs.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

enum class detach_mode { never, with_gpu, always };

detach_mode mode_from_environment() noexcept {
  const auto detach = knobs().detached_exit;
  if (!detach)
    return detach_mode::with_gpu;
  return *detach ? detach_mode::always : detach_mode::never;
}

/// What the helper does, written before it starts: it shares this memory with the tool.
struct helper_work {
  pid_t tool = 0;
  int close_count = 0;
  std::array<int, 4096> to_close{};
};
helper_work work;
alignas(64) unsigned char helper_stack[64 * 1024];

bool is_gpu_device_file(const char* target) noexcept {
  return std::strncmp(target, "/dev/nvidia", 11) == 0;
}

/// Walks the open descriptors; returns whether one is a GPU's device file and, with `plan`,
/// lists every other one in `work.to_close`.
bool scan_descriptors(bool plan) noexcept {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr)
    return false;
  const int own = dirfd(dir);
  bool gpu = false;
  while (const dirent* e = readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == own)
      continue;
    char link[64];
    char target[256];
    std::snprintf(link, sizeof link, "/proc/self/fd/%ld", fd);
    const ssize_t len = readlink(link, target, sizeof target - 1);
    target[len > 0 ? len : 0] = '\0';
    if (is_gpu_device_file(target)) {
      gpu = true;
    } else if (plan && work.close_count < static_cast<int>(work.to_close.size())) {
      work.to_close[static_cast<std::size_t>(work.close_count++)] = static_cast<int>(fd);
    }
  }
  closedir(dir);
  return gpu;
}

/// The helper, on helper_stack in the tool's address space and beside the tool's threads until
/// they exit: raw system calls only, no library state. Its return ends it (glibc's clone calls
/// exit); the last reference to the address space and the device files goes with it.
int helper_main(void*) {
  for (int k = 0; k < work.close_count; ++k)
    syscall(SYS_close, work.to_close[static_cast<std::size_t>(k)]);
  // The tool is gone when this process has another parent (init or a subreaper); its exit
  // closed its own copies of the files before that.
  const timespec tick{0, 1'000'000};
  while (static_cast<pid_t>(syscall(SYS_getppid)) == work.tool)
    syscall(SYS_nanosleep, &tick, nullptr);
  return 0;
}

/// Starts the helper for the descriptors scan_descriptors(true) listed in `work`.
void start_helper() noexcept {
  work.tool = getpid();
  // The helper inherits this mask: a Ctrl-C meant for the tool does not cut its short life (it
  // would only move the teardown back onto the caller's clock).
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  // A new process (not a thread: it outlives the tool's exit_group) in the same address space,
  // so that neither the tool's exit nor the helper's start copies or unmaps anything.
  (void)clone(helper_main, helper_stack + sizeof helper_stack, CLONE_VM | SIGCHLD, nullptr);
}

/// Whether the exit may detach at all (the rest depends on the open descriptors).
bool may_detach(detach_mode mode) noexcept {
  return mode != detach_mode::never && !under_mpi();
}

} // namespace

bool exit_detaches() noexcept {
  const detach_mode mode = mode_from_environment();
  return may_detach(mode) && (scan_descriptors(false) || mode == detach_mode::always);
}

void end_process(int code) noexcept {
  trace_with_realtime("main: command done, exiting");
  // What the command printed must have reached its destination (a full disk behind `> file`,
  // a closed pipe): a success whose output was lost is a failure.
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    if (code == 0) {
      std::fprintf(stderr, "apsp: error: cannot write the output to stdout: %s\n",
                   std::strerror(errno));
      code = 1;
    }
  }
  std::fflush(nullptr);
  const detach_mode mode = mode_from_environment();
  if (may_detach(mode)) {
    work.close_count = 0;
    // One walk over the descriptors both decides and lists what the helper closes.
    if (scan_descriptors(true) || mode == detach_mode::always)
      start_helper();
  }
  std::_Exit(code);
}

} // namespace apsp::cli

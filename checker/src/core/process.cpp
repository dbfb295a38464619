#include "core/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/tool_error.h"

extern char** environ;

namespace abicheck {
namespace {

std::vector<std::string> child_environment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    if (!extra.contains(std::string(text.substr(0, text.find('='))))) result.emplace_back(text);
  }
  for (const auto& [name, value] : extra) result.push_back(name + "=" + value);
  return result;
}

std::vector<char*> as_c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Only async-signal-safe calls between fork and exec.
[[noreturn]] void exec_child(const ProcessSpec& spec, int output_fd, char** argv, char** envp) {
  if (spec.own_process_group) setpgid(0, 0);
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  if (output_fd >= 0) {
    dup2(output_fd, STDOUT_FILENO);
    dup2(output_fd, STDERR_FILENO);
  }
  if (!spec.working_dir.empty() && chdir(spec.working_dir.c_str()) != 0) _exit(127);
  if (spec.memory_limit_bytes) {
    rlimit limit{*spec.memory_limit_bytes, *spec.memory_limit_bytes};
    setrlimit(spec.limit_data_not_address_space ? RLIMIT_DATA : RLIMIT_AS, &limit);
  }
  execvpe(argv[0], argv, envp);
  _exit(127);
}

}  // namespace

std::string ProcessResult::describe() const {
  if (timed_out) return fmt::format("timed out after {:.0f} s", duration.count());
  if (term_signal) return fmt::format("signal {} ({})", *term_signal, strsignal(*term_signal));
  if (exit_code) return fmt::format("exit {}", *exit_code);
  return "did not run";
}

std::string ProcessResult::tail(std::size_t lines) const {
  std::size_t end = output.find_last_not_of('\n');
  if (end == std::string::npos || lines == 0) return {};
  std::size_t start = end;
  for (std::size_t kept = 0; start > 0; --start) {
    if (output[start - 1] == '\n' && ++kept == lines) break;
  }
  return output.substr(start, end + 1 - start);
}

std::string ProcessResult::compiler_error() const {
  std::size_t at = output.find("error:");
  if (at == std::string::npos) return tail(3);
  std::size_t start = output.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  std::size_t end = output.find('\n', at);
  return output.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) throw ToolError("internal: run_process called without a command");
  std::vector<std::string> argv_storage = spec.argv;
  std::vector<std::string> env_storage = child_environment(spec.extra_env);
  std::vector<char*> argv = as_c_strings(argv_storage);
  std::vector<char*> envp = as_c_strings(env_storage);

  int pipe_fds[2] = {-1, -1};
  if (spec.capture_output && pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw ToolError(fmt::format("cannot create a pipe to run {}: {}", spec.argv[0], std::strerror(errno)));
  }
  auto started = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) throw ToolError(fmt::format("cannot start {}: {}", spec.argv[0], std::strerror(errno)));
  if (pid == 0) exec_child(spec, pipe_fds[1], argv.data(), envp.data());
  if (spec.own_process_group) setpgid(pid, pid);  // also here, so a timeout never races the child's own
  pid_t kill_target = spec.own_process_group ? -pid : pid;

  ProcessResult result;
  if (spec.capture_output) close(pipe_fds[1]);
  auto deadline = spec.timeout ? std::optional(started + *spec.timeout) : std::nullopt;
  bool output_open = spec.capture_output;
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    int wait_ms = 100;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 && !result.timed_out) {
        result.timed_out = true;
        kill(kill_target, SIGKILL);
      }
      wait_ms = static_cast<int>(std::clamp<long>(left.count(), 0, 100));
    }
    if (output_open) {
      pollfd fd{pipe_fds[0], POLLIN, 0};
      if (poll(&fd, 1, wait_ms) > 0) {
        char buffer[65536];
        ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
        if (n > 0) {
          result.output.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        if (n == 0 || errno != EINTR) output_open = false;
      }
    } else {
      usleep(static_cast<useconds_t>(wait_ms) * 1000);
    }
    if (waitpid(pid, &status, WNOHANG) == pid) reaped = true;
  }
  // The child is gone; take what is left in the pipe. A grandchild that still holds it open is
  // killed with the group rather than waited for.
  if (output_open) {
    if (spec.own_process_group) kill(-pid, SIGKILL);
    pollfd fd{pipe_fds[0], POLLIN, 0};
    char buffer[65536];
    while (poll(&fd, 1, 200) > 0) {
      ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
      if (n <= 0) break;
      result.output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  if (spec.capture_output) close(pipe_fds[0]);
  result.duration = std::chrono::steady_clock::now() - started;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  return result;
}

std::optional<std::filesystem::path> find_executable(const std::string& name, std::string_view search_path) {
  while (!search_path.empty()) {
    auto colon = search_path.find(':');
    std::filesystem::path candidate = std::filesystem::path(search_path.substr(0, colon)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    search_path = colon == std::string_view::npos ? std::string_view{} : search_path.substr(colon + 1);
  }
  return std::nullopt;
}

}  // namespace abicheck

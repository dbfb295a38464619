#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abicheck {

// One child process to run: every build, cell and helper script goes through here, so that a
// crash, hang or runaway allocation ends that child only and is reported, never inherited.
struct ProcessSpec {
  std::vector<std::string> argv;
  std::map<std::string, std::string> extra_env;  // added to (or overriding) this process's environment
  std::filesystem::path working_dir;             // empty: this process's
  std::optional<std::chrono::milliseconds> timeout;
  std::optional<std::size_t> memory_limit_bytes;  // RLIMIT_AS of the child (or RLIMIT_DATA, below)
  // Limit private writable memory (RLIMIT_DATA) instead of address space: a CUDA context reserves
  // address space beyond the GPU's memory (unified addressing), which no useful RLIMIT_AS allows.
  bool limit_data_not_address_space = false;
  bool capture_output = true;  // false: the child writes to our stdout/stderr (progress on a TTY)
  // true: the child leads a process group of its own, so a timeout kills everything it started.
  // false: it stays in ours, so a Ctrl-C on the terminal reaches it as it reaches us.
  bool own_process_group = true;
};

struct ProcessResult {
  std::optional<int> exit_code;    // set when the child exited
  std::optional<int> term_signal;  // set when a signal ended it (SIGKILL after a timeout too)
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved, as a user would have seen them
  std::chrono::duration<double> duration{};

  bool succeeded() const { return exit_code == 0; }
  // "exit 3", "signal 11 (Segmentation fault)", "timed out after 60 s": for logs and reports.
  std::string describe() const;
  // The last lines of the output, for one-line errors and report cells.
  std::string tail(std::size_t lines) const;
  // A compiler's failure in one line: its first `error:` line (a long run of trailing `note:` lines
  // would hide it), else the last lines.
  std::string compiler_error() const;
};

// Runs the child; on timeout it (with its process group, when it has one) is killed. Throws ToolError
// only when the child cannot be started at all.
ProcessResult run_process(const ProcessSpec& spec);

// The first executable `name` in the directories of `search_path` (a PATH value); nullopt when none.
std::optional<std::filesystem::path> find_executable(const std::string& name, std::string_view search_path);

}  // namespace abicheck

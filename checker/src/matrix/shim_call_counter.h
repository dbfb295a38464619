#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace abicheck {

// The LD_AUDIT library that counts the C shim calls of a cell's extension (matrix/shim_counter.c,
// where the mechanism and its file format are described). The runner loads it into every runtime's
// cell server, and each forked cell counts its own extension, so "called by a test" is measured in
// the cell's own process, not guessed from the tests.
struct ShimCallCounter {
  std::optional<std::filesystem::path> library;  // set when calls can be counted here
  std::string unavailable;                       // why not, when they cannot ("x86-64 only", "cc failed: ...")

  // The environment of a process that forks one cell per extension after `import torch`
  // (matrix/run_cell.py --cells): each child names the extension it counts and counts into
  // "<counts_base>.<pid>" (matrix/shim_counts.py); empty when the counter is unavailable.
  std::map<std::string, std::string> environment(const std::filesystem::path& counts_base) const;
};

// Compiles the counter into <cache_dir>/shim-counter/<hash of its source>/ on first use (one cc
// call, a fraction of a second); later runs reuse it.
ShimCallCounter prepare_shim_call_counter(const std::filesystem::path& cache_dir);

// The counts a cell's counter wrote: every shim the extension bound, with how often it was called
// (0: bound at load, never called). Nothing when the file is missing (the counter did not run).
std::optional<std::map<std::string, std::uint64_t>> read_shim_call_counts(const std::filesystem::path& counts_file);

}  // namespace abicheck

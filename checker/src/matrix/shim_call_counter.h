#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace abicheck {

// The LD_AUDIT library that counts the C shim calls of a cell's extension (matrix/shim_counter.c,
// where the mechanism and its file format are described). The runner loads it into every cell it
// runs, so "called by a test" is measured in the cell's own process, not guessed from the tests.
struct ShimCallCounter {
  std::optional<std::filesystem::path> library;  // set when calls can be counted here
  std::string unavailable;                       // why not, when they cannot ("x86-64 only", "cc failed: ...")

  // The environment a cell needs so that the counter audits `extension` into `counts_file`; empty
  // when the counter is unavailable. `mutation` ("name=error", "name=zero") replaces one shim.
  std::map<std::string, std::string> environment(const std::filesystem::path& extension,
                                                 const std::filesystem::path& counts_file,
                                                 const std::string& mutation = {}) const;
};

// Compiles the counter into <cache_dir>/shim-counter/<hash of its source>/ on first use (one cc
// call, a fraction of a second); later runs reuse it.
ShimCallCounter prepare_shim_call_counter(const std::filesystem::path& cache_dir);

// The counts a cell's counter wrote: every shim the extension bound, with how often it was called
// (0: bound at load, never called). Nothing when the file is missing (the counter did not run).
std::optional<std::map<std::string, std::uint64_t>> read_shim_call_counts(const std::filesystem::path& counts_file);

}  // namespace abicheck

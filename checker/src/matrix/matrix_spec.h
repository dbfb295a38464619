#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace abicheck {

// Which API an extension is written against decides what the matrix may expect of it.
enum class ExtensionApi { Stable, Unstable };

enum class Backend { Cpu, Cuda, Rocm };
std::string backend_name(Backend backend);

// One extension and the (backend, build, target, runtime) ranges to test it over, as written in
// a spec file; versions stay text ("2.9", "newest") until the store resolves them.
struct SuiteSpec {
  std::string name;
  std::filesystem::path sources;  // holds cpu/, gpu/, cuda/, rocm/ (groups v2_N), include/, tests/
  ExtensionApi api = ExtensionApi::Stable;
  std::vector<Backend> backends;
  std::vector<std::string> builds;    // versions, "oldest" or "newest"; empty means every release in the store
  std::vector<std::string> targets;   // versions; empty: every minor from 2.9 up to the build (baselines and store)
  std::vector<std::string> runtimes;  // versions; empty means every release in the store
};

struct MatrixSpec {
  std::filesystem::path file;
  std::vector<SuiteSpec> suites;
  std::vector<std::string> cuda_arches;  // "sm_80"
  std::vector<std::string> rocm_arches;  // "gfx90a"
  int cell_timeout_s = 300;
  int build_timeout_s = 900;
  std::size_t cell_memory_mb = 16384;  // address space: a CUDA wheel's import reserves a lot of it
  std::size_t build_memory_mb = 8192;
};

// Reads a spec; relative `sources` are taken from the project root. Bad input is a ToolError
// naming the file and the key.
MatrixSpec load_matrix_spec(const std::filesystem::path& file);

}  // namespace abicheck

#pragma once

#include <chrono>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "store/release_store.h"

namespace abicheck {

// The C++ loader's runner (matrix/aoti_cpp_runner.cpp: torch::inductor::AOTIModelPackageLoader) built
// against one release's headers and libraries, once per release and cached by content in
// <cache_dir>/cpp-runners/<key>/ (the runner's source, the release, the compiler).
struct CppRunner {
  std::filesystem::path binary;  // empty where it did not build
  std::string key;
  std::string problem;  // why it did not build: the compiler's first error
  bool cached = false;
};

// Its cache key: what a cell's cached result depends on of the runner.
std::string cpp_runner_key(const StoredRelease& release);

CppRunner build_cpp_runner(const StoredRelease& release, const std::filesystem::path& cache_dir, bool fresh);

// What a cell of the C++ loader is given: the package, what matrix/aoti_compile.py saved for the C++
// loader (`cpp_io`; empty for a package without one: it is loaded, not run) and the reference
// extension to load first where the model calls its operators.
struct CppCellInput {
  std::filesystem::path package;
  std::filesystem::path cpp_io;
  std::filesystem::path extension;
};

// Runs the package in a fresh process of the runner, with the release's torch/lib on the library
// path (the package's wrapper.so NEEDs libtorch.so by name only, as a deployment's process must
// provide), and returns what the runner wrote (the fields of matrix/aoti_cells.py's results), or a
// crash or timeout where it wrote nothing.
nlohmann::json run_cpp_cell(const CppRunner& runner, const StoredRelease& release, const CppCellInput& cell,
                            const std::filesystem::path& work_dir, std::chrono::seconds timeout);

}  // namespace abicheck

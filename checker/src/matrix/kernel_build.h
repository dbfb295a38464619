#pragma once

#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/build_cache.h"
#include "core/torch_version.h"
#include "matrix/cell_expectation.h"
#include "matrix/matrix_spec.h"
#include "store/release_store.h"

namespace abicheck {

// One library to build: a suite's sources for one backend, against the headers and libraries of
// release B, at target T.
struct BuildRequest {
  const SuiteSpec* suite = nullptr;
  Backend backend = Backend::Cpu;
  StoredRelease build_release;
  TorchVersion target;
};

struct BuildRecord {
  BuildStatus status;
  std::filesystem::path library;  // set when built
  std::string log;                // every command and its output
  double seconds = 0;
  bool cached = false;
  std::string key;
};

// The host C++ compiler of every build against a release's headers: TORCH_ABI_CHECK_CXX, else g++ on PATH.
std::string host_compiler();

// The kernel groups of a suite: <sources>/<kind>/v2_N/ holds the sources that need target 2.N.
// Returns the files of every group not newer than `target`, oldest group first.
std::vector<std::filesystem::path> group_sources(const std::filesystem::path& sources, const std::string& kind,
                                                 TorchVersion target, const std::string& extension);

// Builds libraries into the build cache <cache>/builds/<key>/ (core/build_cache.h), one process per
// compiler call, each with the spec's time and memory limits. A cached build (same sources, backend,
// B, T, toolchain) is reused unless `fresh`; builds that timed out or were killed are never cached.
// Device code (kernels/cuda, kernels/rocm) includes no torch header, so its object is the same for
// every B and T: it is compiled once per source, toolchain and architecture list, kept in
// <cache>/device-objects/<key>/, and linked into every library of its backend (once per run with
// `fresh`).
class KernelBuilder {
 public:
  KernelBuilder(const std::filesystem::path& cache_dir, const MatrixSpec& spec, bool fresh);
  std::string key(const BuildRequest& request) const;
  BuildRecord build(const BuildRequest& request) const;

 private:
  std::vector<std::string> compile_flags(const BuildRequest& request) const;
  // Compiles and links into `work_dir`; `compiler_missing` when the backend has no compiler here.
  BuildOutcome build_into(const BuildRequest& request, const std::filesystem::path& work_dir,
                          bool& compiler_missing) const;
  // The object of one device source, from the device-object cache or compiled into it now.
  CachedBuild device_object(const BuildRequest& request, const std::string& compiler,
                            const std::filesystem::path& source) const;
  BuildCache cache_;
  BuildCache device_objects_;
  mutable std::mutex fresh_device_objects_mutex_;
  mutable std::set<std::string> fresh_device_objects_;  // keys compiled anew in this run (with `fresh`)
  const MatrixSpec& spec_;
  bool fresh_;
};

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "aoti/aoti_observation.h"
#include "audit/binary_audit.h"
#include "audit/shim_catalog.h"
#include "store/release_store.h"

namespace abicheck {

// One package of the suite: a reference model (kernels/aoti/reference_models.py) compiled at a
// stored release, or a user's .pt2.
struct AotiPackage {
  std::string model;                  // the reference model's name, or the user's file name
  std::optional<TorchVersion> build;  // the release that compiled it (a user's package: none known)
  std::filesystem::path file;         // the .pt2 (empty where the compile failed)
  std::filesystem::path reference;    // its weights and inputs (torch.save); empty for a user's package
  // The reference extension built at its release (aoti/reference_extension.h), for a model that calls
  // its operators: each cell loads it before the package. Empty for the others.
  std::filesystem::path extension;
  // Its inputs, eager's outputs and tolerances for the C++ loader (matrix/aoti_compile.py's
  // <model>.cpp_io.pt); empty for a user's package.
  std::filesystem::path cpp_io;
  std::string compile_error;  // why the release could not compile it: it has no cells
  double compile_seconds = 0;
  double compile_cpu_seconds = 0;  // the compile's CPU time, its compilers' included
  bool compile_cached = false;
  // The audit of its compiled objects: the shims they import, and whether they load into each release.
  std::set<std::string> shims;
  std::vector<std::string> audit_problems;  // what the audit could not read (Pt2Contents::problems)
  std::vector<bool> predicted_loads;        // per release of AotiResult::releases
  std::vector<std::string> predicted_why;   // per release: why not, "" where it loads
  std::optional<TorchVersion> min_torch;    // the newest shim its compiled objects import (the audit's)
};

// One package under one release: loaded where the release is at or after the package's build, else
// only predicted by the audit.
struct AotiCell {
  std::size_t package = 0;
  std::size_t runtime = 0;  // index into AotiResult::releases
  AotiLoader loader = AotiLoader::Python;
  bool ran = false;
  AotiObservation observed;  // when it ran
};

struct AotiResult {
  std::vector<TorchVersion> releases;  // oldest first
  std::vector<AotiPackage> packages;   // reference packages by build then model; users' after
  std::vector<AotiCell> cells;         // by package, then loader (Python, C++), then release
  int compiles_run = 0;
  int compiles_cached = 0;
  int cells_run = 0;
  int cells_cached = 0;
  double wall_s = 0;

  // Every shim the compiled code of the packages imports, and those of them that call an ATen op on
  // the CPU (aoti_torch_cpu_*).
  std::set<std::string> shims_reached() const;
};

struct AotiOptions {
  std::filesystem::path cache_dir;      // compiled packages, inductor caches, cell results
  bool fresh = false;                   // compile and run every cell again
  unsigned jobs = 1;                    // releases compiled or run side by side
  std::vector<StoredRelease> releases;  // where the packages are loaded (the cells' columns)
  // Where the reference models are compiled; empty: `releases` (the release gate: every release before
  // its candidate, loaded into the candidate alone).
  std::vector<StoredRelease> build_releases;
  // The user's packages; none: the reference models, compiled at every release of build_releases.
  std::vector<std::filesystem::path> packages;
  // A user's package is loaded only under the releases at or after its minimum torch (the newest shim
  // its objects import); below it the audit's prediction stands. false: under every release.
  bool from_minimum = false;
  // The packages are also loaded by the C++ loader (a runner built against each release,
  // aoti/cpp_loader_cells.h), in cells of their own: a reference package run on the inputs its compile
  // saved and compared with eager's outputs, a user's package (no inputs) loaded only.
  bool cpp_loader = false;
  double cell_timeout_s = 300;
  // `done` of `total` steps (a release's compile, a release's loads) have ended; (0, total) first, when
  // the work starts, so that a log which is no terminal hears from it before the first compile ends.
  std::function<void(int done, int total, const std::string& line)> progress;
};

// The environment of a process that loads a package (a cell, or a test's own fresh process). Inductor's
// vector-ISA probe, which 2.10 to 2.12 run when a package loads (per ISA a compile and a subprocess that
// imports torch, again in every fresh process), asks this machine's CPU, not the package: a failed probe
// only narrows the ISA and loading goes on. TORCHINDUCTOR_VEC_ISA_OK=1 trusts /proc/cpuinfo's flags
// instead, which saves 40 to 70 s a process there (bench/HISTORY.md) and changes nothing a load shows.
// (The AVX512-BF16 and AMX checks still build their probe where the CPU has them: no setting skips them.)
std::map<std::string, std::string> vector_isa_trust_environment();

// $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check/aoti.
std::filesystem::path default_aoti_cache_dir();

// Inductor's CPU compile and the loaders of torch 2.9 and 2.10 import setuptools (through cpp_builder
// and torch.utils.cpp_extension), which those releases require only from Python 3.12: their store venvs
// have none, where a user's venv of Python 3.11 has it. A folder holding only the host Python's
// setuptools (links, made once, `<cache_dir>/setuptools-only`) is what aoti_compile.py and
// aoti_cells.py append to sys.path of a release that lacks it: nothing else of the host's packages
// becomes importable. Empty when the host Python has no setuptools either.
std::filesystem::path setuptools_only_dir(const std::filesystem::path& cache_dir);

// Compiles the reference models at every release (matrix/aoti_compile.py, one process per
// release, a forked child per model; cached by the models, the scripts and the release), audits
// each package for its shims and per-release prediction, then loads every package under every
// release at or after its build (matrix/aoti_cells.py: torch and torch._inductor imported once, a forked child per
// cell; cached by package, reference and release) and judges what happened. A user's packages are
// loaded under every release (from its minimum torch on with `from_minimum`). With `cpp_loader`, each of those
// cells has a C++ loader's twin (a fresh process of the runner built against the release). Throws ToolError
// when there is no release.
AotiResult run_aoti(const ShimCatalog& catalog, const AotiOptions& options);

}  // namespace abicheck

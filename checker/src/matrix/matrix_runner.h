#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "matrix/cell_expectation.h"
#include "matrix/matrix_spec.h"
#include "matrix/shim_coverage.h"
#include "store/release_store.h"

namespace abicheck {

// One op test of one cell, as the cell runner reported it.
struct OpResult {
  std::string group;
  std::string op;
  std::string name;
  std::string outcome;  // passed, failed, skipped
  std::string message;
  std::string failure;  // of a failed op: "wrong-result", "error" (it raised), "registration" (no kernel)
};

// One cell of the matrix with its verdict: the plain data every renderer reads.
struct MatrixCell {
  std::string suite;
  Backend backend = Backend::Cpu;
  TorchVersion build;
  TorchVersion target;
  TorchVersion runtime;
  Expectation expected = Expectation::Pass;
  CellOutcome outcome = CellOutcome::NotRun;
  std::string reason;
  CellFailure failure = CellFailure::None;
  double duration_s = 0;  // build share is not counted: only this cell's own process
  std::string log;        // the tail of the build or run log
  bool cached = false;
  std::vector<OpResult> ops;
  std::vector<std::string> imported_shims;  // the C shims its library imports, sorted (empty: no library)
  // Calls per shim its extension made in the cell's process (shim_call_counter.h); nothing when not measured.
  std::optional<std::map<std::string, std::uint64_t>> shim_calls;
};

struct MatrixResult {
  std::vector<MatrixCell> cells;                 // in spec order: suite, backend, build, target, runtime
  std::vector<std::filesystem::path> libraries;  // every library that built, once each (what the cells load)
  int builds_total = 0;
  int builds_cached = 0;
  int cells_cached = 0;
  double wall_s = 0;
  ShimCoverage coverage;  // per runtime release: shims declared, imported, called
};

// A deterministic slice of the matrix (`--shard K/N`): the distinct builds (suite, backend, build,
// target) in plan order, dealt round-robin, each with all of its cells. Shards are disjoint and
// together the whole plan; their caches, copied into one, let a plain run take every cell from it.
struct MatrixShard {
  unsigned index = 1;  // K, from 1
  unsigned count = 1;  // N

  // "K/N" with 1 <= K <= N; anything else is a ToolError that quotes it.
  static MatrixShard parse(const std::string& text);
  std::string to_string() const;
  // Whether the unit at `order` (0-based, in plan order) is this shard's: order modulo N is K-1. The
  // matrix deals its distinct builds so, the canary its packages (in spec order).
  bool keeps(std::size_t order) const { return order % count == index - 1; }
};

struct MatrixOptions {
  std::filesystem::path cache_dir;
  bool fresh = false;
  unsigned jobs = 1;
  // Called (from worker threads, serialised) after each build and cell: done, total, one line.
  std::function<void(int done, int total, const std::string& line)> progress;
  // The release gate runs the spec as it stood at the last release, under a candidate: builds,
  // default targets and the words "oldest", "newest" and "all" resolve only among the stored
  // releases up to `newest_release`, and every suite runs under `runtimes` (which need not be in
  // the store) instead of its own.
  std::optional<TorchVersion> newest_release;
  std::vector<StoredRelease> runtimes;
  std::optional<MatrixShard> shard;  // none: the whole matrix
  // `--sample`: of each suite's build releases only the oldest and the newest, each still at every
  // target and under every runtime (the two ends of the B >= T triangle, about a third of its cost).
  bool sample_builds = false;
  // The committed baselines the default targets and the shim coverage are read from (a command's
  // --baselines); empty: the project's shim_decls/.
  std::filesystem::path baselines;
};

// The cache directory when --cache-dir is not given: $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check/matrix-cache.
std::filesystem::path default_matrix_cache_dir();

// The cells the spec resolves to against the store, with their expectations, before anything runs.
std::vector<MatrixCell> plan_matrix(const MatrixSpec& spec, const ReleaseStore& store, const MatrixOptions& options);

// Resolves the spec against the store into cells, builds every distinct library once, runs every
// cell in its own process, and judges each against the version rules.
MatrixResult run_matrix(const MatrixSpec& spec, const ReleaseStore& store, const MatrixOptions& options);

}  // namespace abicheck

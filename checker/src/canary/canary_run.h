#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "audit/shim_catalog.h"
#include "canary/canary_observation.h"
#include "canary/canary_packages.h"
#include "canary/canary_prediction.h"
#include "canary/canary_spec.h"
#include "matrix/matrix_runner.h"
#include "store/release_store.h"

namespace abicheck {

// One package under one release: what the tool predicted and what happened.
struct CanaryCell {
  Prediction predicted;
  Observation observed;
  // The failure class too: a predicted load by any load, a predicted failure only by that failure.
  bool agrees() const { return bears_out(predicted.outcome, observed.outcome); }
  // Loads / does not load, the first level of agreement; only for an observable cell.
  bool agrees_on_loading() const { return is_load(predicted.outcome) == is_load(observed.outcome); }
  bool observable() const { return is_observable(observed.outcome); }
};

// One package of the spec: its facts, the audit behind the prediction, and a cell per release.
struct CanaryRow {
  CanaryPackage package;
  PackageAudit audit;
  std::optional<TorchVersion> operator_reference;  // the release whose operators the others are held to
  std::vector<CanaryCell> cells;                   // one per release, oldest first
};

struct CanaryResult {
  std::filesystem::path spec;
  std::vector<TorchVersion> releases;   // the runtimes, oldest first
  std::vector<CanaryRow> rows;          // in spec order
  std::vector<CanaryProblem> problems;  // packages that could not be got ready: no cells
  bool gpu = false;                     // whether the cells had a GPU (their smoke and device code ran)
  std::optional<MatrixShard> shard;     // the slice of the spec this result holds
  int cells_run = 0;
  int cells_cached = 0;
  double wall_s = 0;
};

struct CanaryOptions {
  std::filesystem::path cache_dir;  // downloads, unpacked wheels, dependencies, predictions, results
  bool fresh = false;               // run every cell again (downloads and unpacked wheels are kept)
  unsigned jobs = 1;                // releases run side by side
  std::vector<StoredRelease> releases;
  // `--shard K/N`: only the spec's packages this shard keeps (dealt round-robin in spec order). The
  // caches are content-addressed, so the shards' caches copied into one let a plain run take every
  // cell from it, as the matrix's shards do (docs/canary.md).
  std::optional<MatrixShard> shard;
  // Called (serialised) after each release's cells: done, total, one line.
  std::function<void(int done, int total, const std::string& line)> progress;
};

// $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check/canary.
std::filesystem::path default_canary_cache_dir();

// Gets the spec's packages ready, predicts each from its audit, then loads each under every release
// (matrix/canary_cells.py: torch imported once per release, a forked child per cell) and judges what
// happened. Cells are cached by (wheel hash, release, tool version, smoke), predictions by (wheel
// hash, releases, this build of the tool): a warm rerun starts no process but the fetch script's check.
// Throws ToolError when no package could be got ready.
CanaryResult run_canary(const CanarySpec& spec, const ShimCatalog& catalog, const CanaryOptions& options);

}  // namespace abicheck

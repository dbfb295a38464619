#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aoti/aoti_run.h"
#include "canary/canary_run.h"
#include "canary/canary_spec.h"
#include "core/finding.h"
#include "diff/abi_change.h"
#include "lint/lint_runs.h"
#include "matrix/matrix_runner.h"
#include "matrix/matrix_spec.h"
#include "store/release_store.h"

namespace abicheck {

// The main job (`torch-abi-check ci`): the default checks of the whole project in one run.
struct MainJobRequest {
  MatrixSpec spec;  // the reference-kernel matrix
  MatrixOptions matrix;
  std::filesystem::path baselines;  // committed shim_decls/
  std::string lint_torch;           // the release whose headers are linted; empty: the newest stored
  // The published wheels loaded under every stored release; none: the canary is not run.
  std::optional<CanarySpec> canary;
  CanaryOptions canary_options;  // its releases are the store's, filled in by the job
  // The AOTInductor suite: the reference models compiled at aoti_options.build_releases (empty: every
  // stored release) and loaded under every stored release at or after each; false: not run.
  bool aoti = true;
  AotiOptions aoti_options;  // its runtimes are the store's, filled in by the job
  // Told as each stage starts and ends ("matrix: started", "matrix: done in 412 s"); may be empty.
  std::function<void(const std::string& line)> announce;
};

struct MainJobResult {
  MatrixResult matrix;
  // Every pair of consecutive committed baselines, then on to each stored release newer than them
  // (its baseline built from the store), oldest first.
  std::vector<AbiDiff> diffs;
  StoredRelease lint_release;
  LintRun lint;  // lint_release's headers against the baselines before it
  std::optional<CanaryResult> canary;
  std::optional<AotiResult> aoti;
};

// Runs the matrix, diffs every consecutive pair of committed baselines (and of the stored releases
// newer than them, built from the store), lints the headers of the newest stored release (or
// lint_torch), and runs the canary and the aoti suite under every stored release. Throws ToolError
// when the store or the baselines are missing.
MainJobResult run_main_job(const ReleaseStore& store, const MainJobRequest& request);

// The job's verdict: the matrix's, every diff's, the lint's (paths relative to the linted release's
// include dir), the canary's and the aoti suite's findings, with the summary lines of each stage.
Judgement judge_main_job(const MainJobResult& result);

}  // namespace abicheck

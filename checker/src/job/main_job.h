#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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
};

struct MainJobResult {
  MatrixResult matrix;
  std::vector<AbiDiff> diffs;  // every pair of consecutive committed baselines, oldest first
  StoredRelease lint_release;
  LintRun lint;  // lint_release's headers against the baselines before it
};

// Runs the matrix, diffs every consecutive pair of committed baselines, and lints the headers of
// the newest stored release (or lint_torch). Throws ToolError when the store or the baselines are
// missing.
MainJobResult run_main_job(const ReleaseStore& store, const MainJobRequest& request);

// The job's verdict: the matrix's, every diff's and the lint's findings (lint paths relative to the
// linted release's include dir), with one summary line per stage.
Judgement judge_main_job(const MainJobResult& result);

}  // namespace abicheck

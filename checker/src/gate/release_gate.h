#pragma once

#include <filesystem>
#include <string>

#include "aoti/aoti_run.h"
#include "audit/binary_audit.h"
#include "canary/canary_run.h"
#include "canary/canary_spec.h"
#include "diff/abi_change.h"
#include "gate/candidate_release.h"
#include "lint/lint_runs.h"
#include "matrix/matrix_runner.h"
#include "matrix/matrix_spec.h"
#include "store/release_store.h"

namespace abicheck {

// What the release gate checks a torch release candidate with.
struct ReleaseGateRequest {
  std::string candidate;             // a torch package directory, or a version (from the store)
  std::optional<TorchVersion> last;  // the release it must stay compatible with (default: the
                                     // newest committed baseline older than the candidate)
  MatrixSpec spec;                   // suites and backends of the reference-kernel matrix
  std::filesystem::path baselines;   // committed shim_decls/
  MatrixOptions matrix;              // cache, jobs, progress; the gate sets scope and runtime
  // Published wheels (built for earlier releases) loaded into the candidate; none: not run.
  std::optional<CanarySpec> canary;
  CanaryOptions canary_options;  // cache, jobs, progress; the gate sets the runtime
  // The AOTInductor reference models compiled at releases before the candidate and loaded into it;
  // false: not run. aoti_options.build_releases: where they are compiled (each must be older than the
  // candidate); empty: every stored release before it. The gate sets the runtime.
  bool aoti = true;
  AotiOptions aoti_options;
};

// The three stages' results, each as its own command would report it.
struct ReleaseGateResult {
  ReleaseCandidate candidate;
  TorchVersion last;
  AbiDiff diff;         // last release's committed baseline -> the candidate's headers and libraries
  LintRun lint;         // the candidate's headers against the committed baselines before it
  MatrixResult matrix;  // builds of releases up to `last` loaded into the candidate
  // The matrix's libraries audited against the candidate: whether its device runtime lets them load
  // (a CUDA 12 build cannot load into a CUDA 13 candidate, whatever its torch symbols say).
  AuditReport audit;
  std::optional<CanaryResult> canary;  // the published wheels under the candidate
  // The reference models compiled by each earlier release, loaded into the candidate and compared with
  // eager; none when not run or when no release before the candidate is stored.
  std::optional<AotiResult> aoti;
};

// Resolves the candidate (installing a missing store version) and the last release, then runs
// the diff, the header lint, the matrix, the audit of the matrix's libraries against the candidate,
// the canary (published wheels loaded into the candidate) and the aoti suite (the .pt2 packages of the
// reference models compiled by every earlier stored release, loaded into the candidate). Bad input (no
// such candidate, no baseline for the last release, a last release or an aoti build not older than the
// candidate) is a ToolError before any stage runs.
ReleaseGateResult run_release_gate(const ReleaseStore& store, const ReleaseGateRequest& request);

}  // namespace abicheck

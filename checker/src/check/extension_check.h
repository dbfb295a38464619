#pragma once

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "audit/binary_audit.h"
#include "check/check_config.h"
#include "check/project_build.h"
#include "core/finding.h"
#include "lint/lint_runs.h"
#include "matrix/matrix_runner.h"
#include "store/release_store.h"

namespace abicheck {

// `check DIR`: the library author's whole local check as one analysis, returned as plain data
// (the CLI renders it). Lint the sources at the declared target, build against the store release
// of the target and the newest, audit the built objects, run the smoke test under every stored
// release from the target to the newest, and say in one verdict what works and what breaks.

struct CheckRequest {
  std::filesystem::path project;
  std::optional<std::filesystem::path> config_file;
  std::filesystem::path work_dir;                         // builds and smoke-run scratch; never inside the project
  std::filesystem::path baselines;                        // committed shim_decls/ (lint E003, audit)
  bool fresh = false;                                     // rebuild even when a cached build matches
  std::function<void(const std::string& line)> progress;  // one line per finished step
};

struct CheckResult {
  std::filesystem::path project;
  CheckConfig config;
  std::optional<ProjectBuildKind> build_kind;
  std::optional<TorchVersion> target;
  std::string target_source;           // where the target was read
  std::vector<TorchVersion> runtimes;  // the releases the smoke test runs under
  LintRun lint;
  std::vector<ProjectBuild> builds;  // oldest build release first
  AuditReport audit;
  MatrixResult smoke;  // one cell per (build, runtime); suite = the project's directory name
  // What is wrong, in words the author can act on, in stage order ("target", "lint", "build", "audit",
  // "smoke"), then as each stage reports them: "src/ops.cpp:10" [E002], "against torch 2.13" [failed],
  // "libops.so (build 2.15)" [unstable], "build 2.15 on torch 2.14" [crash].
  std::vector<Finding> findings;
  std::vector<std::string> notes;    // what a person should know that is not a finding
  std::vector<std::string> verdict;  // the summary lines: what works, what breaks where and why

  // An error finding: a warning (a device runtime the store's build of a release lacks) is reported
  // and leaves the check clean.
  bool has_findings() const {
    return std::ranges::any_of(findings, [](const Finding& f) { return f.severity == FindingSeverity::Error; });
  }
};

// Throws ToolError for bad input (no such directory, bad config, missing store release).
CheckResult run_check(const ReleaseStore& store, const CheckRequest& request);

// How a built library is named to the author: "libops.so (build 2.15)"; other paths as they are.
std::string library_label(const CheckResult& result, const std::string& path);

// A compiler's message as the author reads it: files of the project relative to it, torch's headers as
// the sources include them (torch/csrc/stable/ops.h), not where the store keeps them.
std::string compiler_message_for_author(std::string text, const std::filesystem::path& project);

// The directory for --work-dir's default: $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check/check/<project hash>.
std::filesystem::path default_check_work_dir(const std::filesystem::path& project);

}  // namespace abicheck

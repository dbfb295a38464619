#include "gate/release_gate.h"

#include <fmt/format.h>

#include "audit/shim_catalog.h"
#include "baseline/release_history.h"
#include "core/tool_error.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

TorchVersion last_release_before(const TorchVersion& candidate, const ReleaseGateRequest& request,
                                 const ReleaseHistory& history) {
  if (request.last) {
    if (request.last->minor_release() >= candidate.minor_release()) {
      throw ToolError(
          fmt::format("--last {}: not older than the candidate {}", request.last->to_string(), candidate.to_string()));
    }
    if (!history.has(request.last->minor_release())) {
      throw ToolError(fmt::format("{}: no committed baseline of the last release {}",
                                  history.baseline_dir(request.last->minor_release()).string(),
                                  request.last->to_string()));
    }
    return request.last->minor_release();
  }
  std::optional<TorchVersion> newest_older;
  for (const auto& release : history.releases()) {
    if (release < candidate.minor_release()) newest_older = release;
  }
  if (!newest_older) {
    throw ToolError(fmt::format("{}: no committed baseline older than the candidate {}", history.directory().string(),
                                candidate.to_string()));
  }
  return *newest_older;
}

}  // namespace

// Where the gate's aoti suite compiles the reference models: the releases asked for, each older than the
// candidate, else every stored release before it.
std::vector<StoredRelease> aoti_builds(const TorchVersion& candidate, const ReleaseGateRequest& request,
                                       const ReleaseStore& store) {
  std::vector<StoredRelease> builds;
  for (const auto& release : request.aoti_options.build_releases) {
    if (release.version.minor_release() >= candidate.minor_release()) {
      throw ToolError(fmt::format("--aoti-torch {}: not older than the candidate {}", release.version.to_full_string(),
                                  candidate.to_string()));
    }
    builds.push_back(release);
  }
  if (!request.aoti_options.build_releases.empty()) return builds;
  for (const auto& release : store.releases()) {
    if (release.version.minor_release() < candidate.minor_release()) builds.push_back(release);
  }
  return builds;
}

ReleaseGateResult run_release_gate(const ReleaseStore& store, const ReleaseGateRequest& request) {
  ReleaseGateResult result;
  result.candidate = resolve_candidate(request.candidate, store);
  const StoredRelease& candidate = result.candidate.release;
  ReleaseHistory history = ReleaseHistory::open(request.baselines);
  result.last = last_release_before(candidate.version, request, history);
  std::vector<StoredRelease> builds;
  if (request.aoti) builds = aoti_builds(candidate.version, request, store);

  // The candidate's baseline is always built from its own headers and libraries, never read from
  // shim_decls/: the gate checks what would ship.
  const std::string last_dir = history.baseline_dir(result.last).string();
  ReleaseBaseline old_baseline = obtain_baseline(last_dir, store.root(), history);
  ReleaseBaseline new_baseline = obtain_baseline(candidate.torch_dir.string(), store.root(), history);
  result.diff = diff_baselines(old_baseline, new_baseline, {}, last_dir, candidate.torch_dir.string(),
                               history_facts(history, candidate.version));

  // The lint takes the inventory the baseline already collected instead of parsing the headers again.
  result.lint = lint_headers(store, {candidate.torch_dir.string(), new_baseline.inventory, request.baselines});

  MatrixOptions matrix = request.matrix;
  matrix.newest_release = result.last;
  matrix.runtimes = {candidate};
  matrix.baselines = request.baselines;
  result.matrix = run_matrix(request.spec, store, matrix);

  AuditOptions audit;
  audit.releases = {candidate};
  // The operators the kernels call, judged against the committed releases before the candidate and
  // the candidate's own schemas (when its Python could list them).
  OperatorHistory operators;
  for (auto& [release, schemas] : history.operator_schemas()) {
    if (release < candidate.version.minor_release()) operators.emplace(release, std::move(schemas));
  }
  if (new_baseline.operators) operators[candidate.version.minor_release()] = *new_baseline.operators;
  audit.operators = &operators;
  ShimCatalog catalog = ShimCatalog::load_directory(request.baselines);
  result.audit = audit_paths(result.matrix.libraries, catalog, audit);
  if (request.canary) {
    CanaryOptions canary = request.canary_options;
    canary.releases = {candidate};
    result.canary = run_canary(*request.canary, catalog, canary);
  }
  if (!builds.empty()) {
    AotiOptions aoti = request.aoti_options;
    aoti.releases = {candidate};
    aoti.build_releases = builds;
    aoti.packages.clear();
    result.aoti = run_aoti(catalog, aoti);
  }
  return result;
}

}  // namespace abicheck

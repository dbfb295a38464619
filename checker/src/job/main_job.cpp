#include "job/main_job.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <set>

#include "aoti/aoti_judgement.h"
#include "audit/shim_catalog.h"
#include "baseline/release_baseline.h"
#include "baseline/release_history.h"
#include "canary/canary_judgement.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "diff/diff_judgement.h"
#include "matrix/matrix_judgement.h"

namespace abicheck {

namespace {

// What the diffs compare, oldest first: every committed baseline (its directory), then each stored
// release newer than all of them (its version, whose baseline obtain_baseline builds from the store):
// on the day a release comes out, the job diffs it before its baseline is committed.
std::vector<std::string> diff_sides(const ReleaseHistory& history, const ReleaseStore& store) {
  std::vector<std::string> sides;
  for (const auto& directory : history.baseline_dirs()) sides.push_back(directory.string());
  if (history.empty()) return sides;
  std::set<TorchVersion> uncommitted;
  for (const auto& release : store.releases()) {
    if (release.version.minor_release() > history.releases().back()) {
      uncommitted.insert(release.version.minor_release());
    }
  }
  for (const auto& release : uncommitted) sides.push_back(release.to_string());
  return sides;
}

}  // namespace

MainJobResult run_main_job(const ReleaseStore& store, const MainJobRequest& request) {
  MainJobResult result;
  // Bad input first, before the matrix spends minutes.
  result.lint_release = store.resolve(request.lint_torch.empty() ? "newest" : request.lint_torch).require_installed();
  const ReleaseHistory history = ReleaseHistory::open(request.baselines);
  const std::vector<std::string> sides = diff_sides(history, store);

  auto stage = [&](const char* name, const auto& run) {
    if (request.announce) request.announce(fmt::format("{}: started", name));
    auto started = std::chrono::steady_clock::now();
    run();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (request.announce) request.announce(fmt::format("{}: done in {:.0f} s", name, seconds));
  };
  MatrixOptions matrix = request.matrix;
  matrix.baselines = request.baselines;
  stage("matrix", [&] { result.matrix = run_matrix(request.spec, store, matrix); });
  // The lint release's inventory when the diff built its baseline from the store: not collected twice.
  std::optional<ShimInventory> lint_inventory;
  stage("diff", [&] {
    if (sides.empty()) return;
    auto first_shipped = first_shipped_releases(history.inventories());
    ReleaseBaseline older = obtain_baseline(sides.front(), store.root(), history);
    for (std::size_t i = 1; i < sides.size(); ++i) {
      ReleaseBaseline newer = obtain_baseline(sides[i], store.root(), history);
      const TorchVersion release = newer.inventory.release.minor_release();
      // A committed baseline's errors are those its release shipped with; a release built from the
      // store has none known, as `diff` and the gate judge it.
      std::set<std::string> shipped;
      if (history.has(release)) {
        shipped = newer.inventory.compile_error_identities();
      } else {
        const StoredRelease stored = store.require(sides[i]);
        if (request.announce) {
          request.announce(fmt::format("diff: no committed baseline of {} in {}: built from the store's torch {}",
                                       release.to_string(), history.directory().string(),
                                       stored.version.to_full_string()));
        }
        if (stored.torch_dir == result.lint_release.torch_dir) lint_inventory = newer.inventory;
      }
      result.diffs.push_back(
          diff_baselines(older, newer, {}, sides[i - 1], sides[i], {std::move(shipped), first_shipped}));
      older = std::move(newer);
    }
  });
  stage("lint headers", [&] {
    result.lint = lint_headers(store, {.torch = result.lint_release.version.to_full_string(),
                                       .inventory = std::move(lint_inventory),
                                       .baselines = request.baselines});
  });
  if (request.canary) {
    stage("canary", [&] {
      CanaryOptions options = request.canary_options;
      options.releases = store.releases();
      result.canary = run_canary(*request.canary, ShimCatalog::load_directory(request.baselines), options);
    });
  }
  if (request.aoti) {
    stage("aoti", [&] {
      AotiOptions options = request.aoti_options;
      options.releases = store.releases();
      options.packages.clear();
      result.aoti = run_aoti(ShimCatalog::load_directory(request.baselines), options);
    });
  }
  return result;
}

Judgement judge_main_job(const MainJobResult& result) {
  Judgement judgement = judge_matrix(result.matrix);
  for (const auto& diff : result.diffs) judgement.add(judge_diff(diff));
  judgement.add(judge_lint(result.lint.report, result.lint_release.include_dir));
  if (result.canary) judgement.add(judge_canary(*result.canary));
  if (result.aoti) judgement.add(judge_aoti(*result.aoti));
  return judgement;
}

}  // namespace abicheck

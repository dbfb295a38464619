#include "job/main_job.h"

#include <fmt/format.h>

#include <chrono>

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

MainJobResult run_main_job(const ReleaseStore& store, const MainJobRequest& request) {
  MainJobResult result;
  // Bad input first, before the matrix spends minutes.
  result.lint_release = store.resolve(request.lint_torch.empty() ? "newest" : request.lint_torch).require_installed();
  std::vector<std::filesystem::path> baselines = ReleaseHistory::open(request.baselines).baseline_dirs();

  auto stage = [&](const char* name, const auto& run) {
    if (request.announce) request.announce(fmt::format("{}: started", name));
    auto started = std::chrono::steady_clock::now();
    run();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (request.announce) request.announce(fmt::format("{}: done in {:.0f} s", name, seconds));
  };
  stage("matrix", [&] { result.matrix = run_matrix(request.spec, store, request.matrix); });
  stage("diff", [&] {
    auto first_shipped = first_shipped_releases(ReleaseHistory::open(request.baselines).inventories());
    for (std::size_t i = 0; i + 1 < baselines.size(); ++i) {
      ReleaseBaseline older = load_baseline(baselines[i]);
      ReleaseBaseline newer = load_baseline(baselines[i + 1]);
      // Both are committed baselines: the newer one's errors are those its release shipped with.
      result.diffs.push_back(diff_baselines(older, newer, {}, baselines[i].string(), baselines[i + 1].string(),
                                            {newer.inventory.compile_error_identities(), first_shipped}));
    }
  });
  stage("lint headers", [&] {
    result.lint =
        lint_headers(store, {.torch = result.lint_release.version.to_full_string(), .baselines = request.baselines});
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

#include "check/check_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "aoti/aoti_judgement.h"
#include "audit/audit_judgement.h"
#include "lint/lint_report.h"
#include "matrix/matrix_judgement.h"

namespace abicheck {
namespace {

// check's own kinds: the build's ("failed") and the target's.
constexpr KindRow kCheckKinds[] = {
    {"failed", "The project did not build against a torch release it claims.",
     "Read the first compiler error in the finding; a lint finding often names the cause."},
    {"unknown-release", "The target is newer than every torch release known here: most often a typo in the hex.",
     "Fix TORCH_TARGET_VERSION (lint rule E005 explains its encoding)."},
    {"no-target", "The project declares no TORCH_TARGET_VERSION, so no release range could be checked.",
     "Set `target` in [tool.torch-abi-check] or define TORCH_TARGET_VERSION in the build."},
};

// "loads it on A, B; fails on C (load-failed)": the releases one loader's cells ran under. A user's
// package holds no inputs, so "loads" is all a cell can say: it was loaded, not run.
std::string where_it_loads(const AotiResult& loads, AotiLoader loader) {
  std::vector<std::string> loaded;
  std::vector<std::string> failed;
  for (const auto& cell : loads.cells) {
    if (!cell.ran || cell.loader != loader) continue;
    const std::string release = loads.releases[cell.runtime].to_full_string();
    if (is_failure(cell.observed.outcome)) {
      failed.push_back(fmt::format("{} ({})", release, to_string(cell.observed.outcome)));
    } else {
      loaded.push_back(release);
    }
  }
  return fmt::format("loads it on {}{}",
                     loaded.empty() ? "no stored release" : fmt::format("{}", fmt::join(loaded, ", ")),
                     failed.empty() ? "" : fmt::format("; fails on {}", fmt::join(failed, ", ")));
}

}  // namespace

Judgement judge_check(const CheckResult& result) {
  Judgement judgement{.findings = result.findings, .lines = result.verdict};
  judgement.explain_kinds("lint", [&](std::string_view id) { return lint_rule_text(result.lint.report.rules, id); });
  judgement.explain_kinds(
      "audit", [](std::string_view kind) { return audit_kind_text(kind == "error" ? "not-audited" : kind); });
  judgement.explain_kinds("smoke", matrix_kind_text);
  auto check_kind_text = [](std::string_view kind) { return find_kind_text(kCheckKinds, kind); };
  judgement.explain_kinds("build", check_kind_text);
  judgement.explain_kinds("target", check_kind_text);
  return judgement;
}

Judgement judge_package_check(const PackageCheckResult& result) {
  Judgement audit = judge_audit(result.audit);
  Judgement loads = judge_aoti(result.loads);
  // What the package could not be read of is the audit's finding; the suite repeats it for its own runs.
  std::erase_if(loads.findings, [](const Finding& finding) { return finding.kind == "pt2-not-fully-read"; });
  std::erase_if(loads.kinds, [](const FindingKind& kind) { return kind.kind == "pt2-not-fully-read"; });
  Judgement judgement;
  judgement.lines.push_back(fmt::format(
      "{}: needs torch {}; {} {}", result.package.filename().string(),
      result.min_torch ? result.min_torch->to_string() + " or later (the newest shim its compiled code imports)"
                       : "(no shim imported: unknown)",
      loader_call(AotiLoader::Python), where_it_loads(result.loads, AotiLoader::Python)));
  const bool cpp_ran = std::ranges::any_of(
      result.loads.cells, [](const AotiCell& cell) { return cell.ran && cell.loader == AotiLoader::Cpp; });
  if (cpp_ran) {
    judgement.lines.push_back(
        fmt::format("{} (C++) {}", loader_call(AotiLoader::Cpp), where_it_loads(result.loads, AotiLoader::Cpp)));
  }
  judgement.add(audit);
  judgement.add(loads);
  return judgement;
}

}  // namespace abicheck

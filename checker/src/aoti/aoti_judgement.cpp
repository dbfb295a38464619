#include "aoti/aoti_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace abicheck {
namespace {

// The kinds of the suite's findings ("aoti-" and the outcome of a failed cell), what each means and
// what to do; the cause a cell found, and its workaround, are in each finding.
constexpr KindRow kAotiKinds[] = {
    {"aoti-load-failed", "A compiled model package did not load under a torch release (the finding names the cause).",
     "Apply the workaround the finding gives, or recompile the package with that release."},
    {"aoti-run-failed", "A package loaded but running it raised.",
     "Recompile the package with that release; report it to torch when a stable shim changed."},
    {"aoti-wrong-result", "A package ran but an output differs from eager under the same release.",
     "Recompile and compare; a shim that changed behaviour across releases is a break to report."},
    {"aoti-crash", "The cell's process died while loading or running the package.",
     "Reproduce it alone under a debugger; memory corruption across the shim is likely."},
    {"aoti-timeout", "Loading or running the package did not finish in time.", "Rerun the cell alone."},
    {"aoti-prediction-missed", "A package loaded where the audit predicted it would not: the prediction is too strict.",
     "Nothing breaks for users; the audit's reason shows what it misjudged."},
    {"aoti-compile-failed", "A reference model did not compile with that release's AOTInductor.",
     "Read the compile error; the release's cells are predicted only."},
    {"pt2-not-fully-read", "A package could not be read whole: what it could not read is not vouched for.",
     "Check how the package was made (the finding names the part)."},
};

}  // namespace

std::string aoti_package_label(const AotiPackage& package) {
  return package.build ? fmt::format("{} (compiled by torch {})", package.model, package.build->to_full_string())
                       : package.model;
}

Judgement judge_aoti(const AotiResult& result) {
  Judgement judgement;
  // (release, loader, outcome, cause, workaround) -> the packages it holds for.
  std::map<std::tuple<std::size_t, AotiLoader, std::string, std::string, std::string>, std::vector<std::string>>
      failures;
  int failed = 0;
  int ran = 0;
  for (const auto& cell : result.cells) {
    const AotiPackage& package = result.packages[cell.package];
    if (!cell.ran) continue;
    ++ran;
    if (is_failure(cell.observed.outcome)) {
      ++failed;
      failures[{cell.runtime, cell.loader, std::string(to_string(cell.observed.outcome)), cell.observed.cause,
                cell.observed.workaround}]
          .push_back(aoti_package_label(package));
    } else if (cell.runtime < package.predicted_loads.size() && !package.predicted_loads[cell.runtime]) {
      judgement.findings.push_back({.stage = "aoti",
                                    .kind = "aoti-prediction-missed",
                                    .severity = FindingSeverity::Warning,
                                    .where = fmt::format("{} on torch {}{}", aoti_package_label(package),
                                                         result.releases[cell.runtime].to_full_string(),
                                                         cell.loader == AotiLoader::Cpp ? " (C++ loader)" : ""),
                                    .message = fmt::format("the audit predicted it would not load ({}), but it loaded",
                                                           package.predicted_why[cell.runtime])});
    }
  }
  for (const auto& [key, packages] : failures) {
    const auto& [runtime, loader, outcome, cause, workaround] = key;
    judgement.findings.push_back(
        {.stage = "aoti",
         .kind = fmt::format("aoti-{}", outcome),
         .where = fmt::format("torch {}{}", result.releases[runtime].to_full_string(),
                              loader == AotiLoader::Cpp ? " (C++ loader)" : ""),
         .message = fmt::format("{}{}; {} package{}: {}", cause,
                                workaround.empty() ? "" : fmt::format("; workaround: {}", workaround), packages.size(),
                                packages.size() == 1 ? "" : "s", fmt::join(packages, ", "))});
  }
  for (const auto& package : result.packages) {
    if (!package.compile_error.empty()) {
      judgement.findings.push_back({.stage = "aoti",
                                    .kind = "aoti-compile-failed",
                                    .severity = FindingSeverity::Warning,
                                    .where = aoti_package_label(package),
                                    .message = package.compile_error});
    }
    for (const auto& problem : package.audit_problems) {
      judgement.findings.push_back(
          {.stage = "aoti", .kind = "pt2-not-fully-read", .where = aoti_package_label(package), .message = problem});
    }
  }
  judgement.explain_kinds("aoti", [](std::string_view kind) { return find_kind_text(kAotiKinds, kind); });
  std::set<std::string> shims = result.shims_reached();
  auto cpu_shims =
      std::ranges::count_if(shims, [](const std::string& name) { return name.starts_with("aoti_torch_cpu_"); });
  judgement.lines.push_back(fmt::format(
      "aoti: {} package{}, {} cell{} loaded ({} failed), {} predicted only; the compiled code imports {} distinct "
      "shims ({} aoti_torch_cpu_*)",
      result.packages.size(), result.packages.size() == 1 ? "" : "s", ran, ran == 1 ? "" : "s", failed,
      result.cells.size() - static_cast<std::size_t>(ran), shims.size(), cpu_shims));
  return judgement;
}

}  // namespace abicheck

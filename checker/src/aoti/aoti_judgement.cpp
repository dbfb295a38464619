#include "aoti/aoti_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace abicheck {

std::string aoti_package_label(const AotiPackage& package) {
  return package.build ? fmt::format("{} (compiled by torch {})", package.model, package.build->to_full_string())
                       : package.model;
}

Judgement judge_aoti(const AotiResult& result) {
  Judgement judgement;
  // (release, outcome, cause, workaround) -> the packages it holds for.
  std::map<std::tuple<std::size_t, std::string, std::string, std::string>, std::vector<std::string>> failures;
  int failed = 0;
  int ran = 0;
  for (const auto& cell : result.cells) {
    const AotiPackage& package = result.packages[cell.package];
    if (!cell.ran) continue;
    ++ran;
    if (is_failure(cell.observed.outcome)) {
      ++failed;
      failures[{cell.runtime, std::string(to_string(cell.observed.outcome)), cell.observed.cause,
                cell.observed.workaround}]
          .push_back(aoti_package_label(package));
    } else if (cell.runtime < package.predicted_loads.size() && !package.predicted_loads[cell.runtime]) {
      judgement.findings.push_back({.stage = "aoti",
                                    .kind = "aoti-prediction-missed",
                                    .severity = FindingSeverity::Warning,
                                    .where = fmt::format("{} on torch {}", aoti_package_label(package),
                                                         result.releases[cell.runtime].to_full_string()),
                                    .message = fmt::format("the audit predicted it would not load ({}), but it loaded",
                                                           package.predicted_why[cell.runtime])});
    }
  }
  for (const auto& [key, packages] : failures) {
    const auto& [runtime, outcome, cause, workaround] = key;
    judgement.findings.push_back(
        {.stage = "aoti",
         .kind = fmt::format("aoti-{}", outcome),
         .where = fmt::format("torch {}", result.releases[runtime].to_full_string()),
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

#include "canary/canary_judgement.h"

#include <fmt/format.h>

#include <map>

namespace abicheck {
namespace {

std::string predicted_text(const Prediction& prediction) {
  return is_load(prediction.outcome) ? std::string("loads") : std::string(to_string(prediction.outcome));
}

// The canary's kinds: an observed failure that was not foreseen (its outcome's name), a load that
// was not foreseen, or a failure of another kind than the one foreseen ("refused-not-undefined-symbol").
std::optional<KindText> canary_kind_text(std::string_view kind) {
  if (kind == "could-not-install") {
    return KindText{.meaning = "The package could not be got ready (not on the index, no wheel for this platform).",
                    .remedy = "Check the package's name and version in the canary spec."};
  }
  if (kind == "loads-despite-prediction") {
    return KindText{.meaning =
                        "The package loaded where the audit predicted it would not: the prediction is too "
                        "strict.",
                    .remedy = "Nothing breaks for users; the audit's reason for the cell shows what it misjudged."};
  }
  if (kind.find("-not-") != std::string_view::npos) {
    return KindText{.meaning = "The package failed as foreseen, but in another way than the audit said.",
                    .remedy = "Compare the predicted reason with the observed detail; users see the observed one."};
  }
  if (!canary_outcome_from_string(kind)) return std::nullopt;
  return KindText{.meaning = fmt::format("The audit predicted a load, and the package failed ({}): a break users of "
                                         "this release will hit that the binary's imports did not show.",
                                         kind),
                  .remedy =
                      "Read the cell's detail; report it to the package, or to torch when a stable shim "
                      "or operator it uses changed."};
}

}  // namespace

std::string canary_cell_label(const CanaryRow& row, const CanaryCell& cell) {
  return fmt::format("{} on torch {}", row.package.spec.name, cell.observed.release.to_string());
}

Judgement judge_canary(const CanaryResult& result) {
  Judgement judgement;
  int cells = 0;
  int observable = 0;
  int agreeing_on_loading = 0;
  int agreeing = 0;
  std::map<CanaryOutcome, int> observed;
  std::map<std::string, int> environment;  // what the machine lacked, and in how many cells
  for (const auto& row : result.rows) {
    for (const auto& cell : row.cells) {
      ++cells;
      ++observed[cell.observed.outcome];
      if (!cell.observable()) {
        ++environment[cell.observed.detail];  // neither a break nor a pass: no finding, not scored
        continue;
      }
      ++observable;
      agreeing_on_loading += cell.agrees_on_loading() ? 1 : 0;
      if (cell.agrees()) {
        ++agreeing;
        continue;
      }
      const bool unforeseen = is_load(cell.predicted.outcome);
      judgement.findings.push_back(
          {.stage = "canary",
           .kind = unforeseen ? std::string(to_string(cell.observed.outcome))
                   : is_load(cell.observed.outcome)
                       ? std::string("loads-despite-prediction")
                       : fmt::format("{}-not-{}", to_string(cell.observed.outcome), to_string(cell.predicted.outcome)),
           .severity = unforeseen ? FindingSeverity::Error : FindingSeverity::Warning,
           .where = canary_cell_label(row, cell),
           .message = fmt::format("predicted {} ({}); observed {}: {}", predicted_text(cell.predicted),
                                  cell.predicted.reason, to_string(cell.observed.outcome), cell.observed.detail)});
    }
  }
  for (const auto& problem : result.problems) {
    judgement.findings.push_back({.stage = "canary",
                                  .kind = "could-not-install",
                                  .severity = FindingSeverity::Warning,
                                  .where = problem.package,
                                  .message = problem.problem});
  }
  judgement.explain_kinds("canary", canary_kind_text);
  std::string counts;
  for (const auto& [outcome, count] : observed)
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count, to_string(outcome));
  auto percent = [](int part, int whole) { return whole == 0 ? 100.0 : 100.0 * part / whole; };
  judgement.lines.push_back(fmt::format(
      "canary: {} packages x {} releases{}: loads / does not load as predicted in {} of {} cells ({:.1f}%); "
      "the failure class too in {} ({:.1f}%)",
      result.rows.size(), result.releases.size(),
      result.shard ? fmt::format(" (shard {})", result.shard->to_string()) : std::string(), agreeing_on_loading,
      observable, percent(agreeing_on_loading, observable), agreeing, percent(agreeing, observable)));
  for (const auto& [what, count] : environment) {
    judgement.lines.push_back(fmt::format("canary: {} cell(s) not observable on this machine: {}", count, what));
  }
  if (!counts.empty()) judgement.lines.push_back(fmt::format("canary: observed {}", counts));
  if (!result.problems.empty()) {
    judgement.lines.push_back(fmt::format("canary: {} package(s) could not be got ready", result.problems.size()));
  }
  if (!result.gpu) {
    judgement.lines.push_back("canary: no GPU here: device code was loaded, not run (loaded-not-executed)");
  }
  return judgement;
}

}  // namespace abicheck

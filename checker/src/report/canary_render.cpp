#include "report/canary_render.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/markup.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

// Short labels, so that seven releases fit a terminal; the legend names them in full.
struct OutcomeLabel {
  std::string_view outcome;
  std::string_view label;
};
constexpr OutcomeLabel kLabels[] = {
    {"loaded", "loaded"},          {"loaded-not-executed", "no-gpu"},
    {"undefined-symbol", "undef"}, {"missing-library", "no-lib"},
    {"refused", "refused"},        {"operator-missing", "no-op"},
    {"smoke-failed", "smoke"},     {"crash", "CRASH"},
    {"timeout", "TIMEOUT"},        {"environment", "env"},
    {"could-not-install", "n/a"},
};

std::string label_of(const std::string& outcome) {
  for (const auto& label : kLabels) {
    if (label.outcome == outcome) return std::string(label.label);
  }
  return outcome;
}

std::string nullable_text(const json& object, const char* key) {
  auto found = object.find(key);
  return found == object.end() || found->is_null() ? std::string() : found->get<std::string>();
}

std::string release_label(const std::string& full) { return full.substr(0, full.rfind('.')); }

std::string cell_mark(const json& cell) {
  return label_of(nullable_text(cell, "observed")) + (cell.value("as_predicted", true) ? "" : "!");
}

std::string predicted_label(const json& cell) {
  std::string predicted = nullable_text(cell, "predicted");
  return predicted == "loaded" ? "loads" : predicted;
}

// Loads / does not load first, the failure class second; cells that failed for the environment are
// neither (they are counted apart).
std::string agreement_line(const json& section) {
  int cells = section.value("cells", 0);
  int observable = section.value("observable", cells);
  int loading = section.value("as_predicted_loading", 0);
  int agreeing = section.value("as_predicted", 0);
  auto percent = [](int part, int whole) { return whole == 0 ? 100.0 : 100.0 * part / whole; };
  std::string line = fmt::format(
      "loads / does not load as predicted in {} of {} cells ({:.1f}%), the failure class "
      "too in {} ({:.1f}%); cells as predicted: {} of {}",
      loading, observable, percent(loading, observable), agreeing, percent(agreeing, observable), agreeing, observable);
  if (cells != observable) line += fmt::format(" ({} more not observable here: environment)", cells - observable);
  return line;
}

// The page's colour of a cell: agreed load or failure, a break nobody foresaw, a load despite the
// prediction, or nothing to say (environment).
std::string canary_cell_class(const json& cell) {
  const std::string observed = nullable_text(cell, "observed");
  if (!cell.value("observable", true)) return "outcome-not-run";
  if (observed == "crash") return "outcome-crash";
  if (observed == "timeout") return "outcome-timeout";
  const bool loads = observed == "loaded" || observed == "loaded-not-executed";
  if (cell.value("as_predicted_loading", true)) return loads ? "outcome-pass" : "outcome-expected-fail";
  return loads ? "outcome-unexpected-pass" : "outcome-unexpected-fail";
}

}  // namespace

json canary_section(const CanaryResult& result) {
  json section = {{"spec", result.spec.string()},
                  {"releases", json::array()},
                  {"gpu", result.gpu},
                  {"packages", json::array()},
                  {"problems", json::array()}};
  for (const auto& release : result.releases) section["releases"].push_back(release.to_full_string());
  int cells = 0;
  int observable = 0;
  int loading = 0;
  int agreeing = 0;
  for (const auto& row : result.rows) {
    const CanaryPackage& package = row.package;
    json entry = {{"name", package.spec.name},
                  {"distribution", package.distribution},
                  {"version", package.version},
                  {"wheel", package.wheel.filename().string()},
                  {"sha256", package.sha256},
                  {"why", package.spec.why},
                  {"verdict", to_string(row.audit.verdict)},
                  {"min_torch", row.audit.min_torch ? json(row.audit.min_torch->to_string()) : json()},
                  {"requires_torch", package.requires_torch},
                  {"device_code", row.audit.device_code},
                  {"operator_reference", row.operator_reference ? json(row.operator_reference->to_string()) : json()},
                  {"cells", json::array()}};
    for (const auto& cell : row.cells) {
      ++cells;
      observable += cell.observable() ? 1 : 0;
      loading += cell.observable() && cell.agrees_on_loading() ? 1 : 0;
      agreeing += cell.observable() && cell.agrees() ? 1 : 0;
      entry["cells"].push_back({{"release", cell.observed.release.to_full_string()},
                                {"predicted", to_string(cell.predicted.outcome)},
                                {"prediction_reason", cell.predicted.reason},
                                {"observed", to_string(cell.observed.outcome)},
                                {"detail", cell.observed.detail},
                                {"notes", cell.observed.notes},
                                {"operators", cell.observed.operators.size()},
                                {"seconds", cell.observed.seconds},
                                {"cached", cell.observed.cached},
                                {"observable", cell.observable()},
                                {"as_predicted_loading", !cell.observable() || cell.agrees_on_loading()},
                                {"as_predicted", !cell.observable() || cell.agrees()}});
    }
    section["packages"].push_back(std::move(entry));
  }
  for (const auto& problem : result.problems) {
    section["problems"].push_back({{"package", problem.package}, {"problem", problem.problem}});
  }
  section["cells"] = cells;
  section["observable"] = observable;
  section["as_predicted_loading"] = loading;
  section["as_predicted"] = agreeing;
  section["shard"] = result.shard ? json(result.shard->to_string()) : json();
  return section;
}

std::string render_canary_grid(const json& section) {
  std::size_t width = 8;
  for (const auto& package : section.at("packages")) width = std::max(width, nullable_text(package, "name").size());
  for (const auto& problem : section.at("problems")) width = std::max(width, nullable_text(problem, "package").size());
  std::string grid = fmt::format("canary: what each package did under each release (! : not as predicted)\n  {:<{}}",
                                 "package", width);
  for (const auto& release : section.at("releases")) grid += fmt::format(" {:>8}", release_label(release));
  grid += "\n";
  std::string explained;
  for (const auto& package : section.at("packages")) {
    grid += fmt::format("  {:<{}}", nullable_text(package, "name"), width);
    for (const auto& cell : package.at("cells")) {
      grid += fmt::format(" {:>8}", cell_mark(cell));
      if (!cell.value("as_predicted", true)) {
        explained += fmt::format("  {} on {}: predicted {} ({}); observed {}: {}\n", nullable_text(package, "name"),
                                 release_label(nullable_text(cell, "release")), predicted_label(cell),
                                 nullable_text(cell, "prediction_reason"), nullable_text(cell, "observed"),
                                 nullable_text(cell, "detail"));
      }
    }
    grid += "\n";
  }
  for (const auto& problem : section.at("problems")) {
    grid += fmt::format("  {:<{}} could not be got ready: {}\n", nullable_text(problem, "package"), width,
                        nullable_text(problem, "problem"));
  }
  std::string legend;
  for (const auto& label : kLabels) {
    if (label.outcome != label.label)
      legend += fmt::format("{}{} = {}", legend.empty() ? "" : ", ", label.label, label.outcome);
  }
  grid += fmt::format("  ({})\n", legend);
  if (!explained.empty()) grid += "not as predicted:\n" + explained;
  return grid + fmt::format("canary: {}\n", agreement_line(section));
}

std::string render_canary_markdown(const json& section) {
  std::string markdown = fmt::format("{}. Cells read *observed* (and *predicted* where they differ).\n\n| package |",
                                     agreement_line(section));
  std::string rule = "|---|";
  for (const auto& release : section.at("releases")) {
    markdown += fmt::format(" {} |", release_label(release));
    rule += "---|";
  }
  markdown += "\n" + rule + "\n";
  for (const auto& package : section.at("packages")) {
    markdown += fmt::format("| `{}` |", nullable_text(package, "name"));
    for (const auto& cell : package.at("cells")) {
      markdown += cell.value("as_predicted", true)
                      ? fmt::format(" {} |", nullable_text(cell, "observed"))
                      : fmt::format(" **{}** (predicted {}) |", nullable_text(cell, "observed"), predicted_label(cell));
    }
    markdown += "\n";
  }
  for (const auto& problem : section.at("problems")) {
    markdown += fmt::format("\n- `{}` could not be got ready: {}\n", nullable_text(problem, "package"),
                            nullable_text(problem, "problem"));
  }
  return markdown;
}

// The ecosystem grid, for a release manager: a row per package, a column per release, each cell what
// happened (and what was predicted where that differs), coloured by whether it was foreseen; a
// tally per release; then every disagreement with both sides, and every cell's detail.
std::string render_canary_html(const json& section) {
  const std::string shard = nullable_text(section, "shard");
  std::string html = fmt::format(
      "<section id=\"canary\">\n<h2>Canary: published packages under each torch release{}</h2>\n<p>{}.</p>\n"
      "<p class=\"legend\"><span class=\"outcome-pass\">loads, as predicted</span><span "
      "class=\"outcome-expected-fail\">fails, as predicted</span><span class=\"outcome-unexpected-fail\">fails, "
      "predicted to load</span><span class=\"outcome-unexpected-pass\">loads, predicted to fail</span><span "
      "class=\"outcome-not-run\">environment: needs what this machine lacks</span> A cell reads what happened; "
      "<i>predicted …</i> under it where the audit said otherwise. Hover a cell for why, click it for the "
      "details.</p>\n<div class=\"wide\"><table class=\"grid\">\n<thead><tr><th>package</th>",
      shard.empty() ? "" : fmt::format(" (shard {})", escape_markup(shard)), escape_markup(agreement_line(section)));
  const json& releases = section.at("releases");
  for (const auto& release : releases) html += fmt::format("<th>torch {}</th>", escape_markup(release_label(release)));
  html += "</tr></thead>\n<tbody>\n";
  std::vector<int> loads(releases.size(), 0);
  std::vector<int> fails(releases.size(), 0);
  std::vector<int> unforeseen(releases.size(), 0);
  std::string details;
  std::string disagreements;
  int index = 0;
  for (const auto& package : section.at("packages")) {
    html += fmt::format("<tr><th title=\"{}\">{}</th>", escape_markup(nullable_text(package, "why")),
                        escape_markup(nullable_text(package, "name")));
    std::size_t column = 0;
    for (const auto& cell : package.at("cells")) {
      const std::string observed = nullable_text(cell, "observed");
      const bool loaded = observed == "loaded" || observed == "loaded-not-executed";
      if (cell.value("observable", true) && column < releases.size()) {
        (loaded ? loads : fails)[column] += 1;
        if (!loaded && nullable_text(cell, "predicted") == "loaded") unforeseen[column] += 1;
      }
      const bool agrees = cell.value("as_predicted", true);
      const std::string why =
          fmt::format("predicted {}: {}\nobserved {}: {}", predicted_label(cell),
                      nullable_text(cell, "prediction_reason"), observed, nullable_text(cell, "detail"));
      html += fmt::format("<td class=\"cell {}\" title=\"{}\"><a href=\"#canary-{}\">{}{}</a></td>",
                          canary_cell_class(cell), escape_markup(why), index, escape_markup(label_of(observed)),
                          agrees ? "" : fmt::format("<br><i>predicted {}</i>", escape_markup(predicted_label(cell))));
      std::string notes;
      for (const auto& note : cell.at("notes"))
        notes += fmt::format("<li>{}</li>", escape_markup(note.get<std::string>()));
      std::string what = fmt::format(
          "<details class=\"log\" id=\"canary-{}\"><summary>{} on torch {}: {}</summary>\n<p>predicted {}: {}</p>\n"
          "<p>observed {}: {}</p>{}</details>\n",
          index, escape_markup(nullable_text(package, "name")),
          escape_markup(release_label(nullable_text(cell, "release"))), escape_markup(observed),
          escape_markup(predicted_label(cell)), escape_markup(nullable_text(cell, "prediction_reason")),
          escape_markup(observed), escape_markup(nullable_text(cell, "detail")),
          notes.empty() ? "" : "<ul>" + notes + "</ul>");
      details += what;
      if (!agrees) {
        disagreements += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}: {}</td><td>{}: {}</td></tr>\n",
            escape_markup(nullable_text(package, "name")), escape_markup(release_label(nullable_text(cell, "release"))),
            escape_markup(predicted_label(cell)), escape_markup(nullable_text(cell, "prediction_reason")),
            escape_markup(observed), escape_markup(nullable_text(cell, "detail")));
      }
      ++index;
      ++column;
    }
    html += "</tr>\n";
  }
  html += "</tbody>\n<tfoot><tr><th>loads / fails (not foreseen)</th>";
  for (std::size_t r = 0; r < releases.size(); ++r) {
    html += fmt::format("<td>{} / {}{}</td>", loads[r], fails[r],
                        unforeseen[r] == 0 ? std::string() : fmt::format(" (<b>{}</b>)", unforeseen[r]));
  }
  html += "</tr></tfoot></table></div>\n";
  for (const auto& problem : section.at("problems")) {
    html += fmt::format("<p>{} could not be got ready: {}</p>\n", escape_markup(nullable_text(problem, "package")),
                        escape_markup(nullable_text(problem, "problem")));
  }
  if (!disagreements.empty()) {
    html +=
        "<h3>Not as predicted</h3>\n<table class=\"findings\"><thead><tr><th>package</th><th>torch</th>"
        "<th>predicted</th><th>observed</th></tr></thead><tbody>\n" +
        disagreements + "</tbody></table>\n";
  }
  return html + fmt::format("<details><summary>Every cell</summary>\n{}</details>\n</section>\n", details);
}

std::vector<JUnitCase> canary_junit_cases(const json& section) {
  std::vector<JUnitCase> cases;
  for (const auto& package : section.at("packages")) {
    for (const auto& cell : package.at("cells")) {
      std::string observed = nullable_text(cell, "observed");
      JUnitCase test{.class_name = "canary." + nullable_text(package, "name"),
                     .name = "torch " + release_label(nullable_text(cell, "release")),
                     .message = fmt::format("predicted {}; observed {}: {}", predicted_label(cell), observed,
                                            nullable_text(cell, "detail")),
                     .seconds = cell.value("seconds", 0.0)};
      if (!cell.value("as_predicted", true) && nullable_text(cell, "predicted") == "loaded") {
        test.outcome = JUnitCase::Outcome::Failed;
      } else if (observed == "loaded-not-executed" || observed == "environment") {
        test.outcome = JUnitCase::Outcome::Skipped;
      }
      cases.push_back(std::move(test));
    }
  }
  for (const auto& problem : section.at("problems")) {
    cases.push_back({.class_name = "canary." + nullable_text(problem, "package"),
                     .name = "install",
                     .outcome = JUnitCase::Outcome::Error,
                     .message = nullable_text(problem, "problem")});
  }
  return cases;
}

std::string render_canary_cost(const CanaryResult& result) {
  return fmt::format("({} cells: {} run, {} from cache; {:.1f} s)\n", result.cells_run + result.cells_cached,
                     result.cells_run, result.cells_cached, result.wall_s);
}

}  // namespace abicheck

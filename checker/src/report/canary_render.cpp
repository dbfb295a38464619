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
    {"timeout", "TIMEOUT"},        {"could-not-install", "n/a"},
};

std::string label_of(const std::string& outcome) {
  for (const auto& label : kLabels) {
    if (label.outcome == outcome) return std::string(label.label);
  }
  return outcome;
}

std::string text(const json& object, const char* key) {
  auto found = object.find(key);
  return found == object.end() || found->is_null() ? std::string() : found->get<std::string>();
}

std::string release_label(const std::string& full) { return full.substr(0, full.rfind('.')); }

std::string cell_mark(const json& cell) {
  return label_of(text(cell, "observed")) + (cell.value("as_predicted", true) ? "" : "!");
}

std::string predicted_label(const json& cell) {
  std::string predicted = text(cell, "predicted");
  return predicted == "loaded" ? "loads" : predicted;
}

std::string agreement_line(const json& section) {
  int cells = section.value("cells", 0);
  int agreeing = section.value("as_predicted", 0);
  return fmt::format("{} of {} cells as predicted ({:.0f}%)", agreeing, cells,
                     cells == 0 ? 100.0 : 100.0 * agreeing / cells);
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
      agreeing += cell.agrees() ? 1 : 0;
      entry["cells"].push_back({{"release", cell.observed.release.to_full_string()},
                                {"predicted", to_string(cell.predicted.outcome)},
                                {"prediction_reason", cell.predicted.reason},
                                {"observed", to_string(cell.observed.outcome)},
                                {"detail", cell.observed.detail},
                                {"notes", cell.observed.notes},
                                {"operators", cell.observed.operators.size()},
                                {"seconds", cell.observed.seconds},
                                {"cached", cell.observed.cached},
                                {"as_predicted", cell.agrees()}});
    }
    section["packages"].push_back(std::move(entry));
  }
  for (const auto& problem : result.problems) {
    section["problems"].push_back({{"package", problem.package}, {"problem", problem.problem}});
  }
  section["cells"] = cells;
  section["as_predicted"] = agreeing;
  return section;
}

std::string render_canary_grid(const json& section) {
  std::size_t width = 8;
  for (const auto& package : section.at("packages")) width = std::max(width, text(package, "name").size());
  for (const auto& problem : section.at("problems")) width = std::max(width, text(problem, "package").size());
  std::string grid = fmt::format("canary: what each package did under each release (! : not as predicted)\n  {:<{}}",
                                 "package", width);
  for (const auto& release : section.at("releases")) grid += fmt::format(" {:>8}", release_label(release));
  grid += "\n";
  std::string explained;
  for (const auto& package : section.at("packages")) {
    grid += fmt::format("  {:<{}}", text(package, "name"), width);
    for (const auto& cell : package.at("cells")) {
      grid += fmt::format(" {:>8}", cell_mark(cell));
      if (!cell.value("as_predicted", true)) {
        explained += fmt::format("  {} on {}: predicted {} ({}); observed {}: {}\n", text(package, "name"),
                                 release_label(text(cell, "release")), predicted_label(cell),
                                 text(cell, "prediction_reason"), text(cell, "observed"), text(cell, "detail"));
      }
    }
    grid += "\n";
  }
  for (const auto& problem : section.at("problems")) {
    grid +=
        fmt::format("  {:<{}} could not be got ready: {}\n", text(problem, "package"), width, text(problem, "problem"));
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
    markdown += fmt::format("| `{}` |", text(package, "name"));
    for (const auto& cell : package.at("cells")) {
      markdown += cell.value("as_predicted", true)
                      ? fmt::format(" {} |", text(cell, "observed"))
                      : fmt::format(" **{}** (predicted {}) |", text(cell, "observed"), predicted_label(cell));
    }
    markdown += "\n";
  }
  for (const auto& problem : section.at("problems")) {
    markdown +=
        fmt::format("\n- `{}` could not be got ready: {}\n", text(problem, "package"), text(problem, "problem"));
  }
  return markdown;
}

std::string render_canary_html(const json& section) {
  std::string html = fmt::format(
      "<section id=\"canary\">\n<h2>Canary</h2>\n<p>{}. Rows: published packages; columns: torch releases; "
      "<b>bold</b>: not as predicted. Click a cell for what happened.</p>\n<table class=\"grid\">\n"
      "<thead><tr><th>package</th>",
      escape_markup(agreement_line(section)));
  for (const auto& release : section.at("releases")) {
    html += fmt::format("<th>torch {}</th>", escape_markup(release_label(release)));
  }
  html += "</tr></thead>\n<tbody>\n";
  std::string details;
  int index = 0;
  for (const auto& package : section.at("packages")) {
    html += fmt::format("<tr><th title=\"{}\">{}</th>", escape_markup(text(package, "why")),
                        escape_markup(text(package, "name")));
    for (const auto& cell : package.at("cells")) {
      bool agrees = cell.value("as_predicted", true);
      std::string observed = text(cell, "observed");
      html +=
          fmt::format("<td class=\"cell canary-{}{}\"><a href=\"#canary-{}\">{}</a></td>", escape_markup(observed),
                      agrees ? "" : " disagrees", index,
                      agrees ? escape_markup(label_of(observed)) : "<b>" + escape_markup(label_of(observed)) + "</b>");
      std::string notes;
      for (const auto& note : cell.at("notes"))
        notes += fmt::format("<li>{}</li>", escape_markup(note.get<std::string>()));
      details += fmt::format(
          "<details class=\"log\" id=\"canary-{}\"><summary>{} on torch {}: {}</summary>\n<p>predicted {}: {}</p>\n"
          "<p>observed {}: {}</p>{}</details>\n",
          index, escape_markup(text(package, "name")), escape_markup(release_label(text(cell, "release"))),
          escape_markup(observed), escape_markup(predicted_label(cell)), escape_markup(text(cell, "prediction_reason")),
          escape_markup(observed), escape_markup(text(cell, "detail")), notes.empty() ? "" : "<ul>" + notes + "</ul>");
      ++index;
    }
    html += "</tr>\n";
  }
  html += "</tbody></table>\n";
  for (const auto& problem : section.at("problems")) {
    html += fmt::format("<p>{} could not be got ready: {}</p>\n", escape_markup(text(problem, "package")),
                        escape_markup(text(problem, "problem")));
  }
  return html + fmt::format("<details><summary>Every cell</summary>\n{}</details>\n</section>\n", details);
}

std::vector<JUnitCase> canary_junit_cases(const json& section) {
  std::vector<JUnitCase> cases;
  for (const auto& package : section.at("packages")) {
    for (const auto& cell : package.at("cells")) {
      std::string observed = text(cell, "observed");
      JUnitCase test{.class_name = "canary." + text(package, "name"),
                     .name = "torch " + release_label(text(cell, "release")),
                     .message = fmt::format("predicted {}; observed {}: {}", predicted_label(cell), observed,
                                            text(cell, "detail")),
                     .seconds = cell.value("seconds", 0.0)};
      if (!cell.value("as_predicted", true) && text(cell, "predicted") == "loaded") {
        test.outcome = JUnitCase::Outcome::Failed;
      } else if (observed == "loaded-not-executed") {
        test.outcome = JUnitCase::Outcome::Skipped;
      }
      cases.push_back(std::move(test));
    }
  }
  for (const auto& problem : section.at("problems")) {
    cases.push_back({.class_name = "canary." + text(problem, "package"),
                     .name = "install",
                     .outcome = JUnitCase::Outcome::Error,
                     .message = text(problem, "problem")});
  }
  return cases;
}

std::string render_canary_cost(const CanaryResult& result) {
  return fmt::format("({} cells: {} run, {} from cache; {:.1f} s)\n", result.cells_run + result.cells_cached,
                     result.cells_run, result.cells_cached, result.wall_s);
}

}  // namespace abicheck

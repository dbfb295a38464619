#include "report/html_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "core/tool_error.h"
#include "report/aoti_render.h"
#include "report/canary_render.h"
#include "report/markup.h"
#include "report/release_order.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

using json = nlohmann::json;

// The outcomes of a matrix cell, in legend order, with the short label a grid cell shows: the
// label carries the outcome too, so the grid reads without colour.
struct OutcomeStyle {
  const char* outcome;
  const char* label;
  bool finding;
};
constexpr OutcomeStyle outcome_styles[] = {
    {"pass", "pass", false},           {"expected-fail", "xfail", false},
    {"unexpected-fail", "FAIL", true}, {"unexpected-pass", "XPASS", true},
    {"crash", "CRASH", true},          {"timeout", "TIMEOUT", true},
    {"not-run", "not run", false},     {"loaded-not-executed", "loaded", false},
};

const OutcomeStyle* style_of(const std::string& outcome) {
  for (const auto& style : outcome_styles) {
    if (outcome == style.outcome) return &style;
  }
  return nullptr;
}

// A field as text whatever its JSON type; missing and null read as empty. Logs are not always valid
// UTF-8, so dumping replaces bad bytes instead of throwing.
std::string text_of(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto found = object.find(key);
  if (found == object.end() || found->is_null()) return {};
  if (found->is_string()) return found->get<std::string>();
  return found->dump(-1, ' ', false, json::error_handler_t::replace);
}

const json& array_of(const json& object, const char* key) {
  static const json empty = json::array();
  if (!object.is_object()) return empty;
  auto found = object.find(key);
  return found != object.end() && found->is_array() ? *found : empty;
}

// The JSON inside <script>: "<" is written as \u003c so no "</script>" in a log can end the element.
std::string embedded_json(const json& document) {
  std::string dumped = document.dump(1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size());
  for (char c : dumped) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

const json& section(const json& document, const char* name) {
  static const json none;
  if (!document.is_object()) return none;
  auto found = document.find(name);
  return found != document.end() && found->is_object() ? *found : none;
}

bool is_finding_severity(const std::string& severity) { return severity == "error"; }
bool is_finding_change(const std::string& verdict) { return verdict == "breaking"; }
bool is_finding_binary(const std::string& verdict) { return verdict != "stable"; }

const char* page_style = R"css(
:root { --pass:#c8e6c9; --xfail:#dcedc8; --fail:#ef9a9a; --xpass:#ffcc80; --crash:#b71c1c; --timeout:#ce93d8; --notrun:#eeeeee; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 0 1.5rem 3rem; max-width: 1280px; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.5rem; margin: 1.2rem 0 .4rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
nav a { margin-right: 1rem; }
.verdict { font-size: 1.1rem; font-weight: 600; padding: .5rem .8rem; border-radius: 4px; display: inline-block; }
.verdict-clean { background: var(--pass); }
.verdict-findings { background: var(--fail); }
table { border-collapse: collapse; margin: .3rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #f3f3f3; position: sticky; top: 0; }
table.grid td { text-align: center; min-width: 5.5rem; padding: 0; }
table.grid td a { display: block; padding: .3rem .4rem; color: inherit; text-decoration: none; }
table.grid td a:hover { outline: 2px solid #333; }
.outcome-pass { background: var(--pass); }
.outcome-expected-fail { background: var(--xfail); color: #33691e; }
.outcome-unexpected-fail { background: var(--fail); font-weight: 700; }
.outcome-unexpected-pass { background: var(--xpass); font-weight: 700; }
.outcome-crash { background: var(--crash); color: #fff; font-weight: 700; }
.outcome-timeout { background: var(--timeout); font-weight: 700; }
.outcome-not-run, .outcome-loaded-not-executed, .outcome-unknown { background: var(--notrun); color: #555; }
.legend span { display: inline-block; padding: .1rem .5rem; margin: 0 .3rem .3rem 0; border-radius: 3px; }
details.log { margin: .2rem 0; }
details.log > summary { cursor: pointer; }
details.log[open] { border-left: 3px solid #888; padding-left: .5rem; }
pre { background: #f7f7f7; padding: .5rem; max-height: 24rem; overflow: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
td.finding { background: #fde7e7; font-weight: 600; }
td.path { overflow-wrap: anywhere; max-width: 30rem; }
td.where { overflow-wrap: anywhere; max-width: 28rem; }
.muted { color: #666; }
details.group { border: 1px solid #ddd; border-radius: 4px; margin: .3rem 0; padding: .2rem .6rem; }
details.group > summary { cursor: pointer; }
details.group[open] > summary { margin-bottom: .3rem; }
.count { display: inline-block; min-width: 2.5rem; text-align: center; border-radius: 3px; background: #eee; font-weight: 600; }
.count.finding { background: var(--fail); }
p.remedy { margin: .2rem 0 .4rem; }
table.findings td:last-child, table.diff td:last-child, table.lint td:last-child { overflow-wrap: anywhere; }
.wide { overflow-x: auto; max-width: 100%; }
)css";

// Opens the log a grid cell links to (on click and when the page is opened at #log-...).
const char* page_script = R"js(
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || target.tagName !== 'DETAILS') return;
    // A cell's log sits inside its grid's closed "Logs of ..." list: open every level.
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') node.open = true;
    }
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
)js";

struct GridKey {
  std::string suite;
  std::string backend;
  bool operator<(const GridKey& other) const { return std::tie(suite, backend) < std::tie(other.suite, other.backend); }
};

struct RowKey {
  std::string build;
  std::string target;
  bool operator<(const RowKey& other) const {
    if (build != other.build) return release_text_less(build, other.build);
    return release_text_less(target, other.target);
  }
};

std::string cell_title(const json& cell) {
  std::string title = fmt::format("{} build {} target {} on {}: {} (expected {})", text_of(cell, "backend"),
                                  text_of(cell, "build"), text_of(cell, "target"), text_of(cell, "runtime"),
                                  text_of(cell, "outcome"), text_of(cell, "expected"));
  std::string reason = text_of(cell, "reason");
  if (!reason.empty()) title += "\n" + reason;
  return title;
}

// The op tests a cell ran: counts by outcome, and every test that did not pass with its message.
std::string render_op_results(const json& ops) {
  if (ops.empty()) return {};
  std::map<std::string, int> counts;
  std::string not_passed;
  for (const json& op : ops) {
    std::string outcome = text_of(op, "outcome");
    ++counts[outcome];
    if (outcome == "passed") continue;
    not_passed += fmt::format("<li><code>{}</code> {}: {}</li>", escape_markup(text_of(op, "test")),
                              escape_markup(outcome), escape_markup(text_of(op, "message")));
  }
  std::string summary;
  for (const auto& [outcome, count] : counts)
    summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", count, outcome);
  return fmt::format("<p>op tests: {}</p>\n{}", escape_markup(summary),
                     not_passed.empty() ? "" : "<ul class=\"ops\">" + not_passed + "</ul>\n");
}

std::string coverage_figure(int part, int whole) {
  return whole == 0 ? std::to_string(part) : fmt::format("{} ({:.0f}%)", part, 100.0 * part / whole);
}

// The shim coverage table: per runtime release, hand-written and all shims declared, imported, called.
std::string render_shim_coverage(const json& coverage) {
  const bool measured = coverage.value("calls_measured", false);
  std::string html =
      "<h3>Shim coverage</h3>\n<p class=\"muted\">Per runtime release; called is measured in each cell's "
      "process.</p>\n<table class=\"coverage\"><thead><tr><th>release</th><th>hand-written declared</th>"
      "<th>imported</th><th>called</th><th>all declared</th><th>imported</th><th>called</th></tr></thead>\n<tbody>\n";
  std::string uncovered;
  for (const json& release : array_of(coverage, "releases")) {
    const int declared = release.value("hand_written_declared", 0);
    const int imported = release.value("hand_written_imported", 0);
    const int called = release.value("hand_written_called", 0);
    html += fmt::format("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        escape_markup(text_of(release, "release")), declared, coverage_figure(imported, declared),
                        measured ? coverage_figure(called, imported) : "not measured", release.value("declared", 0),
                        release.value("imported", 0),
                        measured ? std::to_string(release.value("called", 0)) : "not measured");
    std::vector<std::string> not_imported;
    for (const json& name : array_of(release, "hand_written_not_imported")) not_imported.push_back(name);
    std::vector<std::string> not_called;
    for (const json& name : array_of(release, "hand_written_imported_not_called")) not_called.push_back(name);
    std::vector<std::string> not_applicable;
    for (const json& shim : array_of(release, "hand_written_not_applicable")) {
      not_applicable.push_back(fmt::format("{} ({})", text_of(shim, "name"), text_of(shim, "needs")));
    }
    uncovered = fmt::format(
        "<details><summary>Not covered in {}</summary>\n<p>Not imported: <code>{}</code></p>\n<p>Imported, never "
        "called: <code>{}</code></p>\n<p>Not applicable here (a backend no cell ran on): <code>{}</code></p>"
        "</details>\n",
        escape_markup(text_of(release, "release")), escape_markup(fmt::format("{}", fmt::join(not_imported, " "))),
        escape_markup(fmt::format("{}", fmt::join(not_called, " "))),
        escape_markup(fmt::format("{}", fmt::join(not_applicable, " "))));
  }
  html += "</tbody></table>\n";
  if (!measured) html += fmt::format("<p>Calls {}.</p>\n", escape_markup(text_of(coverage, "note")));
  return html + uncovered;
}

std::string render_matrix(const json& matrix) {
  const json& cells = array_of(matrix, "cells");
  std::map<std::string, int> counts;
  // grid -> row -> runtime -> indices of the cells there (normally one)
  std::map<GridKey, std::map<RowKey, std::map<std::string, std::vector<std::size_t>, ReleaseTextLess>>> grids;
  std::map<GridKey, std::set<std::string, ReleaseTextLess>> runtimes;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const json& cell = cells[i];
    GridKey grid{text_of(cell, "suite"), text_of(cell, "backend")};
    grids[grid][{text_of(cell, "build"), text_of(cell, "target")}][text_of(cell, "runtime")].push_back(i);
    runtimes[grid].insert(text_of(cell, "runtime"));
    ++counts[text_of(cell, "outcome")];
  }

  std::string html = "<section id=\"matrix\">\n<h2>Matrix</h2>\n<p class=\"legend\">";
  for (const auto& style : outcome_styles) {
    html += fmt::format("<span class=\"outcome-{}\">{} {}</span>", style.outcome, style.label, counts[style.outcome]);
  }
  html += fmt::format(
      "</p>\n<p class=\"muted\">Rows: build / target. Columns: runtime. {} cells; click a cell for its log.</p>\n",
      cells.size());

  for (const auto& [grid, rows] : grids) {
    std::string grid_name = grid.suite.empty() ? grid.backend : grid.suite + " · " + grid.backend;
    html += fmt::format(
        "<h3>{}</h3>\n<div class=\"wide\"><table class=\"grid\" data-backend=\"{}\">\n<thead><tr><th>build / "
        "target</th>",
        escape_markup(grid_name), escape_markup(grid.backend));
    for (const auto& runtime : runtimes[grid]) html += fmt::format("<th>runtime {}</th>", escape_markup(runtime));
    html += "</tr></thead>\n<tbody>\n";
    std::string logs;
    for (const auto& [row, by_runtime] : rows) {
      html += fmt::format("<tr><th>{} / {}</th>", escape_markup(row.build), escape_markup(row.target));
      for (const auto& runtime : runtimes[grid]) {
        auto found = by_runtime.find(runtime);
        if (found == by_runtime.end()) {
          html += "<td class=\"empty\"></td>";
          continue;
        }
        for (std::size_t index : found->second) {
          const json& cell = cells[index];
          std::string outcome = text_of(cell, "outcome");
          const OutcomeStyle* style = style_of(outcome);
          std::string css = style ? outcome : "unknown";
          std::string label = style ? style->label : outcome;
          html += fmt::format(
              "<td class=\"cell outcome-{}\" data-outcome=\"{}\" title=\"{}\"><a href=\"#log-{}\">{}</a></td>", css,
              escape_markup(outcome), escape_markup(cell_title(cell)), index, escape_markup(label));
          std::string duration = text_of(cell, "duration_s");
          logs += fmt::format(
              "<details class=\"log\" id=\"log-{}\"><summary><span class=\"outcome-{}\">{}</span> build {} target {} "
              "on runtime {}, expected {}{}</summary>\n",
              index, css, escape_markup(label), escape_markup(text_of(cell, "build")),
              escape_markup(text_of(cell, "target")), escape_markup(runtime), escape_markup(text_of(cell, "expected")),
              duration.empty() ? "" : fmt::format(", {} s", escape_markup(duration)));
          std::string reason = text_of(cell, "reason");
          if (!reason.empty()) logs += fmt::format("<p>{}</p>\n", escape_markup(reason));
          logs += render_op_results(array_of(cell, "ops"));
          logs += fmt::format("<pre>{}</pre></details>\n", escape_markup(text_of(cell, "log")));
        }
      }
      html += "</tr>\n";
    }
    html += "</tbody></table></div>\n";
    html += fmt::format("<details><summary>Logs of {}</summary>\n{}</details>\n", escape_markup(grid_name), logs);
  }
  if (matrix.contains("coverage")) html += render_shim_coverage(matrix.at("coverage"));
  return html + "</section>\n";
}

std::string diff_pair(const json& diff) {
  std::string from = text_of(diff, "old");
  std::string to = text_of(diff, "new");
  return from.empty() && to.empty() ? std::string() : fmt::format("{} -> {}", from, to);
}

bool is_counted_breaking(const json& change) {
  return is_finding_change(text_of(change, "verdict")) && text_of(change, "suppressed").empty();
}

std::string diff_row(const json& change) {
  std::string verdict = text_of(change, "verdict");
  std::string suppressed = text_of(change, "suppressed");
  return fmt::format(
      "<tr><td><code>{}</code></td><td>{}</td><td class=\"{}\">{}</td><td>{}{}</td></tr>\n",
      escape_markup(text_of(change, "name")), escape_markup(text_of(change, "kind")),
      is_counted_breaking(change) ? "finding" : "", escape_markup(verdict), escape_markup(text_of(change, "detail")),
      suppressed.empty() ? ""
                         : fmt::format(" <span class=\"muted\">[suppressed: {}]</span>", escape_markup(suppressed)));
}

// One diff: breaking changes and those needing review in a table, folded under their counts (the
// findings above already group the breaking ones by kind); compatible additions folded apart, since a
// release adds dozens and they need no action.
std::string render_one_diff(const json& diff) {
  const json& changes = array_of(diff, "changes");
  std::string pair = diff_pair(diff);
  std::string html = pair.empty() ? std::string() : fmt::format("<h3>{}</h3>\n", escape_markup(pair));
  if (changes.empty()) return html + "<p>No change.</p>\n";
  const char* header = "<thead><tr><th>name</th><th>kind</th><th>verdict</th><th>detail</th></tr></thead>\n";
  std::string to_act_on;
  std::string compatible;
  std::size_t compatible_count = 0;
  std::map<std::string, int> verdicts;
  for (const json& change : changes) {
    if (text_of(change, "verdict") == "compatible") {
      compatible += diff_row(change);
      ++compatible_count;
    } else {
      to_act_on += diff_row(change);
      ++verdicts[text_of(change, "verdict")];
    }
  }
  if (!to_act_on.empty()) {
    std::string counts;
    for (const auto& [verdict, count] : verdicts)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count, verdict);
    html += fmt::format(
        "<details><summary>{}</summary>\n<table class=\"diff\">\n{}<tbody>\n{}</tbody></table>\n</details>\n",
        escape_markup(counts), header, to_act_on);
  }
  if (compatible_count > 0) {
    html += fmt::format(
        "<details><summary>{} compatible {}</summary>\n<table "
        "class=\"diff\">\n{}<tbody>\n{}</tbody></table>\n</details>\n",
        compatible_count, compatible_count == 1 ? "addition" : "additions", header, compatible);
  }
  return html;
}

std::string render_diffs(const json& diffs) {
  std::string html = "<section id=\"diff\">\n<h2>ABI diff</h2>\n";
  for (const json& diff : diffs) html += render_one_diff(diff);
  return html + "</section>\n";
}

std::string render_lint(const json& lint) {
  const json& diagnostics = array_of(lint, "diagnostics");
  std::string html = "<section id=\"lint\">\n<h2>Lint</h2>\n";
  if (diagnostics.empty()) return html + "<p>No diagnostic.</p>\n</section>\n";
  html += fmt::format(
      "<details><summary>{} {}</summary>\n<table "
      "class=\"lint\">\n<thead><tr><th>rule</th><th>severity</th><th>where</th><th>message</th></tr></"
      "thead>\n<tbody>\n",
      diagnostics.size(), diagnostics.size() == 1 ? "diagnostic" : "diagnostics");
  for (const json& diagnostic : diagnostics) {
    std::string severity = text_of(diagnostic, "severity");
    html += fmt::format(
        "<tr><td>{}</td><td class=\"{}\">{}</td><td class=\"where\"><code>{}:{}:{}</code></td><td>{}</td></tr>\n",
        escape_markup(text_of(diagnostic, "rule")), is_finding_severity(severity) ? "finding" : "",
        escape_markup(severity), escape_markup(text_of(diagnostic, "file")), escape_markup(text_of(diagnostic, "line")),
        escape_markup(text_of(diagnostic, "column")), escape_markup(text_of(diagnostic, "message")));
  }
  return html + "</tbody></table>\n</details>\n</section>\n";
}

std::string symbol_list(const json& symbols) {
  std::string items;
  for (const json& symbol : symbols) {
    std::string name = symbol.is_string() ? symbol.get<std::string>() : text_of(symbol, "demangled");
    if (name.empty()) name = text_of(symbol, "name");
    items += fmt::format("<li><code>{}</code></li>", escape_markup(name));
  }
  return items;
}

// The binary's device libraries, and the stored releases it loads into and those it does not (with why).
std::string device_cells(const json& binary) {
  std::vector<std::string> sonames;
  const json& device = binary.contains("device") ? binary["device"] : json::object();
  for (const json& library : array_of(device, "libraries")) sonames.push_back(text_of(library, "soname"));
  std::string device_cell = device.value("toolkit", json()).is_string() ? device["toolkit"].get<std::string>() : "-";
  if (!sonames.empty())
    device_cell +=
        fmt::format("<br><span class=\"muted\">{}</span>", escape_markup(fmt::format("{}", fmt::join(sonames, " "))));
  std::vector<std::string> loads;
  std::string refused;
  for (const json& release : array_of(binary, "releases")) {
    if (!release.value("claimed", false)) continue;
    if (release.value("loads", false)) {
      loads.push_back(escape_markup(text_of(release, "release")));
      continue;
    }
    std::vector<std::string> why = array_of(release, "torch_misfits").get<std::vector<std::string>>();
    for (const json& misfit : array_of(release, "device_misfits")) {
      why.push_back(fmt::format("{}; ships {}", text_of(misfit, "need"), text_of(misfit, "has")));
    }
    refused +=
        fmt::format("<br><span class=\"finding\">not {} ({})</span>: {}", escape_markup(text_of(release, "release")),
                    escape_markup(text_of(release, "runtime")), escape_markup(fmt::format("{}", fmt::join(why, "; "))));
  }
  return fmt::format("<td>{}</td><td>{}{}</td>", device_cell,
                     loads.empty() ? "-" : fmt::format("{}", fmt::join(loads, ", ")), refused);
}

std::string render_audit(const json& audit) {
  const json& binaries = array_of(audit, "binaries");
  std::string html = "<section id=\"audit\">\n<h2>Audit</h2>\n";
  if (binaries.empty()) return html + "<p>No binary audited.</p>\n</section>\n";
  html +=
      "<div class=\"wide\"><table class=\"audit\">\n<thead><tr><th>binary</th><th>verdict</th><th>min "
      "torch</th><th>declared target</th>"
      "<th>shims</th><th>unstable symbols</th><th>device runtime</th><th>loads into</th></tr></thead>\n<tbody>\n";
  for (const json& binary : binaries) {
    std::string verdict = text_of(binary, "verdict");
    const json& unstable = array_of(binary, "unstable_symbols");
    std::string unstable_cell = unstable.empty() ? "0"
                                                 : fmt::format("<details><summary>{}</summary><ul>{}</ul></details>",
                                                               unstable.size(), symbol_list(unstable));
    std::string reasons;
    for (const json& reason : array_of(binary, "reasons")) {
      reasons += fmt::format("<br><span class=\"muted\">{}</span>",
                             escape_markup(reason.is_string() ? reason.get<std::string>() : reason.dump()));
    }
    html += fmt::format(
        "<tr><td class=\"path\"><code>{}</code>{}</td><td "
        "class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>\n",
        escape_markup(text_of(binary, "path")), reasons, is_finding_binary(verdict) ? "finding" : "",
        escape_markup(verdict), escape_markup(text_of(binary, "min_torch")),
        escape_markup(text_of(binary, "declared_target")), array_of(binary, "shim_symbols").size(), unstable_cell,
        device_cells(binary));
  }
  return html + "</tbody></table></div>\n</section>\n";
}

// The findings of one stage, grouped by kind.
struct StageFindings {
  std::string stage;
  int errors = 0;
  int warnings = 0;
  std::map<std::string, std::vector<const json*>> by_kind;
};

// The verdict's findings by stage (in the order the stages first appear) and kind (by name).
std::vector<StageFindings> group_findings(const json& findings) {
  std::vector<StageFindings> stages;
  for (const json& finding : findings) {
    std::string stage = text_of(finding, "stage");
    auto found = std::ranges::find(stages, stage, &StageFindings::stage);
    if (found == stages.end()) found = stages.insert(stages.end(), StageFindings{.stage = stage});
    ++(text_of(finding, "severity") == "warning" ? found->warnings : found->errors);
    found->by_kind[text_of(finding, "kind")].push_back(&finding);
  }
  return stages;
}

// What the stage said a kind means and what to do, from the verdict's "kinds".
const json* kind_text(const json& verdict, const std::string& stage, const std::string& kind) {
  for (const json& item : array_of(verdict, "kinds")) {
    if (text_of(item, "stage") == stage && text_of(item, "kind") == kind) return &item;
  }
  return nullptr;
}

std::string count_text(int errors, int warnings) {
  std::string text;
  if (errors > 0) text = fmt::format("{} {}", errors, errors == 1 ? "error" : "errors");
  if (warnings > 0)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", warnings, warnings == 1 ? "warning" : "warnings");
  return text;
}

// The page opens on this: one row per stage with findings, its counts and its kinds, each linked to
// its group below.
std::string render_summary(const std::vector<StageFindings>& stages) {
  std::string html =
      "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"summary\"><thead><tr><th>stage</th><th>findings</th>"
      "<th>kinds</th></tr></thead><tbody>\n";
  for (const auto& stage : stages) {
    std::string kinds;
    for (const auto& [kind, findings] : stage.by_kind) {
      kinds += fmt::format("{}<a href=\"#findings-{}-{}\"><code>{}</code></a> {}", kinds.empty() ? "" : ", ",
                           escape_markup(stage.stage), escape_markup(kind), escape_markup(kind), findings.size());
    }
    html += fmt::format("<tr><th><a href=\"#findings-{0}\">{0}</a></th><td class=\"{1}\">{2}</td><td>{3}</td></tr>\n",
                        escape_markup(stage.stage), stage.errors > 0 ? "finding" : "",
                        escape_markup(count_text(stage.errors, stage.warnings)), kinds);
  }
  return html + "</tbody></table>\n</section>\n";
}

// Every finding of the verdict, by stage and kind: a folded group per kind, headed by its count, what
// the kind means and what to do. Stages without a section of their own (check's build and target
// findings, the audit's stale allowlist entries) show here too.
std::string render_findings(const json& verdict, const std::vector<StageFindings>& stages) {
  std::string html =
      "<section id=\"findings\">\n<h2>Findings</h2>\n<p class=\"muted\">By stage and kind; open a group for its "
      "findings.</p>\n";
  for (const auto& stage : stages) {
    html += fmt::format("<h3 id=\"findings-{}\">{} <span class=\"muted\">{}</span></h3>\n", escape_markup(stage.stage),
                        escape_markup(stage.stage), escape_markup(count_text(stage.errors, stage.warnings)));
    for (const auto& [kind, findings] : stage.by_kind) {
      const json* text = kind_text(verdict, stage.stage, kind);
      const bool any_error =
          std::ranges::any_of(findings, [](const json* finding) { return text_of(*finding, "severity") != "warning"; });
      html += fmt::format(
          "<details class=\"group\" id=\"findings-{0}-{1}\" data-stage=\"{0}\" data-kind=\"{1}\"><summary><span "
          "class=\"count{2}\">{3}</span> <code>{1}</code>{4}</summary>\n",
          escape_markup(stage.stage), escape_markup(kind), any_error ? " finding" : "", findings.size(),
          text ? " &mdash; " + escape_markup(text_of(*text, "meaning")) : std::string());
      if (text)
        html += fmt::format("<p class=\"remedy\">What to do: {}</p>\n", escape_markup(text_of(*text, "remedy")));
      html +=
          "<table class=\"findings\"><thead><tr><th>severity</th><th>where</th><th>message</th></tr></thead><tbody>\n";
      for (const json* finding : findings) {
        std::string severity = text_of(*finding, "severity");
        html += fmt::format("<tr><td class=\"{}\">{}</td><td class=\"where\"><code>{}</code></td><td>{}</td></tr>\n",
                            severity == "warning" ? "" : "finding", escape_markup(severity),
                            escape_markup(text_of(*finding, "where")), escape_markup(message_with_notes(*finding)));
      }
      html += "</tbody></table>\n</details>\n";
    }
  }
  return html + "</section>\n";
}

}  // namespace

std::string render_html_report(const json& document) {
  std::string title = text_of(document, "title");
  if (title.empty()) title = "torch-abi-check report";
  // The verdict is the one the stages wrote into the document; the page only shows it.
  const json& verdict = document.at("verdict");
  std::vector<std::string> stages_with_findings;
  for (const json& finding : array_of(verdict, "findings")) {
    std::string stage = text_of(finding, "stage");
    if (text_of(finding, "severity") != "warning" &&
        std::ranges::find(stages_with_findings, stage) == stages_with_findings.end()) {
      stages_with_findings.push_back(stage);
    }
  }
  bool has_findings = !stages_with_findings.empty();

  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>{0}</title>\n<style>{1}</style>\n"
      "</head>\n<body>\n<header>\n<h1>{0}</h1>\n",
      escape_markup(title), page_style);

  html += fmt::format(
      "<p id=\"verdict\" class=\"verdict verdict-{}\">{}</p>\n<ul class=\"summary\">\n",
      has_findings ? "findings" : "clean",
      has_findings ? fmt::format("Findings in {}", fmt::join(stages_with_findings, ", ")) : std::string("No finding"));
  for (const json& line : array_of(verdict, "lines"))
    html += fmt::format("<li>{}</li>\n", escape_markup(line.get<std::string>()));
  if (std::string line = consequence_line(verdict); !line.empty()) {
    html += fmt::format("<li>{}</li>\n", escape_markup(line));
  }
  html += "</ul>\n<nav>";
  if (!array_of(verdict, "findings").empty())
    html += "<a href=\"#summary\">summary</a><a href=\"#findings\">findings</a>";
  for (const char* name : {"matrix", "canary", "aoti", "diff", "lint", "audit"}) {
    bool present =
        name == std::string_view("diff") ? !array_of(document, "diffs").empty() : !section(document, name).is_null();
    if (present) html += fmt::format("<a href=\"#{0}\">{0}</a>", name);
  }
  html += "</nav>\n</header>\n<main>\n";

  if (const json& findings = array_of(verdict, "findings"); !findings.empty()) {
    std::vector<StageFindings> stages = group_findings(findings);
    html += render_summary(stages) + render_findings(verdict, stages);
  }
  if (const json& matrix = section(document, "matrix"); !matrix.is_null()) html += render_matrix(matrix);
  if (const json& canary = section(document, "canary"); !canary.is_null()) html += render_canary_html(canary);
  if (const json& aoti = section(document, "aoti"); !aoti.is_null()) html += render_aoti_html(aoti);
  if (const json& diffs = array_of(document, "diffs"); !diffs.empty()) html += render_diffs(diffs);
  if (const json& lint = section(document, "lint"); !lint.is_null()) html += render_lint(lint);
  if (const json& audit = section(document, "audit"); !audit.is_null()) html += render_audit(audit);

  html += fmt::format(
      "</main>\n<script type=\"application/json\" "
      "id=\"report-data\">{}</script>\n<script>{}</script>\n</body>\n</html>\n",
      embedded_json(document), page_script);
  return html;
}

}  // namespace abicheck

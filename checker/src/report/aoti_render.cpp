#include "report/aoti_render.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "report/markup.h"

namespace abicheck {
namespace {

using nlohmann::json;

json cell_json(const AotiResult& result, const AotiPackage& package, const AotiCell& cell) {
  const bool predicted = cell.runtime < package.predicted_loads.size() && package.predicted_loads[cell.runtime];
  json entry = {{"release", result.releases[cell.runtime].to_full_string()},
                {"loader", to_string(cell.loader)},
                {"ran", cell.ran},
                {"predicted_loads", predicted},
                {"prediction_reason",
                 cell.runtime < package.predicted_why.size() ? package.predicted_why[cell.runtime] : std::string()},
                {"outcome", nullptr},
                {"detail", ""},
                {"cause", ""},
                {"workaround", ""},
                {"workaround_verified", false},
                {"warnings", json::array()},
                {"seconds", 0},
                {"cached", false}};
  if (cell.ran) {
    const AotiObservation& observed = cell.observed;
    entry["outcome"] = to_string(observed.outcome);
    entry["detail"] = observed.detail;
    entry["cause"] = observed.cause;
    entry["workaround"] = observed.workaround;
    entry["workaround_verified"] = observed.workaround_verified;
    entry["warnings"] = observed.warnings;
    entry["seconds"] = observed.seconds;
    entry["cached"] = observed.cached;
  }
  return entry;
}

std::string package_label(const json& package) {
  return package["build"].is_null()
             ? package["model"].get<std::string>()
             : fmt::format("{}@{}", package["model"].get<std::string>(), package["build"].get<std::string>());
}

// A grid's rows of a package: one per loader its cells used, labelled with the loader where there are
// both (the Python loader's cells first).
std::vector<std::pair<std::string, std::vector<json>>> package_rows(const json& package) {
  std::vector<std::pair<std::string, std::vector<json>>> rows;
  for (const char* loader : {"python", "cpp"}) {
    std::vector<json> cells;
    for (const auto& cell : package["cells"]) {
      if (cell["loader"] == loader) cells.push_back(cell);
    }
    if (!cells.empty()) rows.emplace_back(loader, std::move(cells));
  }
  const bool both = rows.size() > 1;
  for (auto& [label, cells] : rows) {
    const char* loader = label == "cpp" ? " (C++ loader)" : " (Python loader)";
    label = package_label(package) + (both ? loader : "");
  }
  if (rows.empty()) rows.emplace_back(package_label(package), std::vector<json>());
  return rows;
}

// What a cell shows in a grid: its outcome, or the audit's prediction in brackets where nothing ran.
std::string cell_shown(const json& cell) {
  if (cell["ran"].get<bool>()) return cell["outcome"].get<std::string>();
  return cell["predicted_loads"].get<bool>() ? "(loads?)" : "(no load)";
}

// The matrix's colours: a match or a load is a pass, a failure a failure, a cell not run grey.
std::string aoti_cell_class(const json& cell) {
  if (!cell["ran"].get<bool>()) return "outcome-not-run";
  const std::string outcome = cell["outcome"].get<std::string>();
  if (outcome == "matches" || outcome == "loaded") return "outcome-pass";
  if (outcome == "crash" || outcome == "timeout") return "outcome-" + outcome;
  return "outcome-unexpected-fail";
}

}  // namespace

json aoti_section(const AotiResult& result) {
  json releases = json::array();
  for (const auto& release : result.releases) releases.push_back(release.to_full_string());
  json packages = json::array();
  for (std::size_t p = 0; p < result.packages.size(); ++p) {
    const AotiPackage& package = result.packages[p];
    json cells = json::array();
    for (const auto& cell : result.cells) {
      if (cell.package == p) cells.push_back(cell_json(result, package, cell));
    }
    packages.push_back({{"model", package.model},
                        {"build", package.build ? json(package.build->to_full_string()) : json(nullptr)},
                        {"file", package.file.string()},
                        {"extension", package.extension.string()},
                        {"compile_error", package.compile_error},
                        {"compile_seconds", package.compile_seconds},
                        {"compile_cpu_seconds", package.compile_cpu_seconds},
                        {"shims", package.shims},
                        {"audit_problems", package.audit_problems},
                        {"cells", cells}});
  }
  std::set<std::string> shims = result.shims_reached();
  std::vector<std::string> names(shims.begin(), shims.end());
  auto cpu = std::ranges::count_if(names, [](const std::string& name) { return name.starts_with("aoti_torch_cpu_"); });
  return {{"releases", releases},
          {"packages", packages},
          {"coverage", {{"shims", names.size()}, {"cpu_shims", cpu}, {"names", names}}},
          {"cost",
           {{"compiles_run", result.compiles_run},
            {"compiles_cached", result.compiles_cached},
            {"cells_run", result.cells_run},
            {"cells_cached", result.cells_cached},
            {"wall_s", result.wall_s}}}};
}

std::string render_aoti_text(const json& section) {
  std::string out = fmt::format("{:<32}", "package \\ torch");
  for (const auto& release : section["releases"]) out += fmt::format(" {:<13}", release.get<std::string>());
  out += "\n";
  std::vector<std::string> causes;
  bool bracketed = false;
  for (const auto& package : section["packages"]) {
    if (!package["compile_error"].get<std::string>().empty()) {
      out += fmt::format("{:<32}", package_label(package));
      out += " not compiled: " + package["compile_error"].get<std::string>() + "\n";
      continue;
    }
    for (const auto& [label, cells] : package_rows(package)) {
      out += fmt::format("{:<32}", label);
      for (const auto& cell : cells) {
        bracketed = bracketed || !cell["ran"].get<bool>();
        out += fmt::format(" {:<13}", cell_shown(cell));
        if (!cell["ran"].get<bool>() || cell["cause"].get<std::string>().empty()) continue;
        std::string line = fmt::format("{} on torch {}: {}", label, cell["release"].get<std::string>(),
                                       cell["detail"].get<std::string>());
        line += fmt::format("\n    cause: {}", cell["cause"].get<std::string>());
        if (!cell["workaround"].get<std::string>().empty()) {
          line += fmt::format("\n    workaround: {}", cell["workaround"].get<std::string>());
        }
        causes.push_back(line);
      }
      out += "\n";
    }
  }
  if (bracketed) {
    out += "(in brackets: not loaded, the release is older than the one that compiled it; the audit's prediction)\n";
  }
  for (const auto& cause : causes) out += cause + "\n";
  const json& coverage = section["coverage"];
  out += fmt::format("shims the compiled code imports: {} distinct, {} of them aoti_torch_cpu_*\n",
                     coverage["shims"].get<std::size_t>(), coverage["cpu_shims"].get<std::size_t>());
  const json& cost = section["cost"];
  out += fmt::format("(compiles: {} run, {} from cache; cells: {} run, {} from cache; {:.1f} s)\n",
                     cost["compiles_run"].get<int>(), cost["compiles_cached"].get<int>(), cost["cells_run"].get<int>(),
                     cost["cells_cached"].get<int>(), cost["wall_s"].get<double>());
  return out;
}

std::string render_aoti_html(const json& section) {
  const json& coverage = section["coverage"];
  std::string html = fmt::format(
      "<section id=\"aoti\">\n<h2>AOTInductor packages</h2>\n<p>Rows: packages (a reference model and the torch "
      "that compiled it, or a package given), a row per loader where the C++ loader ran too; columns: the torch "
      "releases that loaded it, compared with eager. In "
      "brackets: not loaded, the audit's prediction. The compiled code imports {} distinct shims, {} of them "
      "<code>aoti_torch_cpu_*</code>. Click a cell for what happened.</p>\n<table class=\"grid\">\n"
      "<thead><tr><th>package</th>",
      coverage["shims"].get<std::size_t>(), coverage["cpu_shims"].get<std::size_t>());
  for (const auto& release : section["releases"]) {
    html += fmt::format("<th>torch {}</th>", escape_markup(release.get<std::string>()));
  }
  html += "</tr></thead>\n<tbody>\n";
  std::string details;
  int index = 0;
  for (const auto& package : section["packages"]) {
    if (!package["compile_error"].get<std::string>().empty()) {
      html += fmt::format("<tr><th>{}</th>", escape_markup(package_label(package)));
      html += fmt::format("<td colspan=\"{}\" class=\"outcome-not-run\">not compiled: {}</td></tr>\n",
                          section["releases"].size(), escape_markup(package["compile_error"].get<std::string>()));
      continue;
    }
    for (const auto& [label, cells] : package_rows(package)) {
      html += fmt::format("<tr><th>{}</th>", escape_markup(label));
      for (const auto& cell : cells) {
        html += fmt::format("<td class=\"cell {}\"><a href=\"#aoti-{}\">{}</a></td>", aoti_cell_class(cell), index,
                            escape_markup(cell_shown(cell)));
        const std::string detail = cell["detail"].get<std::string>();
        std::string what = cell["ran"].get<bool>()
                               ? (detail.empty() ? std::string() : fmt::format("<p>{}</p>", escape_markup(detail)))
                               : fmt::format("<p>not loaded; the audit predicts: {}</p>",
                                             escape_markup(cell["predicted_loads"].get<bool>()
                                                               ? std::string("it loads")
                                                               : cell["prediction_reason"].get<std::string>()));
        if (!cell["cause"].get<std::string>().empty()) {
          what += fmt::format("<p>cause: {}</p>", escape_markup(cell["cause"].get<std::string>()));
        }
        if (!cell["workaround"].get<std::string>().empty()) {
          what += fmt::format("<p>workaround{}: {}</p>", cell["workaround_verified"].get<bool>() ? " (verified)" : "",
                              escape_markup(cell["workaround"].get<std::string>()));
        }
        details +=
            fmt::format("<details class=\"log\" id=\"aoti-{}\"><summary>{} on torch {}: {}</summary>\n{}</details>\n",
                        index, escape_markup(label), escape_markup(cell["release"].get<std::string>()),
                        escape_markup(cell_shown(cell)), what);
        ++index;
      }
      html += "</tr>\n";
    }
  }
  html += "</tbody></table>\n";
  const json& cost = section["cost"];
  html += fmt::format("<p>Compiles: {} run, {} from cache; cells: {} run, {} from cache; {:.1f} s.</p>\n",
                      cost["compiles_run"].get<int>(), cost["compiles_cached"].get<int>(), cost["cells_run"].get<int>(),
                      cost["cells_cached"].get<int>(), cost["wall_s"].get<double>());
  return html + fmt::format("<details><summary>Every cell</summary>\n{}</details>\n</section>\n", details);
}

}  // namespace abicheck

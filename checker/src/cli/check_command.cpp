#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "check/extension_check.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "matrix/matrix_report.h"
#include "report/audit_json.h"
#include "report/html_report.h"
#include "report/junit.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct CheckCommandOptions {
  fs::path project;
  std::optional<fs::path> config;
  std::optional<fs::path> work_dir;
  fs::path shim_decls;
  bool fresh = false;
  std::optional<std::string> json_path;
  std::optional<std::string> junit_path;
  std::optional<std::string> sarif_path;
  std::optional<std::string> html_path;
};

json optional_version(const std::optional<TorchVersion>& version) {
  return version ? json(version->to_string()) : json(nullptr);
}

// The audit section as `audit --json` writes it, with each library named by its build.
json audit_json(const CheckResult& result) {
  json section = audit_to_json(result.audit);
  for (auto& binary : section["binaries"]) binary["path"] = library_label(result, binary["path"].get<std::string>());
  return section;
}

// One document in the shape of the report (title, matrix, lint, audit, verdict) plus the check's
// own facts, so `report` and --html read it as they read any command's output.
json check_document(const CheckResult& result) {
  json builds = json::array();
  for (const auto& build : result.builds) {
    std::vector<std::string> libraries;
    for (const auto& library : build.libraries) libraries.push_back(fs::relative(library, build.directory).string());
    builds.push_back({{"torch", build.release.to_string()}, {"built", build.built}, {"detail", build.detail},
                      {"first_error", build.first_error}, {"libraries", libraries}});
  }
  json findings = json::array();
  for (const auto& finding : result.findings) {
    findings.push_back({{"stage", finding.stage}, {"where", finding.where}, {"what", finding.what},
                        {"message", finding.message}});
  }
  std::vector<std::string> runtimes;
  for (const auto& runtime : result.runtimes) runtimes.push_back(runtime.to_string());
  json document = {
      {"title", fmt::format("torch-abi-check check {}", result.project.filename().string())},
      {"project", result.project.string()},
      {"build_system", result.build_kind ? json(build_kind_name(*result.build_kind)) : json(nullptr)},
      {"target", optional_version(result.target)},
      {"target_source", result.target_source},
      {"runtimes", runtimes},
      {"builds", builds},
      {"lint", json::parse(render_lint_json(result.lint.report, result.project))},
      {"matrix", json::parse(render_matrix_json(result.smoke))},
      {"findings", findings},
      {"notes", result.notes},
      {"verdict", {{"lines", result.verdict}}},
  };
  if (!result.audit.binaries.empty() || !result.audit.failures.empty()) document["audit"] = audit_json(result);
  return document;
}

std::string check_junit(const CheckResult& result) {
  std::vector<JUnitCase> cases;
  for (const auto& finding : result.findings) {
    if (finding.stage == "smoke") continue;  // the matrix cases below carry those
    cases.push_back({"check." + finding.stage, finding.where, JUnitCase::Outcome::Failed,
                     fmt::format("[{}] {}", finding.what, finding.message)});
  }
  for (const auto& build : result.builds) {
    JUnitCase test{"check.build", fmt::format("build {}", build.release.to_string())};
    if (!build.built) {
      test.outcome = JUnitCase::Outcome::Failed;
      test.message = build.detail;
      test.output = build.log;
    }
    test.seconds = build.seconds;
    cases.push_back(std::move(test));
  }
  auto smoke_cases = matrix_junit_cases(result.smoke);
  cases.insert(cases.end(), smoke_cases.begin(), smoke_cases.end());
  return render_junit("torch-abi-check check", cases);
}

void print_text(const CheckResult& result) {
  fmt::print("check {} ({}), target {}{}\n", result.project.string(),
             result.build_kind ? build_kind_name(*result.build_kind) : "not built",
             result.target ? result.target->to_string() : "none",
             result.target_source.empty() ? "" : fmt::format(" from {}", result.target_source));
  std::string lint_text = render_lint_text(result.lint.report, result.project);
  fmt::print("lint: {} diagnostic{}\n{}", result.lint.report.diagnostics.size(),
             result.lint.report.diagnostics.size() == 1 ? "" : "s", lint_text);
  for (const auto& build : result.builds) {
    std::vector<std::string> libraries;
    for (const auto& library : build.libraries) libraries.push_back(fs::relative(library, build.directory).string());
    fmt::print("build against torch {}: {}{}{}\n", build.release.to_string(), build.detail, build.cached ? " (cached)" : "",
               libraries.empty() ? "" : fmt::format(": {}", fmt::join(libraries, ", ")));
  }
  for (const auto& object : result.audit.binaries) {
    fmt::print("audit {}: {}, min torch {}\n", library_label(result, object.path), to_string(object.verdict),
               object.min_torch ? object.min_torch->to_string() : "-");
  }
  if (!result.smoke.cells.empty()) fmt::print("smoke runs (rows: build / target, columns: runtime)\n{}", render_matrix_grid(result.smoke));
  for (const auto& note : result.notes) fmt::print("note: {}\n", note);
  fmt::print("\n");
  for (const auto& line : result.verdict) fmt::print("{}{}\n", &line == &result.verdict.front() ? "verdict: " : "  ", line);
}

ExitCode run_check_command(const CommonOptions& common, const CheckCommandOptions& options) {
  ReleaseStore store(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);
  CheckRequest request{.project = options.project,
                       .config_file = options.config,
                       .work_dir = options.work_dir.value_or(default_check_work_dir(options.project)),
                       .baselines = options.shim_decls.empty() ? project_root() / "shim_decls" : options.shim_decls,
                       .fresh = options.fresh};
  if (isatty(STDERR_FILENO)) request.progress = [](const std::string& line) { std::cerr << "check: " << line << "\n"; };
  CheckResult result = run_check(store, request);

  json document = check_document(result);
  if (options.json_path) write_file_atomically(*options.json_path, document.dump(2) + "\n");
  if (options.junit_path) write_file_atomically(*options.junit_path, check_junit(result));
  if (options.sarif_path) write_file_atomically(*options.sarif_path, render_lint_sarif(result.lint.report, result.project));
  if (options.html_path) write_file_atomically(*options.html_path, render_html_report(document));
  bool stdout_taken = options.json_path == "-" || options.junit_path == "-" || options.sarif_path == "-" ||
                      options.html_path == "-";
  if (!stdout_taken) print_text(result);
  return result.has_findings() ? ExitCode::Findings : ExitCode::Clean;
}

}  // namespace

void add_check_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<CheckCommandOptions>();
  auto* check = app.add_subcommand(
      "check", "lint, build, audit and smoke-test an extension project under every torch from its target to the newest");
  check->add_option("dir", options->project, "the project directory (CMakeLists.txt, setup.py or compile_commands.json)")
      ->required();
  check->add_option("--config", options->config,
                    "a TOML file with the settings of [tool.torch-abi-check] (default: the project's pyproject.toml)");
  check->add_option("--work-dir", options->work_dir,
                    "where builds and smoke runs go, outside the project (default: ~/.cache/torch-abi-check/check/<hash>)");
  check->add_option("--shim-decls", options->shim_decls, "directory of <release>/inventory.json (default: shim_decls/)");
  check->add_flag("--fresh", options->fresh, "rebuild even when a cached build matches");
  check->add_option("--json", options->json_path, "write the check as JSON (the report document) to FILE");
  check->add_option("--junit", options->junit_path, "write a JUnit XML report to FILE");
  check->add_option("--sarif", options->sarif_path, "write the lint findings as SARIF 2.1.0 to FILE");
  check->add_option("--html", options->html_path, "write one self-contained HTML report to FILE");
  check->callback([&action, &common, options] {
    action = [&common, options] { return run_check_command(common, *options); };
  });
}

}  // namespace abicheck

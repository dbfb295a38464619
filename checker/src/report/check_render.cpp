#include "report/check_render.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "check/check_judgement.h"
#include "report/aoti_render.h"
#include "report/audit_render.h"
#include "report/lint_render.h"
#include "report/matrix_render.h"
#include "report/report_document.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<std::string> library_names(const ProjectBuild& build) {
  std::vector<std::string> libraries;
  for (const auto& library : build.libraries) libraries.push_back(fs::relative(library, build.directory).string());
  return libraries;
}

// The audit's two figures in the project's terms, beside them: from which release the library loads
// (its imports alone), how that stands to the target, and API it looks up at run time beyond that.
std::string min_torch_meaning(const ObjectAudit& object, const std::optional<TorchVersion>& target) {
  if (!object.min_torch_to_load) return "";
  const TorchVersion loads = *object.min_torch_to_load;
  std::string text = fmt::format(": its imports load on torch {} and newer", loads.to_string());
  if (target) {
    text += loads <= *target ? fmt::format(", its target {} included", target->to_string())
                             : fmt::format(", so not on its target {}", target->to_string());
  }
  if (object.min_torch && *object.min_torch > loads) {
    text += fmt::format("; it looks up API of torch {} at run time, which it may call only on {} and newer",
                        object.min_torch->to_string(), object.min_torch->to_string());
  }
  return text;
}

}  // namespace

json check_document(const CheckResult& result) {
  json builds = json::array();
  for (const auto& build : result.builds) {
    builds.push_back({{"torch", build.release.to_string()},
                      {"built", build.built},
                      {"detail", build.detail},
                      {"first_error", build.first_error},
                      {"libraries", library_names(build)}});
  }
  std::vector<std::string> runtimes;
  for (const auto& runtime : result.runtimes) runtimes.push_back(runtime.to_string());
  json document = new_report_document(
      "check", fmt::format("torch-abi-check check {}", result.project.filename().string()), judge_check(result));
  document["check"] = {
      {"project", result.project.string()},
      {"build_system", result.build_kind ? json(build_kind_name(*result.build_kind)) : json(nullptr)},
      {"target", result.target ? json(result.target->to_string()) : json(nullptr)},
      {"target_source", result.target_source},
      {"runtimes", runtimes},
      {"builds", builds},
      {"notes", result.notes},
  };
  document["lint"] = lint_section(result.lint.report, result.project);
  document["matrix"] = matrix_section(result.smoke);
  if (!result.audit.binaries.empty() || !result.audit.failures.empty()) {
    // The audit section as `audit --json` writes it, with each library named by its build.
    json audit = audit_section(result.audit);
    for (auto& binary : audit["binaries"]) binary["path"] = library_label(result, binary["path"].get<std::string>());
    document["audit"] = std::move(audit);
  }
  return document;
}

std::string render_check_text(const CheckResult& result) {
  std::string text = fmt::format("check {} ({}), target {}{}\n", result.project.string(),
                                 result.build_kind ? build_kind_name(*result.build_kind) : "not built",
                                 result.target ? result.target->to_string() : "none",
                                 result.target_source.empty() ? "" : fmt::format(" from {}", result.target_source));
  text += fmt::format("lint: {} diagnostic{}\n{}", result.lint.report.diagnostics.size(),
                      result.lint.report.diagnostics.size() == 1 ? "" : "s",
                      render_lint_text(result.lint.report, result.project));
  for (const auto& build : result.builds) {
    auto libraries = library_names(build);
    text += fmt::format("build against torch {}: {}{}{}\n", build.release.to_string(), build.detail,
                        build.cached ? " (cached)" : "",
                        libraries.empty() ? "" : fmt::format(": {}", fmt::join(libraries, ", ")));
  }
  for (const auto& object : result.audit.binaries) {
    text += fmt::format("audit {}: {}, {}{}\n", library_label(result, object.path), to_string(object.verdict),
                        min_torch_text(object.min_torch, object.min_torch_to_load),
                        min_torch_meaning(object, result.target));
  }
  if (!result.smoke.cells.empty()) {
    text += "smoke runs (rows: build / target, columns: runtime)\n" + render_matrix_grid(matrix_section(result.smoke));
  }
  for (const auto& note : result.notes) text += fmt::format("note: {}\n", note);
  text += "\n";
  for (std::size_t i = 0; i < result.verdict.size(); ++i)
    text += fmt::format("{}{}\n", i == 0 ? "verdict: " : "  ", result.verdict[i]);
  return text;
}

json package_check_document(const PackageCheckResult& result) {
  std::vector<std::string> runtimes;
  for (const auto& runtime : result.runtimes) runtimes.push_back(runtime.to_string());
  json document =
      new_report_document("check", fmt::format("torch-abi-check check {}", result.package.filename().string()),
                          judge_package_check(result));
  document["check"] = {
      {"project", result.package.string()},
      {"build_system", nullptr},
      {"target", result.min_torch ? json(result.min_torch->to_string()) : json(nullptr)},
      {"target_source", "the newest shim the package's compiled code imports (audit)"},
      {"runtimes", runtimes},
      {"builds", json::array()},
      {"notes",
       {"an AOTInductor package: loaded under each release from its minimum torch on by the Python loader and "
        "the C++ one, not run (the package holds no inputs); below that minimum the audit's prediction stands"}},
  };
  document["audit"] = audit_section(result.audit);
  document["aoti"] = aoti_section(result.loads);
  return document;
}

std::string render_package_check_text(const json& document) {
  const json& check = document["check"];
  std::string text =
      fmt::format("check {} (AOTInductor package), needs torch {}\n", check["project"].get<std::string>(),
                  check["target"].is_null() ? "(unknown)" : check["target"].get<std::string>());
  text += render_aoti_text(document["aoti"]);
  for (const auto& note : check["notes"]) text += fmt::format("note: {}\n", note.get<std::string>());
  text += "\n";
  const json& lines = document["verdict"]["lines"];
  for (std::size_t i = 0; i < lines.size(); ++i) {
    text += fmt::format("{}{}\n", i == 0 ? "verdict: " : "  ", lines[i].get<std::string>());
  }
  return text;
}

}  // namespace abicheck

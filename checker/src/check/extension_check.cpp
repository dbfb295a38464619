#include "check/extension_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <ranges>
#include <regex>

#include "audit/audit_judgement.h"
#include "audit/shim_catalog.h"
#include "baseline/release_history.h"
#include "core/content_hash.h"
#include "core/display_path.h"
#include "core/finding.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"
#include "lint/extension/extension_sources.h"
#include "lint/extension/project_target.h"
#include "lint/lint_runs.h"
#include "matrix/cell_expectation.h"
#include "matrix/shim_exports.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kLogTailLines = 40;
// Address space of a smoke run: importing a CUDA wheel's torch reserves a lot of it.
constexpr std::size_t kSmokeMemoryBytes = std::size_t{16384} << 20;

struct DeclaredProjectTarget {
  std::optional<TorchVersion> version;
  std::string source;
  bool defined_by_project = false;  // the build files or sources define TORCH_TARGET_VERSION themselves
};

// A finding about a whole file has no line, as in the lint's own report: never "ops.cpp:0".
std::string where_in(const fs::path& file, int line, const fs::path& project) {
  return line > 0 ? fmt::format("{}:{}", display_path(file, project), line) : display_path(file, project);
}

// The target as the configuration says it, else as the project's build files, compile commands or
// sources define it, decided the lint's way (lint/extension/project_target.h).
DeclaredProjectTarget find_target(const fs::path& project, const ExtensionSources& sources, const CheckConfig& config) {
  DeclaredProjectTarget declared;
  std::vector<TargetDefinition> definitions = target_definitions(sources);
  declared.defined_by_project = !definitions.empty();
  if (config.target) {
    declared.version = config.target;
    declared.source = fmt::format("target in {}", config.file.filename().string());
    return declared;
  }
  if (auto target = project_target(definitions)) {
    const TargetDefinition& definition = target->definition;
    declared.version = target->version;
    // A compile command has a file but no line. Worded without parentheses: messages set it in their own.
    std::string where = definition.where.line > 0
                            ? "at " + where_in(definition.where.file, definition.where.line, project)
                            : "on the compile command of " + display_path(definition.where.file, project);
    declared.source = fmt::format("TORCH_TARGET_VERSION={} {}", definition.value_text, where);
  }
  return declared;
}

// A smoke run as the matrix's classifier reads a cell (matrix/cell_expectation.h). A shell (a `smoke`
// line runs under /bin/sh) reports a child killed by signal N as exit 128+N; a library the loader
// refused shows as an undefined symbol in the output of a failed run.
CellRun smoke_cell_run(const ProcessResult& process, bool through_shell) {
  CellRun run{.tests = CellTests::SmokeTest,
              .exit_code = process.exit_code,
              .term_signal = process.term_signal,
              .timed_out = process.timed_out,
              .describe = process.describe(),
              .result_written = true,
              .loaded = true,
              .last_output_line = process.tail(1)};
  if (!run.term_signal && through_shell && run.exit_code && *run.exit_code > 128 && *run.exit_code < 128 + 65) {
    run.term_signal = *run.exit_code - 128;
    run.describe = fmt::format("signal {} ({})", *run.term_signal, strsignal(*run.term_signal));
  }
  if (process.succeeded()) {
    run.cases_passed = 1;
    return run;
  }
  run.cases_failed = 1;
  if (auto at = process.output.find("undefined symbol: "); at != std::string::npos) {
    std::size_t start = process.output.rfind('\n', at);
    start = start == std::string::npos ? 0 : start + 1;
    run.loaded = false;
    run.load_error = process.output.substr(start, process.output.find('\n', at) - start);
  }
  return run;
}

std::map<std::string, std::string> smoke_environment(const StoredRelease& runtime, const ProjectBuild& build,
                                                     std::optional<TorchVersion> target, const fs::path& run_dir) {
  const fs::path venv_bin = runtime.python.parent_path();
  const char* path = std::getenv("PATH");
  std::vector<std::string> libraries;
  for (const auto& library : build.libraries) libraries.push_back(library.string());
  std::map<std::string, std::string> env = {
      {"PATH", venv_bin.string() + (path != nullptr && *path != '\0' ? std::string(":") + path : "")},
      {"VIRTUAL_ENV", venv_bin.parent_path().string()},
      {"PYTHONPATH", build.directory.string()},
      {"PYTHONDONTWRITEBYTECODE", "1"},
      {"PYTHONUNBUFFERED", "1"},
      {"TORCH_ABI_CHECK_LIBRARIES", fmt::format("{}", fmt::join(libraries, ":"))},
      {"TORCH_ABI_CHECK_LIBRARY", libraries.front()},
      {"TORCH_ABI_CHECK_BUILD_DIR", build.directory.string()},
      {"TORCH_ABI_CHECK_BUILD_TORCH", build.release.to_string()},
      {"TORCH_ABI_CHECK_TORCH", runtime.version.to_string()},
      {"TORCH_ABI_CHECK_RUN_DIR", run_dir.string()},
  };
  if (target) env["TORCH_ABI_CHECK_TARGET"] = target->to_string();
  return env;
}

// A command named without a directory is looked up in the smoke run's own PATH (the runtime's venv
// first), not in ours: exec would otherwise find the host's python.
std::vector<std::string> resolve_command(std::vector<std::string> argv, const std::string& search_path) {
  if (argv.front().find('/') != std::string::npos) return argv;
  if (auto found = find_executable(argv.front(), search_path)) argv.front() = found->string();
  return argv;
}

// The target goes to the lint as an option only when the project does not define it itself, as it
// goes to the build: the lint reads the project's own definitions (and reports each problem once).
void lint_stage(const ReleaseStore& store, const ResolvedRelease& newest, const ExtensionSources& sources,
                const DeclaredProjectTarget& declared, const CheckRequest& request, CheckResult& result) {
  ExtensionLintRequest lint_request{
      result.project, declared.defined_by_project ? std::nullopt : result.target, {}, request.baselines, sources};
  result.lint = lint_extension(store, newest, lint_request);
  for (const auto& note : result.lint.notes) result.notes.push_back("lint: " + note);
  for (const auto& diagnostic : result.lint.report.diagnostics) {
    if (diagnostic.severity != LintSeverity::Error) continue;
    result.findings.push_back({.stage = "lint",
                               .kind = diagnostic.rule,
                               .where = where_in(diagnostic.where.file, diagnostic.where.line, result.project),
                               .message = diagnostic.message,
                               .file = display_path(diagnostic.where.file, result.project),
                               .line = diagnostic.where.line,
                               .column = diagnostic.where.column,
                               .consequence = diagnostic.consequence,
                               .notes = diagnostic.notes});
  }
}

ProjectBuild build_against(const StoredRelease& release, const DeclaredProjectTarget& declared,
                           const CheckRequest& request, const CheckResult& result) {
  ProjectBuild build = build_project({.project = result.project,
                                      .kind = *result.build_kind,
                                      .release = release,
                                      .target_to_pass = declared.defined_by_project ? std::nullopt : result.target,
                                      .work_dir = request.work_dir,
                                      .step_timeout_s = result.config.build_timeout_s,
                                      .fresh = request.fresh});
  if (request.progress) {
    request.progress(fmt::format("build against torch {}: {}{}", release.version.to_string(), build.detail,
                                 build.cached ? " (cached)" : ""));
  }
  return build;
}

// A project that builds with the newest headers and not with its target's: the oldest release between
// whose headers build it is what a build from source needs, said under the failed build (the binaries
// built with newer headers still run from the target on, as the smoke runs show). Newest first, down
// to the first release that fails: one or two more builds where a project took a newer API.
std::optional<std::string> oldest_headers_that_build(const ReleaseStore& store, const DeclaredProjectTarget& declared,
                                                     const CheckRequest& request, CheckResult& result) {
  if (result.builds.size() < 2) return std::nullopt;
  const ProjectBuild& at_target = result.builds.front();
  const ProjectBuild& at_newest = result.builds.back();
  if (at_target.built || !at_newest.built) return std::nullopt;
  TorchVersion oldest = at_newest.release;
  std::string failing = fmt::format("not with {}'s", at_target.release.minor_release().to_string());
  auto releases = store.releases();
  for (auto release = releases.rbegin(); release != releases.rend(); ++release) {
    TorchVersion version = release->version.minor_release();
    if (version >= at_newest.release.minor_release() || version <= at_target.release.minor_release()) continue;
    ProjectBuild build = build_against(*release, declared, request, result);
    if (!build.built) {
      failing = fmt::format(
          "not with {}'s{}", version.to_string(),
          build.first_error.empty() ? "" : ": " + compiler_message_for_author(build.first_error, result.project));
      break;
    }
    oldest = build.release;
  }
  return fmt::format(
      "it builds with the headers of torch {} and newer ({}): building it from source needs torch {} or newer, "
      "whatever its target says",
      oldest.minor_release().to_string(), failing, oldest.minor_release().to_string());
}

void build_stage(const ReleaseStore& store, const StoredRelease& newest, const DeclaredProjectTarget& declared,
                 const CheckRequest& request, CheckResult& result) {
  std::vector<StoredRelease> releases;
  if (result.target) releases.push_back(store.resolve(result.target->to_string()).require_installed());
  if (releases.empty() || releases.front().version != newest.version) releases.push_back(newest);
  for (const auto& release : releases) {
    ProjectBuild build = build_against(release, declared, request, result);
    if (!build.built) {
      result.findings.push_back(
          {.stage = "build",
           .kind = "failed",
           .where = fmt::format("against torch {}", release.version.to_string()),
           .message = build.first_error.empty()
                          ? build.detail
                          : fmt::format("{}: {}", build.detail,
                                        compiler_message_for_author(build.first_error, result.project))});
    }
    result.builds.push_back(std::move(build));
  }
  if (auto hint = oldest_headers_that_build(store, declared, request, result)) {
    auto failed = std::ranges::find(result.findings, std::string("build"), &Finding::stage);
    failed->notes.push_back(*hint);
  }
}

std::vector<std::string> imported_shims_newer_than(const ObjectAudit& object, std::optional<TorchVersion> target) {
  std::vector<std::string> newer;
  if (!target) return newer;
  for (const auto& shim : object.shims) {
    if (!shim.dynamic_lookup && shim.introduced && *shim.introduced > *target) {
      newer.push_back(fmt::format("{} (since {})", shim.name, shim.introduced->to_string()));
    }
  }
  return newer;
}

void audit_stage(const ReleaseStore& store, const CheckRequest& request, CheckResult& result) {
  std::vector<fs::path> libraries;
  for (const auto& build : result.builds)
    libraries.insert(libraries.end(), build.libraries.begin(), build.libraries.end());
  if (libraries.empty()) return;
  ShimCatalog catalog = ShimCatalog::load_directory(request.baselines);
  OperatorHistory operators = ReleaseHistory::open(request.baselines).operator_schemas();
  AuditOptions options;
  options.target = result.target;
  options.operators = &operators;
  for (auto& release : store.releases()) {
    if (std::ranges::find(result.runtimes, release.version) != result.runtimes.end())
      options.releases.push_back(release);
  }
  result.audit = audit_paths(libraries, catalog, options);
  for (const auto& object : result.audit.binaries) {
    // Whether it loads into each runtime's device runtime, judged as the audit judges it.
    for (auto& finding : release_load_findings(object, library_label(result, object.path))) {
      result.findings.push_back(std::move(finding));
    }
    for (auto& finding : operator_findings(object, library_label(result, object.path))) {
      result.findings.push_back(std::move(finding));
    }
    if (object.verdict == AuditVerdict::Stable) continue;
    std::string message = fmt::format("{}", fmt::join(object.reasons, "; "));
    if (!object.unstable.empty()) {
      std::vector<std::string> examples;
      for (std::size_t i = 0; i < std::min<std::size_t>(object.unstable.size(), 3); ++i) {
        examples.push_back(object.unstable[i].demangled);
      }
      message += fmt::format(" (e.g. {})", fmt::join(examples, ", "));
    }
    result.findings.push_back({.stage = "audit",
                               .kind = std::string(to_string(object.verdict)),
                               .where = library_label(result, object.path),
                               .message = message});
    // The audit gives one verdict per object; an unstable object that also imports shims newer
    // than the target breaks in two ways, and the author should hear of both.
    std::vector<std::string> newer = imported_shims_newer_than(object, result.target);
    if (object.verdict == AuditVerdict::Unstable && !newer.empty()) {
      result.findings.push_back({.stage = "audit",
                                 .kind = std::string(to_string(AuditVerdict::NeedsNewerTorch)),
                                 .where = library_label(result, object.path),
                                 .message = fmt::format("imports {}, newer than the target {}", fmt::join(newer, ", "),
                                                        result.target->to_string())});
    }
  }
  for (const auto& failure : result.audit.failures) {
    result.findings.push_back(
        {.stage = "audit", .kind = "error", .where = library_label(result, failure.path), .message = failure.problem});
  }
}

void smoke_stage(const ReleaseStore& store, const CheckRequest& request, CheckResult& result) {
  if (result.config.smoke.empty()) {
    result.notes.push_back("no smoke test configured ([tool.torch-abi-check] smoke = \"...\"): nothing was run");
    return;
  }
  std::vector<StoredRelease> runtimes;
  for (const auto& release : store.releases()) {
    if (std::ranges::find(result.runtimes, release.version) != result.runtimes.end()) runtimes.push_back(release);
  }
  const bool through_shell = result.config.smoke.front() == "/bin/sh";
  ShimExportIndex exports(store.releases());
  const std::string suite = result.project.filename().string();
  for (const auto& build : result.builds) {
    if (!build.built) continue;
    for (const auto& runtime : runtimes) {
      MatrixCell cell{.suite = suite,
                      .backend = Backend::Cpu,
                      .build = build.release,
                      .target = result.target.value_or(build.release.minor_release()),
                      .runtime = runtime.version,
                      .expected = Expectation::Pass};
      const fs::path run_dir = request.work_dir / "runs" /
                               fmt::format("build-{}-torch-{}", build.release.to_string(), runtime.version.to_string());
      fs::remove_all(run_dir);
      fs::create_directories(run_dir);
      auto env = smoke_environment(runtime, build, result.target, run_dir);
      ProcessResult process = run_process({.argv = resolve_command(result.config.smoke, env["PATH"]),
                                           .extra_env = env,
                                           .working_dir = result.project,
                                           .timeout = std::chrono::seconds(result.config.timeout_s),
                                           .memory_limit_bytes = kSmokeMemoryBytes});
      CellVerdict verdict =
          classify_cell(Expectation::Pass, runtime.version, {BuildStatus::Kind::Built, build.detail}, true,
                        smoke_cell_run(process, through_shell),
                        [&exports](const std::string& symbol) { return exports.first_exporting(symbol); });
      cell.outcome = verdict.outcome;
      cell.reason = verdict.reason;
      cell.duration_s = process.duration.count();
      cell.log = "$ " + fmt::format("{}", fmt::join(result.config.smoke, " ")) + "\n" + process.tail(kLogTailLines);
      if (request.progress) {
        request.progress(fmt::format("smoke build {} on torch {}: {}", build.release.to_string(),
                                     runtime.version.to_string(), cell.reason));
      }
      if (is_finding(cell.outcome)) {
        result.findings.push_back(
            {.stage = "smoke",
             .kind = outcome_name(cell.outcome),
             .where = fmt::format("build {} on torch {}", build.release.to_string(), runtime.version.to_string()),
             .message = cell.reason});
      }
      result.smoke.cells.push_back(std::move(cell));
    }
  }
  result.smoke.builds_total = static_cast<int>(result.builds.size());
  result.smoke.builds_cached = static_cast<int>(std::ranges::count_if(result.builds, &ProjectBuild::cached));
  for (const auto& cell : result.smoke.cells) result.smoke.wall_s += cell.duration_s;
}

std::string release_range(const std::vector<TorchVersion>& releases) {
  if (releases.empty()) return "no stored release";
  if (releases.size() == 1) return fmt::format("torch {}", releases.front().to_string());
  return fmt::format("torch {} … {}", releases.front().to_string(), releases.back().to_string());
}

// Runtimes where every smoke run (of every build that built) passed.
std::vector<TorchVersion> working_runtimes(const CheckResult& result) {
  std::vector<TorchVersion> working;
  for (const auto& runtime : result.runtimes) {
    bool ran = false;
    bool passed = true;
    for (const auto& cell : result.smoke.cells) {
      if (cell.runtime != runtime) continue;
      ran = true;
      passed = passed && cell.outcome == CellOutcome::Pass;
    }
    if (ran && passed) working.push_back(runtime);
  }
  return working;
}

void judge(CheckResult& result) {
  const bool smoke_ran = !result.smoke.cells.empty();
  std::vector<std::string> builds;
  for (const auto& build : result.builds) builds.push_back(build.release.to_string());
  if (!result.has_findings()) {
    if (!result.build_kind) {
      result.verdict.push_back(
          fmt::format("lint clean for {} (not built: no CMakeLists.txt or setup.py)", release_range(result.runtimes)));
    } else if (!smoke_ran) {
      result.verdict.push_back(fmt::format("builds and audits clean for {} (built against {}; no smoke test ran)",
                                           release_range(result.runtimes), fmt::join(builds, " and ")));
    } else {
      result.verdict.push_back(fmt::format("works on {}: built against {}, lint and audit clean, {} smoke runs passed",
                                           release_range(result.runtimes), fmt::join(builds, " and "),
                                           result.smoke.cells.size()));
    }
    for (const auto& finding : result.findings) {
      result.verdict.push_back(
          fmt::format("warning: {} {}: [{}] {}", finding.stage, finding.where, finding.kind, finding.message));
    }
    return;
  }
  std::vector<TorchVersion> working = working_runtimes(result);
  std::string works = working.empty() ? "the smoke test passes on no stored release"
                      : working.size() == result.runtimes.size()
                          ? fmt::format("the smoke test passes on {}", release_range(working))
                          : fmt::format("the smoke test passes only on {}",
                                        fmt::join(working | std::views::transform(&TorchVersion::to_string), ", "));
  std::string scope = result.target && result.runtimes.empty()
                          ? fmt::format("targets torch {}, which is no known release", result.target->to_string())
                      : result.target
                          ? fmt::format("does not work on every release of {}", release_range(result.runtimes))
                          : fmt::format("declares no target (checked on {} only)", release_range(result.runtimes));
  const auto errors =
      std::ranges::count_if(result.findings, [](const Finding& f) { return f.severity == FindingSeverity::Error; });
  result.verdict.push_back(fmt::format("{}: {} finding{}; {}", scope, errors, errors == 1 ? "" : "s",
                                       smoke_ran ? works : "no smoke test ran"));
  for (const auto& finding : result.findings) {
    result.verdict.push_back(
        fmt::format("{} {}: [{}] {}", finding.stage, finding.where, finding.kind, finding.message));
    for (const auto& note : finding.notes) result.verdict.push_back("  note: " + note);
  }
}

bool is_inside(const fs::path& path, const fs::path& directory) {
  auto [end, _] = std::ranges::mismatch(directory, path);
  return end == directory.end();
}

}  // namespace

std::string library_label(const CheckResult& result, const std::string& path) {
  for (const auto& build : result.builds) {
    for (const auto& library : build.libraries) {
      if (library.string() == path) {
        return fmt::format("{} (build {})", fs::relative(library, build.directory).string(), build.release.to_string());
      }
    }
  }
  return path;
}

std::string compiler_message_for_author(std::string text, const fs::path& project) {
  const std::string prefix = project.string() + "/";
  for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at)) text.erase(at, prefix.size());
  static const std::regex torch_include(R"((?:/[^\s:'"]*)?/site-packages/torch/include/(?:torch/csrc/api/include/)?)");
  return std::regex_replace(text, torch_include, "");
}

fs::path default_check_work_dir(const fs::path& project) {
  return user_cache_dir() / "check" / ContentHash().add(fs::absolute(project).lexically_normal().string()).hex();
}

CheckResult run_check(const ReleaseStore& store, const CheckRequest& request) {
  CheckResult result;
  result.project = fs::weakly_canonical(fs::absolute(request.project));
  if (!fs::is_directory(result.project)) throw ToolError(fmt::format("{}: not a directory", request.project.string()));
  const fs::path work_dir = fs::weakly_canonical(fs::absolute(request.work_dir));
  if (is_inside(work_dir, result.project)) {
    throw ToolError(fmt::format("{}: the work dir must be outside the project {}", request.work_dir.string(),
                                result.project.string()));
  }
  CheckRequest resolved = request;
  resolved.work_dir = work_dir;
  result.config = load_check_config(result.project, request.config_file);
  result.build_kind = detect_build_kind(result.project, result.config);
  const ResolvedRelease newest_release = store.resolve("newest");
  const StoredRelease& newest = newest_release.require_installed();

  // What the project compiles, asked of its build once: the target is read from it, and the lint parses it.
  SourceDiscovery discovery = source_discovery(store, newest_release);
  discovery.build_kind = result.build_kind;
  const ExtensionSources sources = find_extension_sources(result.project, discovery);
  DeclaredProjectTarget declared = find_target(result.project, sources, result.config);
  result.target = declared.version;
  result.target_source = declared.source;
  if (result.target && *result.target > newest.version.minor_release()) {
    const std::vector<TorchVersion> known = known_releases(store, request.baselines);
    if (std::ranges::find(known, *result.target) != known.end()) {
      throw ToolError(fmt::format(
          "{}: target {} is newer than the newest stored torch {} (run: torch-abi-check store install "
          "--from {})",
          result.project.string(), result.target->to_string(), newest.version.to_string(), result.target->to_string()));
    }
    // Newer than every release known here (the store and the committed baselines): most often a
    // typo in the hex literal, which the lint explains (E005). Nothing can be built or run for it.
    result.findings.push_back(
        {.stage = "target",
         .kind = "unknown-release",
         .where = "project",
         .message = fmt::format("the target {}, from {}, is newer than every release known here (the newest is {}); "
                                "nothing was built or run",
                                result.target->to_string(), result.target_source, known.back().to_string())});
    lint_stage(store, newest_release, sources, declared, resolved, result);
    // When the lint explains the target as a typo (E005), this is what the typo causes: a note under it.
    auto unknown = std::ranges::find(result.findings, std::string("unknown-release"), &Finding::kind);
    auto typo = std::ranges::find(result.findings, std::string("E005"), &Finding::kind);
    if (typo != result.findings.end()) {
      typo->notes.push_back(note_of(unknown->kind, unknown->message));
      result.findings.erase(unknown);
    }
    judge(result);
    return result;
  }
  if (result.target) {
    for (const auto& release : store.releases()) {
      if (release.version.minor_release() >= *result.target) result.runtimes.push_back(release.version);
    }
  } else {
    result.findings.push_back({.stage = "target",
                               .kind = "no-target",
                               .where = "project",
                               .message =
                                   "no TORCH_TARGET_VERSION: set target in [tool.torch-abi-check] or define it in "
                                   "the build files; checked against the newest torch only"});
    result.runtimes.push_back(newest.version);
  }

  lint_stage(store, newest_release, sources, declared, resolved, result);
  if (request.progress) request.progress(fmt::format("lint: {} diagnostics", result.lint.report.diagnostics.size()));
  if (result.build_kind) {
    build_stage(store, newest, declared, resolved, result);
    audit_stage(store, resolved, result);
    smoke_stage(store, resolved, result);
  } else {
    result.notes.push_back(
        "not built: the project has neither CMakeLists.txt nor setup.py (set build in "
        "[tool.torch-abi-check]); only its sources were linted");
  }
  judge(result);
  return result;
}

}  // namespace abicheck

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/display_path.h"
#include "core/log_progress.h"
#include "core/project_paths.h"
#include "report/report_document.h"

namespace abicheck {

namespace {

namespace fs = std::filesystem;

// Why `path` cannot be reached, or empty (then `info` describes it).
std::string unreachable(const std::string& path, struct stat& info) {
  if (::stat(path.c_str(), &info) == 0) return {};
  switch (errno) {
    case ENOENT: return "no such file or directory";
    case ELOOP: return "a loop of symbolic links";
    case EACCES: return "cannot be reached: permission denied";
    case ENOTDIR: return "a part of the path is not a directory";
    default: return std::strerror(errno);
  }
}

std::string file_problem(const std::string& path) {
  struct stat info {};
  if (std::string problem = unreachable(path, info); !problem.empty()) return problem;
  if (S_ISDIR(info.st_mode)) return "a directory, not a file";
  if (!S_ISREG(info.st_mode)) return "not a regular file";
  if (::access(path.c_str(), R_OK) != 0) return "cannot be read: permission denied";
  return {};
}

std::string directory_problem(const std::string& path) {
  struct stat info {};
  if (std::string problem = unreachable(path, info); !problem.empty()) return problem;
  if (!S_ISDIR(info.st_mode)) return "not a directory";
  if (::access(path.c_str(), R_OK | X_OK) != 0) return "cannot be read: permission denied";
  return {};
}

std::string path_problem(const std::string& path) {
  struct stat info {};
  if (std::string problem = unreachable(path, info); !problem.empty()) return problem;
  if (S_ISDIR(info.st_mode)) return directory_problem(path);
  return file_problem(path);
}

std::string release_problem(const std::string& text) {
  struct stat link {};
  if (::lstat(text.c_str(), &link) == 0) return directory_problem(text);  // a link that leads nowhere too
  if (text == "newest" || TorchVersion::try_parse(text)) return {};
  return "neither a torch version (2.10, 2.10.1, newest) nor an existing torch directory";
}

std::string version_problem(const std::string& text) {
  if (TorchVersion::try_parse(text)) return {};
  return "not a torch version (2.10, 2.10.1) nor a TORCH_TARGET_VERSION value (0x020A000000000000)";
}

// Whether the directory a file goes to, or a directory is created in, can be written.
std::string folder_problem(const fs::path& folder) {
  struct stat info {};
  std::string shown = printable_name(folder.string());
  if (std::string problem = unreachable(folder.string(), info); !problem.empty())
    return fmt::format("its directory {}: {}", shown, problem);
  if (!S_ISDIR(info.st_mode)) return fmt::format("{} is not a directory", shown);
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return fmt::format("its directory {} cannot be written", shown);
  return {};
}

std::string output_problem(const std::string& path) {
  if (path == "-") return {};
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return "a directory, not a file to write";
    if (::access(path.c_str(), W_OK) != 0) return "cannot be written: permission denied";
  }
  fs::path folder = fs::path(path).parent_path();
  return folder_problem(folder.empty() ? fs::path(".") : folder);
}

std::string work_directory_problem(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) return "not a directory";
    if (::access(path.c_str(), W_OK | X_OK) != 0) return "cannot be written: permission denied";
    return {};
  }
  if (errno != ENOENT) return unreachable(path, info);
  fs::path existing = fs::absolute(fs::path(path)).lexically_normal().parent_path();
  std::error_code unreadable;  // a loop above is found by folder_problem, not thrown here
  while (!existing.empty() && !fs::exists(existing, unreadable) && existing != existing.root_path())
    existing = existing.parent_path();
  return folder_problem(existing);
}

}  // namespace

CLI::Option* as_operand(CLI::Option* option, Operand kind) {
  struct Kind {
    const char* type_name;
    std::string (*problem)(const std::string&);
  };
  static constexpr Kind kinds[] = {{"FILE", file_problem},
                                   {"DIR", directory_problem},
                                   {"PATH", path_problem},
                                   {"RELEASE", release_problem},
                                   {"VERSION", version_problem},
                                   {"OUT", output_problem},
                                   {"WORKDIR", work_directory_problem}};
  const Kind& chosen = kinds[static_cast<int>(kind)];
  auto check = [problem = chosen.problem](std::string& value) {
    std::string found = problem(value);
    return found.empty() ? found : fmt::format("{}: {}", printable_name(value), found);
  };
  return option->type_name(chosen.type_name)->check(CLI::Validator(check, ""));
}

void add_output_options(CLI::App* command, ReportOutputs& outputs) {
  as_operand(
      command->add_option("--json", outputs.json, "write the report document (JSON) to OUT (- for standard output)"),
      Operand::Output);
  as_operand(command->add_option("--html", outputs.html, "write a self-contained HTML report to OUT"), Operand::Output);
  as_operand(command->add_option("--junit", outputs.junit, "write JUnit XML to OUT"), Operand::Output);
  as_operand(
      command->add_option("--sarif", outputs.sarif, "write SARIF 2.1.0 (findings with a place in a file) to OUT"),
      Operand::Output);
  as_operand(command->add_option("--markdown", outputs.markdown, "write a Markdown summary to OUT"), Operand::Output);
  // One stream cannot hold two documents: refused before the work, not found after it.
  command->parse_complete_callback([&outputs] {
    std::vector<std::string> to_stdout;
    for (const auto& [flag, value] :
         {std::pair{"--json", &outputs.json}, std::pair{"--html", &outputs.html}, std::pair{"--junit", &outputs.junit},
          std::pair{"--sarif", &outputs.sarif}, std::pair{"--markdown", &outputs.markdown}}) {
      if (*value == "-") to_stdout.emplace_back(flag);
    }
    if (to_stdout.size() > 1) {
      throw CLI::ValidationError(
          fmt::format("{} all write to standard output (-): give all but one a file", fmt::join(to_stdout, ", ")));
    }
  });
}

void add_baselines_option(CLI::App* command, std::filesystem::path& baselines) {
  as_operand(command->add_option("--baselines,--shim-decls", baselines,
                                 "committed baselines, a directory of <release>/ (default: the project's shim_decls/)"),
             Operand::Directory);
}

std::filesystem::path baselines_or_default(const std::filesystem::path& baselines) {
  return baselines.empty() ? project_baselines_dir() : baselines;
}

void add_matrix_run_options(CLI::App* command, MatrixRunFlags& flags) {
  as_operand(command->add_option("--spec", flags.spec, "matrix spec (TOML; default: matrix/default.toml)"),
             Operand::File);
  as_operand(command->add_option("--cache-dir", flags.cache_dir,
                                 "build and result cache (default: $XDG_CACHE_HOME/torch-abi-check/matrix-cache)"),
             Operand::WorkDirectory);
  command->add_option("-j,--jobs", flags.jobs, "builds and cells run at once (default: number of CPUs)");
  command->add_flag("--fresh", flags.fresh, "ignore cached builds and results");
  command->add_flag("--sample", flags.sample,
                    "build each suite at its oldest and newest build release only (each at every target), "
                    "instead of the spec's whole list");
}

std::filesystem::path spec_or_default(const MatrixRunFlags& flags) {
  return flags.spec.empty() ? project_root() / "matrix" / "default.toml" : flags.spec;
}

ProgressLine progress_line(const std::string& label) {
  if (!isatty(STDERR_FILENO)) {
    auto log = std::make_shared<LogProgress>(label);
    return [log](int done, int total, const std::string& line) { log->update(done, total, line); };
  }
  return [](int done, int total, const std::string& line) {
    fmt::print(stderr, "\r\033[K[{}/{}] {}", done, total, line);
    if (done == total) fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

unsigned jobs_or_cores(unsigned jobs) { return jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency()); }

void add_cell_run_options(CLI::App* command, CellRunFlags& flags, const std::string& cache, const std::string& fresh) {
  as_operand(
      command->add_option("--torch", flags.releases, "stored releases to load into (default: every stored release)"),
      Operand::Release);
  as_operand(command->add_option("--cache-dir", flags.cache_dir, cache), Operand::WorkDirectory);
  command->add_option("-j,--jobs", flags.jobs, "releases run at once (default: number of CPUs)");
  command->add_flag("--fresh", flags.fresh, fresh);
}

std::vector<StoredRelease> chosen_releases(const ReleaseStore& store, const std::vector<std::string>& names) {
  if (names.empty()) {
    auto all = store.releases();
    if (all.empty()) store.require_newest();  // the ToolError that says how to install one
    return all;
  }
  std::vector<StoredRelease> releases;
  for (const auto& name : names) releases.push_back(store.require(name));
  std::ranges::sort(releases, {}, &StoredRelease::version);
  return releases;
}

MatrixOptions matrix_options_from(const MatrixRunFlags& flags) {
  MatrixOptions options;
  options.cache_dir = flags.cache_dir.empty() ? default_matrix_cache_dir() : flags.cache_dir;
  options.fresh = flags.fresh;
  options.sample_builds = flags.sample;
  options.jobs = jobs_or_cores(flags.jobs);
  options.progress = progress_line("matrix");
  return options;
}

void add_canary_run_options(CLI::App* command, CanaryRunFlags& flags) {
  auto* spec = as_operand(command->add_option("--canary-spec", flags.spec,
                                              "published wheels to load (canary spec; default: matrix/canary.toml)"),
                          Operand::File);
  command->add_flag("--no-canary", flags.skip, "leave the canary of published wheels out")->excludes(spec);
}

std::optional<CanarySpec> canary_spec_from(const CanaryRunFlags& flags) {
  if (flags.skip) return std::nullopt;
  return load_canary_spec(flags.spec.empty() ? default_canary_spec() : flags.spec);
}

CanaryOptions canary_options_from(const MatrixRunFlags& flags) {
  return {.cache_dir = flags.cache_dir.empty() ? default_canary_cache_dir() : flags.cache_dir / "canary",
          .jobs = jobs_or_cores(flags.jobs),
          .progress = progress_line("canary")};
}

void add_no_cpp_loader_flag(CLI::App* command, bool& no_cpp_loader) {
  command->add_flag("--no-cpp-loader", no_cpp_loader,
                    "load the AOTInductor packages with the Python loader only, not also with the C++ loader "
                    "(AOTIModelPackageLoader, a runner built against each release)");
}

void add_aoti_run_options(CLI::App* command, AotiRunFlags& flags, const std::string& builds_help) {
  auto* builds = as_operand(command->add_option("--aoti-torch", flags.builds, builds_help), Operand::Release);
  command->add_flag("--no-aoti", flags.skip, "leave the AOTInductor suite (reference models) out")->excludes(builds);
  add_no_cpp_loader_flag(command, flags.no_cpp_loader);
}

AotiOptions aoti_options_from(const MatrixRunFlags& run, const AotiRunFlags& flags, const ReleaseStore& store) {
  AotiOptions options{.cache_dir = run.cache_dir.empty() ? default_aoti_cache_dir() : run.cache_dir / "aoti",
                      .fresh = run.fresh,
                      .jobs = jobs_or_cores(run.jobs),
                      .cpp_loader = !flags.no_cpp_loader,
                      .progress = progress_line("aoti")};
  if (!flags.builds.empty()) options.build_releases = chosen_releases(store, flags.builds);
  return options;
}

ReleaseStore open_store(const CommonOptions& common) {
  return ReleaseStore(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);
}

ExitCode finish_command(const nlohmann::json& document, const ReportOutputs& outputs, const std::string& text) {
  write_report_outputs(document, outputs);
  (outputs.takes_stdout() ? std::cerr : std::cout) << text << std::flush;
  return judgement_of(document).exit_code();
}

}  // namespace abicheck

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/log_progress.h"
#include "core/project_paths.h"
#include "report/report_document.h"

namespace abicheck {

void add_output_options(CLI::App* command, ReportOutputs& outputs) {
  command->add_option("--json", outputs.json, "write the report document (JSON) to FILE (- for standard output)");
  command->add_option("--html", outputs.html, "write a self-contained HTML report to FILE");
  command->add_option("--junit", outputs.junit, "write JUnit XML to FILE");
  command->add_option("--sarif", outputs.sarif, "write SARIF 2.1.0 (findings with a place in a file) to FILE");
  command->add_option("--markdown", outputs.markdown, "write a Markdown summary to FILE");
}

void add_baselines_option(CLI::App* command, std::filesystem::path& baselines) {
  command->add_option("--baselines,--shim-decls", baselines,
                      "committed baselines, a directory of <release>/ (default: the project's shim_decls/)");
}

std::filesystem::path baselines_or_default(const std::filesystem::path& baselines) {
  return baselines.empty() ? project_baselines_dir() : baselines;
}

void add_matrix_run_options(CLI::App* command, MatrixRunFlags& flags) {
  command->add_option("--spec", flags.spec, "matrix spec (TOML; default: matrix/default.toml)")
      ->check(CLI::ExistingFile);
  command->add_option("--cache-dir", flags.cache_dir,
                      "build and result cache (default: $XDG_CACHE_HOME/torch-abi-check/matrix-cache)");
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
  command->add_option("--torch", flags.releases, "stored releases to load into (default: every stored release)");
  command->add_option("--cache-dir", flags.cache_dir, cache);
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
  command
      ->add_option("--canary-spec", flags.spec, "published wheels to load (canary spec; default: matrix/canary.toml)")
      ->check(CLI::ExistingFile);
  command->add_flag("--no-canary", flags.skip, "leave the canary of published wheels out");
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
  command->add_option("--aoti-torch", flags.builds, builds_help);
  command->add_flag("--no-aoti", flags.skip, "leave the AOTInductor suite (reference models) out");
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

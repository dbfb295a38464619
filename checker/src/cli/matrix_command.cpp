#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <thread>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "matrix/matrix_report.h"
#include "matrix/matrix_runner.h"
#include "matrix/matrix_spec.h"
#include "report/html_report.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

struct MatrixOptionsCli {
  std::filesystem::path spec;
  std::optional<std::string> json_path;
  std::optional<std::string> junit_path;
  std::optional<std::string> markdown_path;
  std::optional<std::string> html_path;
  std::filesystem::path cache_dir;
  bool fresh = false;
  unsigned jobs = 0;
};

ExitCode run_matrix_command(const CommonOptions& common, const MatrixOptionsCli& cli) {
  std::filesystem::path spec_path = cli.spec.empty() ? project_root() / "matrix" / "default.toml" : cli.spec;
  MatrixSpec spec = load_matrix_spec(spec_path);
  ReleaseStore store(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);

  MatrixOptions options;
  options.cache_dir = cli.cache_dir.empty() ? default_matrix_cache_dir() : cli.cache_dir;
  options.fresh = cli.fresh;
  options.jobs = cli.jobs != 0 ? cli.jobs : std::max(1u, std::thread::hardware_concurrency());
  // Progress only where a person watches; CI logs get the grid at the end.
  if (isatty(STDERR_FILENO)) {
    options.progress = [](int done, int total, const std::string& line) {
      fmt::print(stderr, "\r\033[K[{}/{}] {}", done, total, line);
      if (done == total) fmt::print(stderr, "\r\033[K");
      std::fflush(stderr);
    };
  }
  MatrixResult result = run_matrix(spec, store, options);

  if (cli.json_path) write_file_atomically(*cli.json_path, render_matrix_json(result));
  if (cli.junit_path) write_file_atomically(*cli.junit_path, render_junit("torch-abi-check matrix", matrix_junit_cases(result)));
  if (cli.markdown_path) write_file_atomically(*cli.markdown_path, render_matrix_markdown(result));
  if (cli.html_path) {
    nlohmann::json document = {{"title", fmt::format("torch-abi-check matrix: {}", spec_path.filename().string())}};
    add_to_report(document, nlohmann::json::parse(render_matrix_json(result)), spec_path.string());
    write_file_atomically(*cli.html_path, render_html_report(document));
  }
  bool report_on_stdout = cli.json_path == "-" || cli.junit_path == "-" || cli.markdown_path == "-" || cli.html_path == "-";
  (report_on_stdout ? std::cerr : std::cout) << render_matrix_grid(result);
  return result.has_findings() ? ExitCode::Findings : ExitCode::Clean;
}

}  // namespace

void add_matrix_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<MatrixOptionsCli>();
  auto* matrix = app.add_subcommand(
      "matrix", "build the reference kernels at every (build, target) and run them under every runtime release");
  matrix->add_option("spec", options->spec, "matrix spec (TOML; default: matrix/default.toml)")->check(CLI::ExistingFile);
  matrix->add_option("--json", options->json_path, "write the cells as JSON to FILE (- for standard output)");
  matrix->add_option("--junit", options->junit_path, "write JUnit XML to FILE: one testcase per cell and op");
  matrix->add_option("--markdown", options->markdown_path, "write the grid as Markdown to FILE");
  matrix->add_option("--html", options->html_path, "write the grid with every cell's log as a self-contained HTML report to FILE");
  matrix->add_option("--cache-dir", options->cache_dir,
                     "build and result cache (default: $XDG_CACHE_HOME/torch-abi-check/matrix-cache)");
  matrix->add_flag("--fresh", options->fresh, "ignore cached builds and results");
  matrix->add_option("-j,--jobs", options->jobs, "builds and cells run at once (default: number of CPUs)");
  matrix->callback([&action, &common, options] {
    action = [&common, options] { return run_matrix_command(common, *options); };
  });
}

}  // namespace abicheck

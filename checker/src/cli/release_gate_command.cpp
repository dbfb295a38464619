#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <thread>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "gate/release_gate.h"
#include "matrix/matrix_report.h"
#include "report/gate_report.h"
#include "report/html_report.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct ReleaseGateOptions {
  std::string candidate;
  std::optional<std::string> last;
  fs::path spec;
  fs::path baselines;
  std::optional<std::string> json_path;
  std::optional<std::string> html_path;
  std::optional<std::string> junit_path;
  fs::path cache_dir;
  unsigned jobs = 0;
};

ExitCode run_release_gate_command(const CommonOptions& common, const ReleaseGateOptions& options) {
  ReleaseGateRequest request;
  request.candidate = options.candidate;
  if (options.last) request.last = TorchVersion::parse(*options.last);
  request.spec = load_matrix_spec(options.spec.empty() ? project_root() / "matrix" / "default.toml" : options.spec);
  request.baselines = options.baselines.empty() ? project_root() / "shim_decls" : options.baselines;
  request.matrix.cache_dir = options.cache_dir.empty() ? default_matrix_cache_dir() : options.cache_dir;
  request.matrix.jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (isatty(STDERR_FILENO)) {
    request.matrix.progress = [](int done, int total, const std::string& line) {
      fmt::print(stderr, "\r\033[K[{}/{}] {}", done, total, line);
      if (done == total) fmt::print(stderr, "\r\033[K");
      std::fflush(stderr);
    };
  }
  ReleaseStore store(common.store_root.empty() ? ReleaseStore::default_root() : common.store_root);
  ReleaseGateResult result = run_release_gate(store, request);

  nlohmann::json document = release_gate_document(result);
  if (options.json_path) write_file_atomically(*options.json_path, document.dump(2) + "\n");
  if (options.html_path) write_file_atomically(*options.html_path, render_html_report(document));
  if (options.junit_path) {
    write_file_atomically(*options.junit_path, render_junit("torch-abi-check release-gate", release_gate_junit_cases(result)));
  }
  bool report_on_stdout = options.json_path == "-" || options.html_path == "-" || options.junit_path == "-";
  std::ostream& out = report_on_stdout ? std::cerr : std::cout;
  for (const auto& note : result.lint.notes) out << "lint: note: " << note << "\n";
  out << render_matrix_grid(result.matrix);
  for (const auto& line : judge_report(document).lines) out << line << "\n";
  out << release_gate_verdict(result) << "\n";
  return result.has_findings() ? ExitCode::Findings : ExitCode::Clean;
}

}  // namespace

void add_release_gate_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  auto options = std::make_shared<ReleaseGateOptions>();
  auto* gate = app.add_subcommand(
      "release-gate",
      "check a torch release candidate: ABI diff against the last release, header lint, old builds run under it");
  gate->add_option("--candidate", options->candidate,
                   "a torch package directory (<env>/lib/pythonX.Y/site-packages/torch) or a version (from the "
                   "store; installed when missing)")
      ->required();
  gate->add_option("--last", options->last,
                   "the release it must stay compatible with (default: the newest committed baseline before it)");
  gate->add_option("--spec", options->spec,
                   "matrix spec whose suites run under the candidate, resolved against the releases up to the last "
                   "(default: matrix/default.toml)")
      ->check(CLI::ExistingFile);
  gate->add_option("--baselines", options->baselines, "committed baselines (default: shim_decls/ of the project)");
  gate->add_option("--json", options->json_path, "write the report document to FILE (- for standard output)");
  gate->add_option("--html", options->html_path, "write the self-contained HTML report to FILE");
  gate->add_option("--junit", options->junit_path, "write JUnit XML to FILE");
  gate->add_option("--cache-dir", options->cache_dir,
                   "matrix build and result cache (default: $XDG_CACHE_HOME/torch-abi-check/matrix-cache)");
  gate->add_option("-j,--jobs", options->jobs, "matrix builds and cells run at once (default: number of CPUs)");
  gate->callback([&action, &common, options] {
    action = [&common, options] { return run_release_gate_command(common, *options); };
  });
}

}  // namespace abicheck

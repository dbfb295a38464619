#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <nlohmann/json_fwd.hpp>

#include "aoti/aoti_run.h"
#include "canary/canary_run.h"
#include "canary/canary_spec.h"
#include "core/tool_error.h"
#include "matrix/matrix_runner.h"
#include "report/report_formats.h"
#include "store/release_store.h"

namespace abicheck {

// What an operand of the command line names. Its name is the type that --help shows (`--allowlist FILE`),
// from which the bad-input suite (checker/tests/cli/test_bad_inputs.py) generates the bad values of every
// operand of every command. Each is checked while the command line parses, before any work starts: a
// bad one is one line that names the operand and the problem, and exit 2. What a file holds is its
// reader's to judge, also before the long work.
enum class Operand {
  File,             // FILE: an existing regular file that can be read
  Directory,        // DIR: an existing directory that can be read
  FileOrDirectory,  // PATH: either, readable
  Release,          // RELEASE: a version (2.10, 2.10.1, newest) or an existing torch package or header directory
  Version,          // VERSION: a torch version (2.10, 2.10.1) or a TORCH_TARGET_VERSION value (0x020A000000000000)
  Output,           // OUT: a file to write, or - for standard output: not a directory, in a writable directory
  WorkDirectory,    // WORKDIR: a directory the command writes, created when missing under a writable one
};
// Gives `option` the kind's type name and check; returns it for more settings.
CLI::Option* as_operand(CLI::Option* option, Operand kind);

// Options every subcommand shares.
struct CommonOptions {
  std::filesystem::path store_root;  // --store; empty means ReleaseStore::default_root()
};

// The same output flags on every command that reports: --json, --html, --junit, --sarif, --markdown.
void add_output_options(CLI::App* command, ReportOutputs& outputs);

// --baselines DIR (also accepted as --shim-decls, its earlier name in audit and check).
void add_baselines_option(CLI::App* command, std::filesystem::path& baselines);
// The committed baselines to use: the option's value, else the project's shim_decls/.
std::filesystem::path baselines_or_default(const std::filesystem::path& baselines);

// --spec FILE, --cache-dir DIR, -j/--jobs N, --fresh and --sample: how the reference-kernel matrix
// runs, the same in matrix, release-gate and ci.
struct MatrixRunFlags {
  std::filesystem::path spec;  // empty: matrix/default.toml of the project
  std::filesystem::path cache_dir;
  unsigned jobs = 0;
  bool fresh = false;
  bool sample = false;
};
void add_matrix_run_options(CLI::App* command, MatrixRunFlags& flags);
std::filesystem::path spec_or_default(const MatrixRunFlags& flags);
// The matrix's options from the flags: the default cache, one job per core, progress on a terminal.
MatrixOptions matrix_options_from(const MatrixRunFlags& flags);

// "[3/7] line" on standard error: rewritten in place on a terminal (erased when done); elsewhere (a
// CI log) plain "label: [3/7] 42 s: line" lines, at least one every 30 s until the work ends
// (cli/log_progress.h).
using ProgressLine = std::function<void(int done, int total, const std::string& line)>;
ProgressLine progress_line(const std::string& label);
// -j N, or one per core when N is 0.
unsigned jobs_or_cores(unsigned jobs);

// --torch (repeatable), --cache-dir DIR, -j/--jobs N and --fresh of the commands that load packages
// under stored releases in forked cells (canary, aoti). `cache` and `fresh` say what those two mean there.
struct CellRunFlags {
  std::vector<std::string> releases;  // empty: every stored release
  std::filesystem::path cache_dir;    // empty: the command's default
  unsigned jobs = 0;
  bool fresh = false;
};
void add_cell_run_options(CLI::App* command, CellRunFlags& flags, const std::string& cache, const std::string& fresh);
// The stored releases `names` give (oldest first), or every stored release; a ToolError when none is stored.
std::vector<StoredRelease> chosen_releases(const ReleaseStore& store, const std::vector<std::string>& names);

// --canary-spec FILE and --no-canary: the published wheels that ci and release-gate load.
struct CanaryRunFlags {
  std::filesystem::path spec;  // empty: matrix/canary.toml of the project
  bool skip = false;
};
void add_canary_run_options(CLI::App* command, CanaryRunFlags& flags);
// The spec to run, or none with --no-canary.
std::optional<CanarySpec> canary_spec_from(const CanaryRunFlags& flags);
// The canary's cache (with --cache-dir, its canary/ folder: a job keeps all it caches there), jobs
// and progress, from the matrix's flags.
CanaryOptions canary_options_from(const MatrixRunFlags& flags);

// --no-cpp-loader: the AOTInductor packages loaded by the Python loader alone, not also by the C++ one.
void add_no_cpp_loader_flag(CLI::App* command, bool& no_cpp_loader);

// --aoti-torch R (repeatable), --no-aoti and --no-cpp-loader: the AOTInductor suite that ci and
// release-gate run (the reference models compiled at those releases, every stored one by default).
struct AotiRunFlags {
  std::vector<std::string> builds;  // empty: every stored release (release-gate: every one before the candidate)
  bool skip = false;
  bool no_cpp_loader = false;
};
void add_aoti_run_options(CLI::App* command, AotiRunFlags& flags, const std::string& builds_help);
// The aoti suite's cache (with --cache-dir, its aoti/ folder), jobs, progress, the releases that
// compile the reference models (none: the caller's default) and the loaders, from the flags.
AotiOptions aoti_options_from(const MatrixRunFlags& run, const AotiRunFlags& flags, const ReleaseStore& store);

// The store that --store names, else the default one.
ReleaseStore open_store(const CommonOptions& common);

// Writes the requested formats of the document, then the command's text for people: on standard
// output, or on standard error when a format took standard output. Returns the document's exit code.
ExitCode finish_command(const nlohmann::json& document, const ReportOutputs& outputs, const std::string& text);

// What the chosen subcommand does once the command line parsed; its result is the exit code.
using CommandAction = std::function<ExitCode()>;

// Each subcommand lives in its own file and adds itself to the app; the one that the command line
// names sets `action`.
void add_store_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_lint_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_audit_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_inventory_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_baseline_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_diff_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_timeline_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_matrix_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_report_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_release_gate_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_check_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_ci_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_canary_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_aoti_command(CLI::App& app, const CommonOptions& common, CommandAction& action);

}  // namespace abicheck

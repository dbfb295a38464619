#include "matrix/matrix_runner.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "baseline/library_exports.h"
#include "baseline/release_history.h"
#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "core/parallel_for_each.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"
#include "matrix/kernel_build.h"
#include "matrix/shim_call_counter.h"
#include "matrix/shim_exports.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kLogTailLines = 40;

// A cell before it runs: what to build, where to run it, what to expect.
struct PlannedCell {
  MatrixCell cell;
  BuildRequest build;
  StoredRelease runtime;
  std::size_t build_index = 0;
};

StoredRelease resolve_release(const ReleaseStore& store, const std::vector<StoredRelease>& releases,
                              const std::string& text) {
  if (releases.empty()) throw ToolError("the torch store is empty (run: torch-abi-check store install)");
  if (text == "newest") return releases.back();
  if (text == "oldest") return releases.front();
  return store.require(text);
}

// The store's releases the spec may name: all of them, or those up to the gate's last release.
std::vector<StoredRelease> releases_in_scope(const ReleaseStore& store, const MatrixOptions& options) {
  auto releases = store.releases();
  if (options.newest_release) {
    std::erase_if(releases, [&](const StoredRelease& release) {
      return release.version.minor_release() > options.newest_release->minor_release();
    });
  }
  return releases;
}

fs::path baselines_of(const MatrixOptions& options) {
  return options.baselines.empty() ? project_baselines_dir() : options.baselines;
}

// The cells of one shard: their builds' places among the distinct builds, in plan order, modulo N.
void keep_shard(std::vector<PlannedCell>& cells, const MatrixShard& shard) {
  std::map<std::string, std::size_t> build_order;
  std::vector<PlannedCell> kept;
  for (auto& cell : cells) {
    const auto& build = cell.build;
    const std::string key = fmt::format("{}|{}|{}|{}", build.suite->name, backend_name(build.backend),
                                        build.build_release.version.to_full_string(), build.target.to_string());
    const std::size_t order = build_order.emplace(key, build_order.size()).first->second;
    if (shard.keeps(order)) kept.push_back(std::move(cell));
  }
  cells = std::move(kept);
}

std::vector<PlannedCell> plan_cells(const MatrixSpec& spec, const ReleaseStore& store, const MatrixOptions& options) {
  const auto releases = releases_in_scope(store, options);
  const ReleaseHistory history = ReleaseHistory::open(baselines_of(options));
  const auto& known_releases = history.releases();
  std::vector<PlannedCell> cells;
  for (const auto& suite : spec.suites) {
    std::vector<StoredRelease> runtimes = options.runtimes;
    if (runtimes.empty() && suite.runtimes.empty()) runtimes = releases;
    if (options.runtimes.empty()) {
      for (const auto& text : suite.runtimes) runtimes.push_back(resolve_release(store, releases, text));
    }
    for (Backend backend : suite.backends) {
      std::vector<StoredRelease> builds;
      if (suite.builds.empty()) builds = releases;
      for (const auto& text : suite.builds) builds.push_back(resolve_release(store, releases, text));
      std::ranges::sort(builds, {}, &StoredRelease::version);
      auto [first, last] = std::ranges::unique(builds, {}, &StoredRelease::version);
      builds.erase(first, last);
      if (options.sample_builds && builds.size() > 2) builds = {builds.front(), builds.back()};
      for (const auto& build : builds) {
        std::vector<TorchVersion> targets;
        if (suite.api == ExtensionApi::Unstable) {
          targets.push_back(build.version.minor_release());
        } else if (suite.targets.empty()) {
          // Every target the build can promise: the minors of the committed baselines and of the store
          // up to the build. A target needs only the build's headers, not its own torch in the store
          // (a GPU machine with one adopted torch still builds for 2.9).
          std::set<TorchVersion> minors;
          for (const auto& release : known_releases) minors.insert(release.minor_release());
          for (const auto& release : releases) minors.insert(release.version.minor_release());
          for (const auto& minor : minors) {
            if (minor >= TorchVersion{2, 9, 0} && minor <= build.version.minor_release()) targets.push_back(minor);
          }
        } else {
          for (const auto& text : suite.targets)
            targets.push_back(resolve_release(store, releases, text).version.minor_release());
        }
        for (const auto& target : targets) {
          for (const auto& runtime : runtimes) {
            PlannedCell planned;
            planned.cell = {.suite = suite.name,
                            .backend = backend,
                            .build = build.version,
                            .target = target,
                            .runtime = runtime.version,
                            .expected = expected_outcome(suite.api, build.version, target, runtime.version)};
            planned.build = {.suite = &suite, .backend = backend, .build_release = build, .target = target};
            planned.runtime = runtime;
            cells.push_back(std::move(planned));
          }
        }
      }
    }
  }
  if (options.shard) keep_shard(cells, *options.shard);
  return cells;
}

bool device_present(Backend backend) {
  if (const char* forced = std::getenv("TORCH_ABI_CHECK_ASSUME_NO_DEVICE"); forced != nullptr && *forced == '1') {
    return backend == Backend::Cpu;
  }
  switch (backend) {
    case Backend::Cpu: return true;
    case Backend::Cuda: return fs::exists("/dev/nvidia0") || fs::exists("/dev/nvidiactl");
    case Backend::Rocm: return fs::exists("/dev/kfd");
  }
  return false;
}

std::string tests_hash(const SuiteSpec& suite) {
  ContentHash hash;
  hash.add_tree(suite.sources / "tests");
  hash.add_file(project_root() / "kernels" / "tests" / "harness.py", project_root());
  for (const char* runner : {"run_cell.py", "forked_cells.py", "shim_counts.py", "shim_counter.c"})
    hash.add_file(project_root() / "matrix" / runner, project_root());
  return hash.hex();
}

nlohmann::json cell_to_cache(const MatrixCell& cell) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : cell.ops) {
    ops.push_back({{"group", op.group},
                   {"op", op.op},
                   {"name", op.name},
                   {"outcome", op.outcome},
                   {"message", op.message},
                   {"failure", op.failure}});
  }
  nlohmann::json calls = nullptr;
  if (cell.shim_calls) calls = *cell.shim_calls;
  return {{"outcome", outcome_name(cell.outcome)},
          {"reason", cell.reason},
          {"failure", failure_name(cell.failure)},
          {"duration_s", cell.duration_s},
          {"log", cell.log},
          {"ops", ops},
          {"shim_calls", calls}};
}

std::optional<CellOutcome> outcome_from_name(const std::string& name) {
  for (auto outcome :
       {CellOutcome::Pass, CellOutcome::ExpectedFail, CellOutcome::UnexpectedFail, CellOutcome::UnexpectedPass,
        CellOutcome::Crash, CellOutcome::Timeout, CellOutcome::NotRun, CellOutcome::LoadedNotExecuted}) {
    if (outcome_name(outcome) == name) return outcome;
  }
  return std::nullopt;
}

CellFailure failure_from_name(const std::string& name) {
  for (auto failure : {CellFailure::Build, CellFailure::Load, CellFailure::Registration, CellFailure::Crash,
                       CellFailure::WrongResult, CellFailure::OpError, CellFailure::Timeout}) {
    if (failure_name(failure) == name) return failure;
  }
  return CellFailure::None;
}

// Where a GPU library cannot load at all: its backend needs a torch of the same kind.
std::optional<std::string> unloadable_reason(Backend backend, const StoredRelease& runtime) {
  const auto& toolkit = runtime.device.toolkit;
  const bool matches =
      backend == Backend::Cpu || (toolkit && (toolkit->toolkit == DeviceToolkit::Cuda) == (backend == Backend::Cuda));
  if (matches) return std::nullopt;
  return fmt::format("a {} build needs a {} torch; torch {} is a {} build", backend_name(backend),
                     backend == Backend::Cuda ? "CUDA" : "ROCm", runtime.version.to_string(),
                     runtime.device.describe());
}

// The line that says why a library aborted while loading: the C++ runtime's "what():" or the last one.
std::string abort_message(const ProcessResult& process) {
  std::string found = process.tail(1);
  std::size_t start = 0;
  while (start < process.output.size()) {
    std::size_t end = process.output.find('\n', start);
    if (end == std::string::npos) end = process.output.size();
    std::string_view line(process.output.data() + start, end - start);
    if (line.find("what():") != std::string_view::npos) found = std::string(line);
    start = end + 1;
  }
  return found;
}

bool cell_from_cache(const fs::path& file, MatrixCell& cell) {
  std::ifstream stream(file);
  if (!stream) return false;
  auto saved = nlohmann::json::parse(stream, nullptr, false);
  if (saved.is_discarded()) return false;
  auto outcome = outcome_from_name(saved.value("outcome", ""));
  if (!outcome) return false;
  cell.outcome = *outcome;
  cell.reason = saved.value("reason", "");
  cell.failure = failure_from_name(saved.value("failure", ""));
  cell.duration_s = saved.value("duration_s", 0.0);
  cell.log = saved.value("log", "");
  for (const auto& op : saved.value("ops", nlohmann::json::array())) {
    cell.ops.push_back({op.value("group", ""), op.value("op", ""), op.value("name", ""), op.value("outcome", ""),
                        op.value("message", ""), op.value("failure", "")});
  }
  if (const auto calls = saved.find("shim_calls"); calls != saved.end() && calls->is_object())
    cell.shim_calls = calls->get<std::map<std::string, std::uint64_t>>();
  cell.cached = true;
  return true;
}

// Reads what run_cell.py wrote; a missing or unreadable file means the runner died first.
void read_cell_result(const fs::path& file, CellRun& run, MatrixCell& cell) {
  std::ifstream stream(file);
  if (!stream) return;
  auto result = nlohmann::json::parse(stream, nullptr, false);
  if (result.is_discarded()) return;
  run.result_written = true;
  run.load_started = result.value("load", "") == "started";
  run.loaded = result.value("load", "") == "ok";
  run.registration_failed = result.value("load_failure", "") == "registration";
  run.load_error = result.value("error", "");
  for (const auto& entry : result.value("cases", nlohmann::json::array())) {
    OpResult op{entry.value("group", ""),   entry.value("op", ""),      entry.value("name", ""),
                entry.value("outcome", ""), entry.value("message", ""), entry.value("failure", "")};
    if (op.outcome == "passed") ++run.cases_passed;
    if (op.outcome == "failed") ++run.cases_failed;
    if (op.outcome == "failed" && op.failure == "wrong-result") ++run.cases_wrong;
    cell.ops.push_back(std::move(op));
  }
}

std::string tail_of(const std::string& text, std::size_t lines) {
  ProcessResult holder;
  holder.output = text;
  return holder.tail(lines);
}

// A cell that runs in its runtime's server: where it works and how it is run.
struct CellToRun {
  PlannedCell* planned = nullptr;
  const BuildRecord* build = nullptr;
  fs::path run_dir;
  bool load_only = false;
  std::optional<CellRun> run;
};

// How a forked cell's process ended (matrix/forked_cells.py's ending.json) and what it printed, as
// the ProcessResult it would have been as a process of its own; nothing when the server never
// reached the cell.
std::optional<ProcessResult> read_cell_process(const fs::path& run_dir) {
  std::ifstream stream(run_dir / "ending.json");
  if (!stream) return std::nullopt;
  auto ending = nlohmann::json::parse(stream, nullptr, false);
  if (ending.is_discarded()) return std::nullopt;
  ProcessResult process;
  if (ending.value("exit_code", nlohmann::json()).is_number()) process.exit_code = ending["exit_code"].get<int>();
  if (ending.value("signal", nlohmann::json()).is_number()) process.term_signal = ending["signal"].get<int>();
  process.timed_out = ending.value("timed_out", false);
  process.duration = std::chrono::duration<double>(ending.value("seconds", 0.0));
  if (fs::exists(run_dir / "log.txt")) process.output = read_file_text(run_dir / "log.txt");
  return process;
}

// Runs the cells of one runtime release in one process of its Python: run_cell.py --cells imports
// torch once and forks a child per cell (a crash or hang ends that child only, with its signal or
// its timeout). The shim call counter audits the whole server; each child counts its own extension
// into its own file. A cell the server never reached (it died first) ends as the server did.
void run_runtime_cells(const StoredRelease& runtime, std::vector<CellToRun*>& cells, const MatrixSpec& spec,
                       const ShimCallCounter& counter, const fs::path& server_dir, unsigned jobs) {
  fs::create_directories(server_dir);
  nlohmann::json list = nlohmann::json::array();
  for (CellToRun* cell : cells) {
    fs::create_directories(cell->run_dir);
    for (const char* left : {"result.json", "ending.json", "log.txt", "shim_calls.bin"})
      fs::remove(cell->run_dir / left);  // what an earlier run left must not stand in for this one
    const MatrixCell& planned = cell->planned->cell;
    list.push_back({{"dir", cell->run_dir.string()},
                    {"library", fs::canonical(cell->build->library).string()},
                    {"target", planned.target.to_string()},
                    {"backend", backend_name(planned.backend)},
                    {"tests", {(cell->planned->build.suite->sources / "tests").string()}},
                    {"load_only", cell->load_only},
                    {"timeout_s", spec.cell_timeout_s}});
  }
  const fs::path cells_file = server_dir / fmt::format("cells-{}.json", getpid());
  write_file_atomically(cells_file, list.dump(1));
  std::map<std::string, std::string> environment{{"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONUNBUFFERED", "1"}};
  environment.merge(counter.environment(server_dir / "counts"));
  const auto limit = std::chrono::seconds(spec.cell_timeout_s * static_cast<long>(cells.size()) + 300);
  // A cell that runs on the GPU creates a CUDA context, whose address-space reservation fails under
  // the address-space limit (seen as "CUDA error: out of memory" on an H100): such a server is
  // limited in the memory it writes instead.
  const bool runs_on_device = std::ranges::any_of(
      cells, [](const CellToRun* cell) { return !cell->load_only && cell->planned->cell.backend != Backend::Cpu; });
  ProcessResult server = run_process(
      {.argv = {runtime.python.string(), (project_root() / "matrix" / "run_cell.py").string(), "--cells",
                cells_file.string(), "--jobs", std::to_string(jobs), "--harness",
                (project_root() / "kernels" / "tests").string(), "--summary", (server_dir / "summary.json").string()},
       .extra_env = environment,
       .working_dir = server_dir,
       .timeout = limit,
       .memory_limit_bytes = spec.cell_memory_mb << 20,
       .limit_data_not_address_space = runs_on_device});
  fs::remove(cells_file);
  for (CellToRun* cell : cells) {
    MatrixCell& planned = cell->planned->cell;
    std::optional<ProcessResult> process = read_cell_process(cell->run_dir);
    if (!process) {
      process = server;
      process->output = fmt::format("torch {}'s cell server ended ({}) before this cell:\n{}",
                                    runtime.version.to_string(), server.describe(), server.output);
      process->duration = {};
    }
    CellRun run{.exit_code = process->exit_code,
                .term_signal = process->term_signal,
                .timed_out = process->timed_out,
                .describe = process->describe(),
                .load_only = cell->load_only,
                .last_output_line = process->tail(1)};
    if (!process->timed_out) read_cell_result(cell->run_dir / "result.json", run, planned);
    if (run.load_started && run.term_signal) {
      run.registration_failed = true;
      run.load_error = fmt::format("aborted while loading ({}): {}", process->describe(), abort_message(*process));
    }
    if (counter.library) planned.shim_calls = read_shim_call_counts(cell->run_dir / "shim_calls.bin");
    planned.duration_s = process->duration.count();
    planned.log = tail_of(process->output, kLogTailLines);
    cell->run = std::move(run);
  }
}

}  // namespace

MatrixShard MatrixShard::parse(const std::string& text) {
  unsigned index = 0;
  unsigned count = 0;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> index >> slash >> count) || slash != '/' || !in.eof() || index < 1 || count < index) {
    throw ToolError(fmt::format("--shard {}: expected K/N with 1 <= K <= N (for example 2/4)", text));
  }
  return {.index = index, .count = count};
}

std::string MatrixShard::to_string() const { return fmt::format("{}/{}", index, count); }

fs::path default_matrix_cache_dir() { return user_cache_dir() / "matrix-cache"; }

std::vector<MatrixCell> plan_matrix(const MatrixSpec& spec, const ReleaseStore& store, const MatrixOptions& options) {
  std::vector<MatrixCell> cells;
  for (auto& planned : plan_cells(spec, store, options)) cells.push_back(std::move(planned.cell));
  return cells;
}

MatrixResult run_matrix(const MatrixSpec& spec, const ReleaseStore& store, const MatrixOptions& given_options) {
  const auto started = std::chrono::steady_clock::now();
  // Cells run in their own directories: every path handed to them must be absolute.
  MatrixOptions options = given_options;
  options.cache_dir = fs::absolute(given_options.cache_dir);
  std::vector<PlannedCell> planned = plan_cells(spec, store, options);
  fs::create_directories(options.cache_dir / "builds");
  fs::create_directories(options.cache_dir / "results");
  fs::create_directories(options.cache_dir / "runs");
  KernelBuilder builder(options.cache_dir, spec, options.fresh);
  // A runtime outside the store (a release candidate) may be the first to export a shim.
  std::vector<StoredRelease> exporting = store.releases();
  exporting.insert(exporting.end(), options.runtimes.begin(), options.runtimes.end());
  std::ranges::stable_sort(exporting, {}, &StoredRelease::version);
  ShimExportIndex exports(exporting);

  // Distinct builds, in the order the cells first need them.
  std::vector<BuildRequest> build_requests;
  std::map<std::string, std::size_t> build_by_key;
  for (auto& cell : planned) {
    auto key = builder.key(cell.build);
    auto [found, inserted] = build_by_key.emplace(key, build_requests.size());
    if (inserted) build_requests.push_back(cell.build);
    cell.build_index = found->second;
  }

  std::mutex progress_mutex;
  int done = 0;
  const int total = static_cast<int>(build_requests.size() + planned.size());
  auto report = [&](const std::string& line) {
    std::lock_guard lock(progress_mutex);
    ++done;
    if (options.progress) options.progress(done, total, line);
  };
  if (options.progress) {
    options.progress(0, total, fmt::format("starting: {} builds, {} cells", build_requests.size(), planned.size()));
  }

  std::vector<BuildRecord> builds(build_requests.size());
  parallel_for_each(build_requests.size(), options.jobs, [&](std::size_t i) {
    const auto& request = build_requests[i];
    builds[i] = builder.build(request);
    report(fmt::format("build {} {} B{} T{}: {}{}", request.suite->name, backend_name(request.backend),
                       request.build_release.version.to_string(), request.target.to_string(), builds[i].status.detail,
                       builds[i].cached ? " (cached)" : ""));
  });

  // What each library imports, for the coverage figure; a library that cannot be read imports nothing known.
  std::vector<std::vector<std::string>> imports(builds.size());
  for (std::size_t i = 0; i < builds.size(); ++i) {
    if (builds[i].status.kind != BuildStatus::Kind::Built) continue;
    try {
      imports[i] = read_imported_shim_functions(builds[i].library);
    } catch (const ToolError&) {
      imports[i].clear();
    }
  }
  const ShimCallCounter counter = prepare_shim_call_counter(options.cache_dir);

  std::map<std::string, std::string> tests_hash_by_suite;
  for (const auto& suite : spec.suites) tests_hash_by_suite[suite.name] = tests_hash(suite);

  // Each cell: from the cache, judged without running (no build, no device), or run in its
  // runtime's server; the judgement is the same whichever way it came.
  auto judge = [&](PlannedCell& planned_cell, const std::optional<CellRun>& run, const fs::path& cache_file) {
    MatrixCell& cell = planned_cell.cell;
    const BuildRecord& build = builds[planned_cell.build_index];
    const auto unloadable = unloadable_reason(cell.backend, planned_cell.runtime);
    CellVerdict verdict =
        build.status.kind == BuildStatus::Kind::Built && unloadable && cell.expected != Expectation::BuildFail
            ? unloadable_cell(*unloadable)
            : classify_cell(cell.expected, cell.runtime, build.status, device_present(cell.backend), run,
                            [&](const std::string& symbol) { return exports.first_exporting(symbol); });
    cell.outcome = verdict.outcome;
    cell.reason = verdict.reason;
    cell.failure = verdict.failure;
    if (run && !run->timed_out) write_file_atomically(cache_file, cell_to_cache(cell).dump(1) + "\n");
    report(fmt::format("{} {} B{} T{} R{}: {}", cell.suite, backend_name(cell.backend), cell.build.to_string(),
                       cell.target.to_string(), cell.runtime.to_string(), outcome_name(cell.outcome)));
  };

  std::vector<CellToRun> to_run;
  to_run.reserve(planned.size());
  std::vector<fs::path> cache_files(planned.size());
  for (std::size_t i = 0; i < planned.size(); ++i) {
    PlannedCell& planned_cell = planned[i];
    MatrixCell& cell = planned_cell.cell;
    const BuildRecord& build = builds[planned_cell.build_index];
    cell.imported_shims = imports[planned_cell.build_index];
    const bool device = device_present(cell.backend);
    // A GPU library without a GPU is still loaded where it can be: its symbols and its op
    // registration are checked, nothing is executed.
    const bool load_only = !device && !unloadable_reason(cell.backend, planned_cell.runtime);
    const bool runnable = build.status.kind == BuildStatus::Kind::Built && (device || load_only) &&
                          cell.expected != Expectation::BuildFail;
    cache_files[i] = options.cache_dir / "results" /
                     (ContentHash()
                          .add(build.key)
                          .add(planned_cell.runtime.version.to_full_string())
                          .add(planned_cell.runtime.python.string())
                          .add(tests_hash_by_suite[cell.suite])
                          .add(expectation_name(cell.expected))
                          .hex() +
                      ".json");
    if (runnable && !options.fresh && cell_from_cache(cache_files[i], cell)) {
      report(fmt::format("{} {} B{} T{} R{}: {} (cached)", cell.suite, backend_name(cell.backend),
                         cell.build.to_string(), cell.target.to_string(), cell.runtime.to_string(),
                         outcome_name(cell.outcome)));
    } else if (runnable) {
      to_run.push_back({.planned = &planned_cell,
                        .build = &build,
                        .run_dir = options.cache_dir / "runs" / cache_files[i].stem(),
                        .load_only = load_only});
    } else {
      cell.log = tail_of(build.log, kLogTailLines);
      judge(planned_cell, std::nullopt, cache_files[i]);
    }
  }

  // One server per runtime release (its Python, its torch), in the order the cells first need them.
  std::vector<std::vector<CellToRun*>> by_runtime;
  std::map<std::string, std::size_t> runtime_index;
  for (auto& cell : to_run) {
    const auto& runtime = cell.planned->runtime;
    auto [found, inserted] =
        runtime_index.emplace(runtime.version.to_full_string() + "|" + runtime.python.string(), by_runtime.size());
    if (inserted) by_runtime.emplace_back();
    by_runtime[found->second].push_back(&cell);
  }
  // Jobs go to servers first; where there are fewer servers than jobs, each forks several cells at a time.
  const unsigned servers_at_once = std::max(1U, std::min<unsigned>(options.jobs, by_runtime.size()));
  const unsigned cells_at_once = std::max(1U, options.jobs / servers_at_once);
  parallel_for_each(by_runtime.size(), servers_at_once, [&](std::size_t r) {
    const StoredRelease& runtime = by_runtime[r].front()->planned->runtime;
    run_runtime_cells(runtime, by_runtime[r], spec, counter,
                      options.cache_dir / "runs" / ("server-" + runtime.version.to_full_string()), cells_at_once);
    for (CellToRun* cell : by_runtime[r]) {
      judge(*cell->planned, cell->run, cache_files[static_cast<std::size_t>(cell->planned - planned.data())]);
    }
  });

  MatrixResult result;
  for (auto& planned_cell : planned) {
    if (planned_cell.cell.cached) ++result.cells_cached;
    result.cells.push_back(std::move(planned_cell.cell));
  }
  for (const auto& build : builds) {
    if (build.status.kind == BuildStatus::Kind::Built) result.libraries.push_back(build.library);
  }
  result.builds_total = static_cast<int>(builds.size());
  result.builds_cached = static_cast<int>(std::ranges::count_if(builds, [](const BuildRecord& b) { return b.cached; }));
  result.coverage = measure_shim_coverage(result.cells, ReleaseHistory::open(baselines_of(options)),
                                          counter.library.has_value(), counter.unavailable);
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace abicheck

#include "canary/canary_run.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "audit/import_time_checks.h"
#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "core/parallel_for_each.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The audit that predicts is this very program: any build of it may predict differently, so its
// predictions are keyed by its own bytes (read once; a few milliseconds).
const std::string& this_program() {
  static const std::string hash = ContentHash().add_file("/proc/self/exe", "/proc/self").hex();
  return hash;
}

fs::path prediction_file(const CanaryOptions& options, const CanaryPackage& package) {
  ContentHash key;
  key.add(this_program()).add(package.sha256).add(package.requires_torch.empty() ? "" : package.requires_torch[0]);
  for (const auto& release : options.releases) key.add(release_cache_identity(release));
  return options.cache_dir / "predictions" / (key.hex() + ".json");
}

// The folders of a package that hold copies of its libraries for torch minors (release_of_copy),
// where it ships copies for several: its Python loads only the running release's copy, and the cell
// does not load the others either (no user's process does; featomic-torch's copies each register one
// operator namespace, and a second registration aborts the process). Read once per package.
std::map<std::string, TorchVersion> release_copy_folders(const fs::path& unpacked) {
  std::map<std::string, TorchVersion> copies;
  std::error_code error;
  for (fs::recursive_directory_iterator it(unpacked, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_directory(error)) continue;
    std::string folder = fs::relative(it->path(), unpacked, error).generic_string();
    if (auto copy = release_of_copy(folder + "/")) copies.emplace((unpacked / folder).string(), *copy);
  }
  std::set<TorchVersion> releases;
  for (const auto& [folder, copy] : copies) releases.insert(copy);
  if (releases.size() < 2) copies.clear();
  return copies;
}

// Of those folders, the ones for other minors than `release`: the cell skips them.
std::vector<std::string> copies_for_other_releases(const std::map<std::string, TorchVersion>& copies,
                                                   const TorchVersion& release) {
  std::vector<std::string> others;
  for (const auto& [folder, copy] : copies) {
    if (copy != release.minor_release()) others.push_back(folder);
  }
  return others;
}

fs::path result_file(const CanaryOptions& options, const CanaryPackage& package, const StoredRelease& release,
                     const std::string& runner_hash, const std::vector<std::string>& skipped) {
  ContentHash key;
  key.add(TORCH_ABI_CHECK_VERSION)
      .add(runner_hash)
      .add(package.sha256)
      .add(release_cache_identity(release))
      .add(package.spec.smoke)
      .add(package.spec.smoke_needs_gpu ? "gpu" : "any")
      .add(package.dependencies.filename().string());  // named by the content of what it installs
  for (const auto& module : package.modules) key.add(module);
  for (const auto& folder : skipped) key.add(folder);
  return options.cache_dir / "results" / (key.hex() + ".json");
}

json prediction_to_cache(const PackageAudit& audit) {
  json predictions = json::array();
  for (const auto& prediction : audit.predictions) {
    predictions.push_back({{"release", prediction.release.to_full_string()},
                           {"outcome", to_string(prediction.outcome)},
                           {"reason", prediction.reason}});
  }
  return {{"verdict", to_string(audit.verdict)},
          {"min_torch", audit.min_torch ? json(audit.min_torch->to_full_string()) : json()},
          {"device_code", audit.device_code},
          {"objects", audit.objects},
          {"predictions", predictions}};
}

std::optional<PackageAudit> prediction_from_cache(const fs::path& file) {
  if (!fs::exists(file)) return std::nullopt;
  try {
    json cached = json::parse(read_file_text(file));
    PackageAudit audit;
    for (AuditVerdict verdict : {AuditVerdict::Stable, AuditVerdict::Unstable, AuditVerdict::NeedsNewerTorch}) {
      if (cached["verdict"] == to_string(verdict)) audit.verdict = verdict;
    }
    if (!cached["min_torch"].is_null()) audit.min_torch = TorchVersion::parse(cached["min_torch"].get<std::string>());
    audit.device_code = cached["device_code"].get<bool>();
    audit.objects = cached["objects"].get<std::size_t>();
    for (const auto& entry : cached["predictions"]) {
      audit.predictions.push_back({.release = TorchVersion::parse(entry["release"].get<std::string>()),
                                   .outcome = *canary_outcome_from_string(entry["outcome"].get<std::string>()),
                                   .reason = entry["reason"].get<std::string>()});
    }
    return audit;
  } catch (const std::exception&) {
    return std::nullopt;  // an unreadable entry is predicted again
  }
}

PackageAudit predict(const CanaryPackage& package, const ShimCatalog& catalog, const CanaryOptions& options) {
  const fs::path cache_file = prediction_file(options, package);
  if (!options.fresh) {
    if (auto cached = prediction_from_cache(cache_file)) return *cached;
  }
  // The wheel itself: the audit reads its Requires-Dist and its recorded toolkit; a directory in place.
  fs::path input = package.wheel.empty() ? package.unpacked : package.wheel;
  AuditReport report = audit_paths({input}, catalog, AuditOptions{.releases = options.releases});
  PackageAudit audit =
      predict_package(report, options.releases,
                      {.modules = package.modules, .unpacked = package.unpacked, .dependencies = package.dependencies});
  fs::create_directories(cache_file.parent_path());
  write_file_atomically(cache_file, prediction_to_cache(audit).dump(1) + "\n");
  return audit;
}

// The dynamic loader that runs the release's Python, where this platform has it at its usual place.
std::optional<fs::path> program_loader() {
  for (const char* path : {"/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"}) {
    if (fs::exists(path)) return fs::path(path);
  }
  return std::nullopt;
}

// The cell runner's command as a user's fresh environment runs it: through the dynamic loader with
// its cache of library paths switched off (--inhibit-cache), so that only RUNPATHs (torch's own
// libraries, its nvidia-* wheels, the package's) and the system's default folders are searched:
// CUDA toolkits that this machine's ld.so.conf adds (/usr/local/cuda*/lib64, /usr/local/lib) are not
// seen, as they are not on a user's machine. LD_LIBRARY_PATH and LD_PRELOAD are emptied in the
// environment.
std::vector<std::string> fresh_environment_argv(const fs::path& python, const fs::path& script) {
  std::vector<std::string> argv;
  if (auto loader = program_loader()) argv = {loader->string(), "--inhibit-cache"};
  argv.push_back(python.string());
  argv.push_back(script.string());
  return argv;
}

// A cell to run: its row, where its result is cached, and (once run) what it wrote.
struct PendingCell {
  std::size_t row;
  fs::path cache_file;
  std::vector<std::string> skipped;  // copies_for_other_releases
  json result;
};

// Runs one release's uncached cells in one process of its Python (canary_cells.py forks per cell)
// and hands back what each wrote. A cell the runner never reached (it died before it) is a crash
// of that cell, not cached; every other result is cached, a timeout too: a warm run does nothing
// (--fresh runs it again).
void run_release(const StoredRelease& release, std::vector<PendingCell>& cells, const std::vector<CanaryRow>& rows,
                 const CanarySpec& spec, const fs::path& run_dir) {
  fs::create_directories(run_dir);
  json list = json::array();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const CanaryPackage& package = rows[cells[i].row].package;
    fs::path written = run_dir / fmt::format("cell-{}.json", i);
    fs::remove(written);  // a result left by an earlier run must not stand in for this one
    list.push_back({{"package_dir", package.unpacked.string()},
                    {"modules", package.modules},
                    {"dependencies", package.dependencies.string()},
                    {"smoke", package.spec.smoke},
                    {"smoke_needs_gpu", package.spec.smoke_needs_gpu},
                    {"timeout_s", spec.timeout_s},
                    {"skip_folders", cells[i].skipped},
                    {"result", written.string()}});
  }
  write_file_atomically(run_dir / "cells.json", list.dump(1));
  auto limit = std::chrono::seconds(static_cast<long>(spec.timeout_s * static_cast<double>(cells.size()) + 180));
  std::vector<std::string> argv = fresh_environment_argv(release.python, project_root() / "matrix" / "canary_cells.py");
  argv.insert(argv.end(), {"--cells", (run_dir / "cells.json").string()});
  ProcessResult run = run_process({.argv = argv,
                                   .extra_env = {{"PYTHONDONTWRITEBYTECODE", "1"},
                                                 {"PYTHONUNBUFFERED", "1"},
                                                 {"LD_LIBRARY_PATH", ""},
                                                 {"LD_PRELOAD", ""}},
                                   .working_dir = run_dir,
                                   .timeout = limit});
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (auto text = read_and_keep(run_dir / fmt::format("cell-{}.json", i), cells[i].cache_file)) {
      cells[i].result = json::parse(*text);
    } else {
      cells[i].result = {{"stage", "crash"},
                         {"error", fmt::format("torch {}'s cell runner ended ({}) before this cell: {}",
                                               release.version.to_string(), run.describe(), run.tail(2))}};
    }
  }
}

}  // namespace

fs::path default_canary_cache_dir() { return user_cache_dir() / "canary"; }

CanaryResult run_canary(const CanarySpec& whole_spec, const ShimCatalog& catalog, const CanaryOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  CanarySpec spec = whole_spec;
  if (options.shard) {
    spec.packages.clear();
    for (std::size_t i = 0; i < whole_spec.packages.size(); ++i) {
      if (options.shard->keeps(i)) spec.packages.push_back(whole_spec.packages[i]);
    }
    if (spec.packages.empty()) {
      throw ToolError(fmt::format("--shard {}: the spec {} has only {} packages", options.shard->to_string(),
                                  whole_spec.path.string(), whole_spec.packages.size()));
    }
  }
  CanaryResult result{.spec = spec.path, .shard = options.shard};
  for (const auto& release : options.releases) result.releases.push_back(release.version);
  PreparedPackages prepared = prepare_canary_packages(spec, options.cache_dir);
  result.problems = prepared.problems;
  if (prepared.packages.empty()) {
    throw ToolError(fmt::format("{}: no package could be got ready: {}", spec.path.string(),
                                result.problems.empty() ? "none listed" : result.problems.front().problem));
  }
  const std::string runner_hash = ContentHash()
                                      .add_file(project_root() / "matrix" / "canary_cells.py", project_root())
                                      .add_file(project_root() / "matrix" / "forked_cells.py", project_root())
                                      .hex();
  // Per release, the cells to run; per row and release, the cached result of the others.
  std::vector<std::vector<PendingCell>> pending(options.releases.size());
  std::vector<std::vector<std::optional<json>>> cached(prepared.packages.size(),
                                                       std::vector<std::optional<json>>(options.releases.size()));
  for (auto& package : prepared.packages) {
    const std::size_t index = result.rows.size();
    CanaryRow row{.package = package, .audit = predict(package, catalog, options)};
    const std::map<std::string, TorchVersion> copy_folders = release_copy_folders(package.unpacked);
    for (std::size_t r = 0; r < options.releases.size(); ++r) {
      row.cells.push_back({.predicted = row.audit.predictions[r]});
      std::vector<std::string> skipped = copies_for_other_releases(copy_folders, options.releases[r].version);
      fs::path file = result_file(options, package, options.releases[r], runner_hash, skipped);
      if (!options.fresh && fs::exists(file)) cached[index][r] = json::parse(read_file_text(file));
      else pending[r].push_back({.row = index, .cache_file = file, .skipped = std::move(skipped)});
    }
    result.rows.push_back(std::move(row));
  }
  std::mutex progress_mutex;
  int done = 0;
  if (options.progress) {
    options.progress(
        0, static_cast<int>(options.releases.size()),
        fmt::format("starting: {} packages under {} releases", result.rows.size(), options.releases.size()));
  }
  parallel_for_each(options.releases.size(), options.jobs, [&](std::size_t r) {
    if (pending[r].empty()) return;
    run_release(options.releases[r], pending[r], result.rows, spec,
                options.cache_dir / "runs" / options.releases[r].version.to_full_string());
    std::lock_guard lock(progress_mutex);
    ++done;
    if (options.progress) {
      options.progress(done, static_cast<int>(options.releases.size()),
                       fmt::format("torch {}: {} cells", options.releases[r].version.to_string(), pending[r].size()));
    }
  });
  auto judge = [&](std::size_t row_index, std::size_t r, const json& raw, bool from_cache) {
    CanaryRow& row = result.rows[row_index];
    Observation observed =
        judge_cell_result(raw, options.releases[r].version, row.package.unpacked, row.audit.device_code);
    observed.cached = from_cache;
    for (const auto& missing : row.package.missing_dependencies) {
      observed.notes.push_back(fmt::format("a declared dependency pip could not install here: {}", missing));
    }
    (from_cache ? result.cells_cached : result.cells_run) += 1;
    result.gpu = result.gpu || raw.value("gpu", false);
    row.cells[r].observed = std::move(observed);
  };
  for (std::size_t r = 0; r < options.releases.size(); ++r) {
    for (const auto& cell : pending[r]) judge(cell.row, r, cell.result, false);
    for (std::size_t row = 0; row < result.rows.size(); ++row) {
      if (cached[row][r]) judge(row, r, *cached[row][r], true);
    }
  }
  for (auto& row : result.rows) {
    std::vector<Observation> observations;
    for (auto& cell : row.cells) observations.push_back(cell.observed);
    row.operator_reference = mark_missing_operators(observations, row.package.pinned_torch);
    for (std::size_t r = 0; r < row.cells.size(); ++r) row.cells[r].observed = std::move(observations[r]);
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace abicheck

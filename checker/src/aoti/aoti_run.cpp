#include "aoti/aoti_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "aoti/cpp_loader_cells.h"
#include "aoti/reference_extension.h"
#include "audit/pt2_package.h"
#include "core/atomic_file.h"
#include "core/build_cache.h"
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

fs::path compile_script() { return project_root() / "matrix" / "aoti_compile.py"; }
fs::path cells_script() { return project_root() / "matrix" / "aoti_cells.py"; }
fs::path models_dir() { return project_root() / "kernels" / "aoti"; }

// What a compile's or a cell's result depends on besides the release and the package: the script that
// produces it, the forking it shares with the others, and the reference models.
std::string script_hash(const fs::path& script) {
  return ContentHash()
      .add_file(script, project_root())
      .add_file(project_root() / "matrix" / "forked_cells.py", project_root())
      .add_file(models_dir() / "reference_models.py", project_root())
      .hex();
}

std::map<std::string, std::string> python_environment() {
  return {{"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONUNBUFFERED", "1"}};
}

// Compiles every reference model at `release` into its entry of the build cache, unless a complete
// earlier compile is there; returns the entry's folder, with `error` set where the compile process
// died. The cache's lock per key makes two runs that share the folder (a job and a test of another
// checkout) take turns: the later one finds the earlier one's packages instead of compiling them
// again into the same folder.
fs::path compile_release(const StoredRelease& release, const AotiOptions& options, const std::string& script_key,
                         const fs::path& setuptools, const ReferenceExtension& extension, bool& cached,
                         std::string& error) {
  // Keyed by everything the packages come from (the compile script and the models among them), so
  // that a cache shared by several checkouts never hands out packages compiled from other models.
  const std::string key =
      fmt::format("{}-{}", release.version.to_full_string(),
                  ContentHash().add(script_key).add(release_cache_identity(release)).add(extension.key).hex());
  std::map<std::string, std::string> environment = python_environment();
  // Inductor's own caches per release: two releases never share generated code; one compile thread
  // a release, since releases compile side by side.
  environment.emplace("TORCHINDUCTOR_CACHE_DIR",
                      (options.cache_dir / "inductor" / release.version.to_full_string()).string());
  environment.emplace("TORCHINDUCTOR_COMPILE_THREADS", "1");
  if (!setuptools.empty()) environment.emplace("TORCH_ABI_CHECK_SETUPTOOLS_DIR", setuptools.string());
  CachedBuild entry = BuildCache(options.cache_dir / "compiled").build(key, options.fresh, [&](const fs::path& dir) {
    ProcessResult run =
        run_process({.argv = {release.python.string(), compile_script().string(), "--out", dir.string(), "--models-dir",
                              models_dir().string(), "--extension", extension.library.string()},
                     .extra_env = environment,
                     .working_dir = dir,
                     .timeout = std::chrono::minutes(30)});
    BuildOutcome outcome{.log = run.output};
    // A compile that listed its models is complete (a model that failed says so in its own
    // status); one that died before is not kept, and the next run tries again.
    outcome.manifest.built = fs::exists(dir / "manifest.json");
    outcome.manifest.detail = outcome.manifest.built ? "compiled" : run.describe();
    outcome.manifest.first_error = outcome.manifest.built ? "" : run.tail(3);
    outcome.cacheable = outcome.manifest.built;
    return outcome;
  });
  cached = entry.cached;
  if (!entry.manifest.built) {
    error = fmt::format("the compile process ended ({}) before it listed its models: {}", entry.manifest.detail,
                        entry.manifest.first_error);
  }
  return entry.directory;
}

// The audit's view of a package: its shims, and per release whether all its objects load.
void audit_package(AotiPackage& package, const ShimCatalog& catalog, const AotiOptions& options) {
  AuditReport report = audit_paths({package.file}, catalog, AuditOptions{.releases = options.releases});
  for (const auto& pt2 : report.pt2_packages) {
    package.audit_problems = pt2.contents.problems;
    package.min_torch = pt2.min_torch_to_load;
  }
  for (const auto& failure : report.failures) package.audit_problems.push_back(failure.problem);
  package.predicted_loads.assign(options.releases.size(), !report.binaries.empty());
  package.predicted_why.assign(options.releases.size(), "");
  for (const auto& object : report.binaries) {
    for (const auto& shim : object.shims) package.shims.insert(shim.name);
    for (std::size_t r = 0; r < object.loads.size() && r < options.releases.size(); ++r) {
      const ReleaseLoad& load = object.loads[r];
      if (load.loads()) continue;
      package.predicted_loads[r] = false;
      if (package.predicted_why[r].empty()) {
        package.predicted_why[r] =
            load.torch_misfits.empty() ? "its device runtime does not fit" : load.torch_misfits.front();
      }
    }
  }
}

struct PendingCell {
  std::size_t cell;
  fs::path cache_file;
  json result;
};

// Runs one release's uncached cells in one process of its Python (aoti_cells.py forks per cell).
void run_release_cells(const StoredRelease& release, std::vector<PendingCell>& pending, const AotiResult& result,
                       const AotiOptions& options, const fs::path& setuptools) {
  const fs::path run_dir = options.cache_dir / "runs" / release.version.to_full_string();
  fs::create_directories(run_dir);
  json list = json::array();
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const AotiPackage& package = result.packages[result.cells[pending[i].cell].package];
    fs::path written = run_dir / fmt::format("cell-{}.json", i);
    fs::remove(written);
    list.push_back({{"package", package.file.string()},
                    {"reference", package.reference.string()},
                    {"model", package.model},
                    {"models_dir", models_dir().string()},
                    {"extension", package.extension.string()},
                    {"timeout_s", options.cell_timeout_s},
                    {"result", written.string()}});
  }
  write_file_atomically(run_dir / "cells.json", list.dump(1));
  auto limit =
      std::chrono::seconds(static_cast<long>(options.cell_timeout_s * static_cast<double>(pending.size()) + 180));
  std::map<std::string, std::string> environment = python_environment();
  if (!setuptools.empty()) environment.emplace("TORCH_ABI_CHECK_SETUPTOOLS_DIR", setuptools.string());
  environment.merge(vector_isa_trust_environment());
  ProcessResult run = run_process(
      {.argv = {release.python.string(), cells_script().string(), "--cells", (run_dir / "cells.json").string()},
       .extra_env = environment,
       .working_dir = run_dir,
       .timeout = limit});
  // A cell without a result never ran: the runner died before it. It is not cached.
  const json runner_ended = {{"stage", "crash"},
                             {"error", fmt::format("torch {}'s cell runner ended ({}) before this cell: {}",
                                                   release.version.to_full_string(), run.describe(), run.tail(2))}};
  for (std::size_t i = 0; i < pending.size(); ++i) {
    auto text = read_and_keep(run_dir / fmt::format("cell-{}.json", i), pending[i].cache_file);
    pending[i].result = text ? json::parse(*text) : runner_ended;
  }
}

// Runs one release's uncached C++ loader cells, each in a fresh process of the runner built against it.
void run_cpp_release_cells(const StoredRelease& release, const CppRunner& runner, std::vector<PendingCell>& pending,
                           const AotiResult& result, const AotiOptions& options) {
  const fs::path run_dir = options.cache_dir / "cpp-runs" / release.version.to_full_string();
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (runner.binary.empty()) {
      // Not the package's doing, and not cached: the next run builds the runner again.
      pending[i].result = {{"stage", "crash"}, {"error", runner.problem}};
      continue;
    }
    const AotiPackage& package = result.packages[result.cells[pending[i].cell].package];
    pending[i].result = run_cpp_cell(
        runner, release, {.package = package.file, .cpp_io = package.cpp_io, .extension = package.extension},
        run_dir / fmt::format("cell-{}", i), std::chrono::seconds(static_cast<long>(options.cell_timeout_s)));
    write_file_atomically(pending[i].cache_file, pending[i].result.dump(1));
  }
}

const std::vector<StoredRelease>& compiled_releases(const AotiOptions& options) {
  return options.build_releases.empty() ? options.releases : options.build_releases;
}

// One release's compile of the reference models: the folder of its packages, and the reference
// extension the models that call a custom operator load.
struct ReleaseCompile {
  fs::path dir;
  bool cached = false;
  std::string error;
  ReferenceExtension extension;
};

ReleaseCompile compile_reference_models(const StoredRelease& release, const AotiOptions& options,
                                        const std::string& script_key, const fs::path& setuptools) {
  ReleaseCompile compile;
  compile.extension = build_reference_extension(release, options.cache_dir, options.fresh);
  compile.dir =
      compile_release(release, options, script_key, setuptools, compile.extension, compile.cached, compile.error);
  return compile;
}

// The packages the compiles made, as their manifests list them.
std::vector<AotiPackage> reference_packages(const std::vector<StoredRelease>& builds,
                                            const std::vector<ReleaseCompile>& compiles, AotiResult& result) {
  std::vector<AotiPackage> packages;
  for (std::size_t r = 0; r < builds.size(); ++r) {
    const ReleaseCompile& compile = compiles[r];
    (compile.cached ? result.compiles_cached : result.compiles_run) += 1;
    if (!compile.error.empty()) {
      packages.push_back(
          {.model = "(every reference model)", .build = builds[r].version, .compile_error = compile.error});
      continue;
    }
    json manifest = json::parse(read_file_text(compile.dir / "manifest.json"));
    for (const auto& name : manifest["models"]) {
      const std::string model = name.get<std::string>();
      AotiPackage package{.model = model, .build = builds[r].version, .compile_cached = compile.cached};
      json status = json::parse(read_file_text(compile.dir / (model + ".compile.json")));
      package.compile_seconds = status.value("seconds", 0.0);
      package.compile_cpu_seconds = status.value("cpu_seconds", 0.0);
      if (status.value("ok", false)) {
        package.file = compile.dir / (model + ".pt2");
        package.reference = compile.dir / (model + ".reference.pt");
        if (status.value("extension", false)) package.extension = compile.extension.library;
        if (fs::exists(compile.dir / (model + ".cpp_io.pt"))) package.cpp_io = compile.dir / (model + ".cpp_io.pt");
      } else {
        package.compile_error = status.value("error", std::string("the compile failed"));
      }
      packages.push_back(std::move(package));
    }
  }
  return packages;
}

}  // namespace

fs::path setuptools_only_dir(const fs::path& cache_dir) {
  fs::path dir = cache_dir / "setuptools-only";
  if (fs::exists(dir / "setuptools")) return dir;
  ProcessResult where = run_process(
      {.argv = {host_python(), "-c", "import os, setuptools; print(os.path.dirname(setuptools.__path__[0]))"}});
  if (!where.succeeded()) return {};
  const fs::path site = where.tail(1);
  fs::create_directories(dir);
  for (const char* name : {"pkg_resources", "_distutils_hack", "setuptools"}) {
    std::error_code error;
    if (fs::exists(site / name)) fs::create_directory_symlink(site / name, dir / name, error);
  }
  return fs::exists(dir / "setuptools") ? dir : fs::path();
}

std::set<std::string> AotiResult::shims_reached() const {
  std::set<std::string> shims;
  for (const auto& package : packages) shims.insert(package.shims.begin(), package.shims.end());
  return shims;
}

std::map<std::string, std::string> vector_isa_trust_environment() { return {{"TORCHINDUCTOR_VEC_ISA_OK", "1"}}; }

fs::path default_aoti_cache_dir() { return user_cache_dir() / "aoti"; }

AotiResult run_aoti(const ShimCatalog& catalog, const AotiOptions& given) {
  const auto started = std::chrono::steady_clock::now();
  // The scripts run in folders of the cache: every path handed to them is absolute.
  AotiOptions options = given;
  options.cache_dir = fs::absolute(given.cache_dir);
  // A package no loader could load is bad input, said at once (no runner is built, no release started).
  for (const auto& file : options.packages) require_loadable_pt2(file);
  if (options.releases.empty()) throw ToolError("no torch release in the store: `torch-abi-check store install`");
  AotiResult result;
  for (const auto& release : options.releases) result.releases.push_back(release.version);
  const fs::path setuptools = setuptools_only_dir(options.cache_dir);
  const std::string runner = ContentHash().add(TORCH_ABI_CHECK_VERSION).add(script_hash(cells_script())).hex();
  const std::size_t compiles = options.packages.empty() ? compiled_releases(options).size() : 0;
  const int total = static_cast<int>(compiles + options.releases.size());
  int done = 0;
  std::mutex progress_mutex;
  auto step = [&](const std::string& line) {
    std::lock_guard lock(progress_mutex);
    if (options.progress) options.progress(++done, total, line);
  };
  if (options.progress) {
    options.progress(0, total,
                     fmt::format("starting: {} compiles, loads under {} releases", compiles, options.releases.size()));
  }
  // The C++ runners a run needs for certain (every release that loads a reference package) are built
  // beside the compiles, in one pool: a runner is a few seconds of one core, and the last compiles
  // leave the other core idle. The rest are built when their cells run.
  std::vector<std::optional<CppRunner>> runners(options.releases.size());
  if (options.packages.empty()) {
    const std::vector<StoredRelease>& builds = compiled_releases(options);
    std::vector<std::size_t> runners_beside;
    for (std::size_t r = 0; r < options.releases.size() && options.cpp_loader; ++r) {
      const bool loads_one = std::any_of(builds.begin(), builds.end(), [&](const StoredRelease& build) {
        return options.releases[r].version >= build.version;
      });
      if (loads_one) runners_beside.push_back(r);
    }
    // What the packages come from besides the release and the extension: the same for every release.
    const std::string script_key = script_hash(compile_script());
    std::vector<ReleaseCompile> compiled(builds.size());
    parallel_for_each(builds.size() + runners_beside.size(), options.jobs, [&](std::size_t i) {
      if (i >= builds.size()) {
        const std::size_t r = runners_beside[i - builds.size()];
        runners[r] = build_cpp_runner(options.releases[r], options.cache_dir, options.fresh);
        return;
      }
      compiled[i] = compile_reference_models(builds[i], options, script_key, setuptools);
      step(fmt::format("torch {}: reference models {}", builds[i].version.to_full_string(),
                       compiled[i].cached ? "compiled earlier" : "compiled"));
    });
    result.packages = reference_packages(builds, compiled, result);
  } else {
    for (const auto& file : options.packages) {
      result.packages.push_back({.model = file.filename().string(), .file = fs::absolute(file)});
    }
  }
  std::vector<std::vector<PendingCell>> pending(options.releases.size());
  std::vector<std::vector<PendingCell>> cpp_pending(options.releases.size());
  std::vector<std::optional<json>> cached;
  for (std::size_t p = 0; p < result.packages.size(); ++p) {
    AotiPackage& package = result.packages[p];
    if (package.file.empty()) continue;
    audit_package(package, catalog, options);
    ContentHash package_key;
    package_key.add(runner).add_file(package.file, package.file.parent_path()).add(package.model);
    if (!package.reference.empty()) package_key.add_file(package.reference, package.reference.parent_path());
    if (!package.extension.empty()) package_key.add_file(package.extension, package.extension.parent_path());
    const std::string key = package_key.hex();
    std::vector<AotiLoader> loaders = {AotiLoader::Python};
    // A reference package is run by the C++ loader on what its compile saved; a user's package, which
    // holds no inputs, is loaded only (a cell `loaded`, never `matches`).
    if (options.cpp_loader && (!package.cpp_io.empty() || !package.build)) loaders.push_back(AotiLoader::Cpp);
    for (const AotiLoader loader : loaders) {
      for (std::size_t r = 0; r < options.releases.size(); ++r) {
        AotiCell cell{.package = p, .runtime = r, .loader = loader};
        const TorchVersion& runtime = options.releases[r].version;
        if (package.build) cell.ran = runtime >= *package.build;
        else cell.ran = !options.from_minimum || !package.min_torch || runtime.minor_release() >= *package.min_torch;
        const std::size_t index = result.cells.size();
        result.cells.push_back(cell);
        cached.emplace_back();
        if (!cell.ran) continue;
        ContentHash cell_key;
        cell_key.add(key).add(release_cache_identity(options.releases[r]));
        if (loader == AotiLoader::Cpp) {
          cell_key.add("cpp-loader").add(cpp_runner_key(options.releases[r]));
          if (!package.cpp_io.empty()) cell_key.add_file(package.cpp_io, package.cpp_io.parent_path());
        }
        fs::path file = options.cache_dir / "results" / (cell_key.hex() + ".json");
        if (!options.fresh && fs::exists(file)) cached[index] = json::parse(read_file_text(file));
        else (loader == AotiLoader::Cpp ? cpp_pending : pending)[r].push_back({.cell = index, .cache_file = file});
      }
    }
  }
  parallel_for_each(options.releases.size(), options.jobs, [&](std::size_t r) {
    if (!pending[r].empty()) run_release_cells(options.releases[r], pending[r], result, options, setuptools);
    if (!cpp_pending[r].empty()) {
      if (!runners[r]) runners[r] = build_cpp_runner(options.releases[r], options.cache_dir, options.fresh);
      run_cpp_release_cells(options.releases[r], *runners[r], cpp_pending[r], result, options);
    }
    step(fmt::format("torch {}: {} cells loaded", options.releases[r].version.to_full_string(),
                     pending[r].size() + cpp_pending[r].size()));
  });
  for (std::size_t r = 0; r < options.releases.size(); ++r) {
    for (const auto* list : {&pending[r], &cpp_pending[r]}) {
      for (const auto& cell : *list) {
        AotiCell& judged = result.cells[cell.cell];
        judged.observed = judge_aoti_cell(cell.result, options.releases[r].version, judged.loader);
        ++result.cells_run;
      }
    }
  }
  for (std::size_t index = 0; index < result.cells.size(); ++index) {
    if (!cached[index]) continue;
    AotiCell& cell = result.cells[index];
    cell.observed = judge_aoti_cell(*cached[index], options.releases[cell.runtime].version, cell.loader);
    cell.observed.cached = true;
    ++result.cells_cached;
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace abicheck

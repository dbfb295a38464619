#include "matrix/kernel_build.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Changing how libraries are built must invalidate every cached build: the keys hash this file's
// own content (TORCH_ABI_CHECK_RECIPE, set by checker_builder_recipe in CMake) besides the name.
constexpr std::string_view kBuildRecipe = "unity-tu/link-libtorch/v1";
constexpr std::string_view kLibraryName = "libabiref_matrix.so";
constexpr std::string_view kDeviceObjectRecipe = "device-object/v1";
constexpr std::string_view kDeviceObjectName = "device.o";
// Ends the detail of a build that timed out or was killed: it says nothing about its inputs.
constexpr std::string_view kNotCached = " (not cached)";

std::optional<std::string> find_tool(const std::string& name, const std::string& environment_override,
                                     const std::vector<std::string>& fallbacks) {
  if (const char* value = std::getenv(environment_override.c_str()); value != nullptr && *value != '\0') return value;
  if (const char* path = std::getenv("PATH")) {
    if (auto found = find_executable(name, path)) return found->string();
  }
  for (const auto& fallback : fallbacks) {
    if (access(fallback.c_str(), X_OK) == 0) return fallback;
  }
  return std::nullopt;
}

std::optional<std::string> device_compiler(Backend backend) {
  if (backend == Backend::Cuda) return find_tool("nvcc", "TORCH_ABI_CHECK_NVCC", {"/usr/local/cuda/bin/nvcc"});
  if (backend == Backend::Rocm) return find_tool("hipcc", "TORCH_ABI_CHECK_HIPCC", {"/opt/rocm/bin/hipcc"});
  return std::nullopt;
}

// The CUDA toolkit's lib directory, from nvcc's own location.
fs::path cuda_library_dir(const std::string& nvcc) {
  return fs::weakly_canonical(fs::path(nvcc)).parent_path().parent_path() / "lib64";
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line = "$";
  for (const auto& argument : argv) line += " " + argument;
  return line;
}

std::vector<std::string> device_object_command(Backend backend, const std::string& compiler, const MatrixSpec& spec,
                                               const fs::path& include_dir, const fs::path& source,
                                               const fs::path& object) {
  std::vector<std::string> argv = {compiler, "-c", "-O2", "-std=c++17"};
  if (backend == Backend::Cuda) {
    argv.insert(argv.end(), {"-Xcompiler", "-fPIC"});
    for (const auto& arch : spec.cuda_arches) {
      std::string number = arch.substr(arch.find('_') + 1);
      argv.push_back(fmt::format("-gencode=arch=compute_{0},code=sm_{0}", number));
    }
  } else {
    argv.push_back("-fPIC");
    for (const auto& arch : spec.rocm_arches) argv.push_back("--offload-arch=" + arch);
    argv.insert(argv.end(), {"-x", "hip"});
  }
  argv.insert(argv.end(), {"-I" + include_dir.string(), source.string(), "-o", object.string()});
  return argv;
}

}  // namespace

std::string host_compiler() { return find_tool("g++", "TORCH_ABI_CHECK_CXX", {}).value_or("g++"); }

std::vector<fs::path> group_sources(const fs::path& sources, const std::string& kind, TorchVersion target,
                                    const std::string& extension) {
  static const std::regex group_name(R"(v(\d+)_(\d+))");
  std::vector<std::pair<TorchVersion, fs::path>> files;
  fs::path root = sources / kind;
  if (!fs::is_directory(root)) return {};
  for (const auto& group : fs::directory_iterator(root)) {
    std::smatch match;
    std::string name = group.path().filename().string();
    if (!group.is_directory() || !std::regex_match(name, match, group_name)) continue;
    TorchVersion version{std::stoi(match[1]), std::stoi(match[2]), 0};
    if (version > target.minor_release()) continue;
    for (const auto& file : fs::directory_iterator(group.path())) {
      if (file.path().extension() == extension) files.emplace_back(version, file.path());
    }
  }
  std::ranges::sort(files);
  std::vector<fs::path> result;
  for (auto& [version, file] : files) result.push_back(file);
  return result;
}

KernelBuilder::KernelBuilder(const fs::path& cache_dir, const MatrixSpec& spec, bool fresh)
    : cache_(cache_dir / "builds"), device_objects_(cache_dir / "device-objects"), spec_(spec), fresh_(fresh) {}

CachedBuild KernelBuilder::device_object(const BuildRequest& request, const std::string& compiler,
                                         const fs::path& source) const {
  const fs::path include_dir = request.suite->sources / "include";
  // The command without the paths that differ between runs: the compiler, its flags and arches.
  std::vector<std::string> argv =
      device_object_command(request.backend, compiler, spec_, include_dir, source, kDeviceObjectName);
  ContentHash hash;
  hash.add(kDeviceObjectRecipe).add(TORCH_ABI_CHECK_RECIPE);
  for (const auto& argument : argv) {
    if (argument != source.string() && argument != "-I" + include_dir.string()) hash.add(argument);
  }
  hash.add_file(source, source.parent_path());
  if (fs::is_directory(include_dir)) hash.add_tree(include_dir);
  const std::string key = hash.hex();
  bool fresh = false;
  if (fresh_) {
    std::lock_guard lock(fresh_device_objects_mutex_);
    fresh = fresh_device_objects_.insert(key).second;
  }
  return device_objects_.build(key, fresh, [&](const fs::path& work_dir) {
    BuildOutcome outcome;
    ProcessResult result = run_process({.argv = argv,
                                        .working_dir = work_dir,
                                        .timeout = std::chrono::seconds(spec_.build_timeout_s),
                                        .memory_limit_bytes = spec_.build_memory_mb << 20});
    outcome.log = shell_line(argv) + "\n" + result.output;
    outcome.manifest.seconds = result.duration.count();
    outcome.manifest.built = result.succeeded();
    outcome.manifest.detail = result.succeeded() ? "built" : result.describe();
    if (result.succeeded()) outcome.manifest.outputs = {std::string(kDeviceObjectName)};
    if (result.timed_out || result.term_signal) {
      outcome.manifest.detail += std::string(kNotCached);
      outcome.cacheable = false;
    }
    return outcome;
  });
}

std::vector<std::string> KernelBuilder::compile_flags(const BuildRequest& request) const {
  const auto& release = request.build_release;
  std::vector<std::string> flags = {"-std=c++17", "-O2", "-fPIC", "-shared", "-D_GLIBCXX_USE_CXX11_ABI=1"};
  // 2.9's headers predate TORCH_TARGET_VERSION (their TORCH_ABI_VERSION is not even usable in #if):
  // a 2.9 target built with 2.9 headers is simply those headers' whole surface.
  bool headers_know_targets = release.version.minor_release() >= TorchVersion{2, 10, 0};
  if (request.suite->api == ExtensionApi::Stable && (headers_know_targets || request.target > release.version)) {
    flags.push_back("-DTORCH_TARGET_VERSION=" + request.target.minor_release().to_abi_hex());
    flags.push_back("-DTORCH_STABLE_ONLY");
  }
  if (request.backend != Backend::Cpu) flags.push_back("-DUSE_CUDA");
  flags.push_back("-I" + (request.suite->sources / "include").string());
  // The reference kernels' helpers (abiref/*.h) are there for every suite, fixtures included.
  flags.push_back("-I" + (project_root() / "kernels" / "include").string());
  flags.push_back("-I" + release.include_dir.string());
  if (request.suite->api == ExtensionApi::Unstable) {
    flags.push_back("-I" + (release.include_dir / "torch" / "csrc" / "api" / "include").string());
  }
  return flags;
}

std::string KernelBuilder::key(const BuildRequest& request) const {
  ContentHash hash;
  hash.add(kBuildRecipe).add(TORCH_ABI_CHECK_RECIPE).add(backend_name(request.backend));
  hash.add(request.build_release.version.to_full_string());
  hash.add(request.build_release.include_dir.string()).add(request.target.to_string());
  hash.add(request.suite->api == ExtensionApi::Stable ? "stable" : "unstable");
  // The suite's folder and the checkout are hashed by name (their content is hashed below), so a
  // clone in another folder (CI's) reuses the builds of an identical tree.
  const std::string suite_dir = request.suite->sources.string();
  const std::string checkout = project_root().string();
  for (std::string flag : compile_flags(request)) {
    for (const auto& [path, name] : {std::pair{suite_dir, "@SUITE@"}, std::pair{checkout, "@ROOT@"}}) {
      if (const auto at = flag.find(path); at != std::string::npos) flag.replace(at, path.size(), name);
    }
    hash.add(flag);
  }
  if (request.backend == Backend::Cuda) {
    for (const auto& arch : spec_.cuda_arches) hash.add(arch);
  }
  if (request.backend == Backend::Rocm) {
    for (const auto& arch : spec_.rocm_arches) hash.add(arch);
  }
  // What the build reads of the suite, its kernel groups and include/: a change to its tests or to
  // anything else kept beside them (the AOTInductor models in kernels/aoti) rebuilds nothing.
  for (const char* folder : {"cpu", "gpu", "cuda", "rocm", "include"}) {
    hash.add(folder);
    if (fs::is_directory(request.suite->sources / folder)) hash.add_tree(request.suite->sources / folder);
  }
  hash.add_tree(project_root() / "kernels" / "include");
  return hash.hex();
}

BuildRecord KernelBuilder::build(const BuildRequest& request) const {
  BuildRecord record;
  record.key = key(request);
  bool compiler_missing = false;
  CachedBuild entry = cache_.build(
      record.key, fresh_, [&](const fs::path& work_dir) { return build_into(request, work_dir, compiler_missing); });
  record.cached = entry.cached;
  record.log = std::move(entry.log);
  record.seconds = entry.manifest.seconds;
  if (entry.manifest.built) {
    record.status = {BuildStatus::Kind::Built, entry.manifest.detail};
    record.library = entry.directory / kLibraryName;
  } else {
    record.status = {compiler_missing ? BuildStatus::Kind::Unavailable : BuildStatus::Kind::Failed,
                     entry.manifest.detail};
  }
  return record;
}

BuildOutcome KernelBuilder::build_into(const BuildRequest& request, const fs::path& work_dir,
                                       bool& compiler_missing) const {
  BuildOutcome outcome;
  std::optional<std::string> gpu_compiler;
  if (request.backend != Backend::Cpu) {
    gpu_compiler = device_compiler(request.backend);
    if (!gpu_compiler) {
      compiler_missing = true;
      outcome.manifest.detail = request.backend == Backend::Cuda ? "nvcc not found" : "hipcc not found";
      outcome.cacheable = false;
      return outcome;
    }
  }

  const TorchVersion target = request.suite->api == ExtensionApi::Stable ? request.target : TorchVersion{99, 0, 0};
  std::vector<fs::path> host_sources = group_sources(request.suite->sources, "cpu", target, ".cpp");
  if (request.backend != Backend::Cpu) {
    auto glue = group_sources(request.suite->sources, "gpu", target, ".cpp");
    host_sources.insert(host_sources.end(), glue.begin(), glue.end());
  }
  // One translation unit per library: 2.9's stable tensor header defines Tensor::scalar_type()
  // out of line, so two sources that include it would not link.
  std::string unity;
  for (const auto& source : host_sources) unity += fmt::format("#include \"{}\"\n", source.string());
  write_file_atomically(work_dir / "unity.cpp", unity);

  const auto timeout = std::chrono::seconds(spec_.build_timeout_s);
  const std::size_t memory = spec_.build_memory_mb << 20;
  BuildManifest& manifest = outcome.manifest;
  manifest.built = true;
  auto run_step = [&](const std::vector<std::string>& argv) {
    ProcessResult result =
        run_process({.argv = argv, .working_dir = work_dir, .timeout = timeout, .memory_limit_bytes = memory});
    outcome.log += shell_line(argv) + "\n" + result.output;
    manifest.seconds += result.duration.count();
    if (!result.succeeded()) {
      manifest.built = false;
      manifest.detail = result.describe();
      if (result.timed_out || result.term_signal) {
        manifest.detail += std::string(kNotCached);
        outcome.cacheable = false;
      }
    }
  };

  std::vector<std::string> objects;
  if (gpu_compiler) {
    const std::string kind = request.backend == Backend::Cuda ? "cuda" : "rocm";
    const std::string extension = request.backend == Backend::Cuda ? ".cu" : ".hip";
    for (const auto& source : group_sources(request.suite->sources, kind, target, extension)) {
      CachedBuild object = device_object(request, *gpu_compiler, source);
      outcome.log += fmt::format("# device object of {}{}\n{}", source.filename().string(),
                                 object.cached ? fmt::format(" (compiled earlier: {})", object.directory.string()) : "",
                                 object.cached ? "" : object.log);
      if (!object.manifest.built) {
        manifest.built = false;
        manifest.detail = fmt::format("{}: {}", source.filename().string(), object.manifest.detail);
        // A device compile that timed out or was killed left no entry: neither may this build.
        if (object.manifest.detail.ends_with(kNotCached)) outcome.cacheable = false;
        break;
      }
      if (!object.cached) manifest.seconds += object.manifest.seconds;
      objects.push_back((object.directory / kDeviceObjectName).string());
    }
  }

  if (manifest.built) {
    std::vector<std::string> argv = {host_compiler()};
    auto flags = compile_flags(request);
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("unity.cpp");
    argv.insert(argv.end(), objects.begin(), objects.end());
    argv.insert(argv.end(),
                {"-o", std::string(kLibraryName), "-L" + request.build_release.lib_dir.string(), "-ltorch_cpu"});
    // The loader resolves the shims against the libtorch already in the runtime process (same
    // soname); without a NEEDED entry they would stay unresolved, since torch loads its libraries
    // RTLD_LOCAL.
    if (request.suite->api == ExtensionApi::Unstable) argv.push_back("-lc10");
    if (request.backend == Backend::Cuda) {
      argv.insert(argv.end(), {"-ltorch_cuda", "-L" + cuda_library_dir(*gpu_compiler).string(), "-lcudart_static",
                               "-ldl", "-lrt", "-lpthread"});
    }
    if (request.backend == Backend::Rocm) argv.push_back("-lamdhip64");
    run_step(argv);
  }
  if (manifest.built) {
    manifest.detail = "built";
    manifest.outputs = {std::string(kLibraryName)};
  }
  return outcome;
}

}  // namespace abicheck

#include "baseline/release_baseline.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "baseline/abi_probe.h"
#include "baseline/behaviour_probe.h"
#include "core/atomic_file.h"
#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {

ShimExports load_exports_file(const std::filesystem::path& path) {
  try {
    auto document = nlohmann::json::parse(read_file_text(path));
    ShimExports exports;
    for (const auto& [library, names] : document.at("libraries").items()) {
      exports.by_library[library] = names.get<std::vector<std::string>>();
    }
    return exports;
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not a valid exports file: {}", path.string(), error.what()));
  }
}

std::string_view exporting_library(std::string_view backend) {
  if (backend.empty() || backend == kUntargetedOnly) return "libtorch_cpu.so";
  if (backend == "USE_CUDA") return "libtorch_cuda.so";
  return {};
}

std::vector<FidelityProblem> check_fidelity(const ShimInventory& inventory,
                                            const std::vector<std::string>& model_functions,
                                            const ShimExports& exports) {
  std::vector<FidelityProblem> problems;
  for (const auto& declaration : inventory.declarations) {
    if (declaration.kind != DeclarationKind::Function) continue;
    if (!std::ranges::binary_search(model_functions, declaration.name)) {
      problems.push_back({declaration.name, "missing from the ABI model (lost type information)"});
    }
    std::string library(exporting_library(declaration.backend));
    if (library.empty() || !exports.by_library.contains(library)) continue;
    // Exported by another shim library is as good: the dynamic linker finds it there.
    if (exports.library_of(declaration.name).empty()) {
      problems.push_back(
          {declaration.name, fmt::format("declared in {} but not exported by {}", declaration.header, library)});
    }
  }
  return problems;
}

BaselineBuild build_baseline(const std::filesystem::path& include_dir,
                             const std::optional<std::filesystem::path>& lib_dir, const InventoryOptions& options) {
  BaselineBuild build;
  build.baseline.inventory = collect_inventory(include_dir, options);
  // Headers that do not compile without a target (accepted by options) leave no probe to build:
  // the baseline has no ABI model then, and its compile failures say why.
  if (std::ranges::any_of(build.baseline.inventory.compile_failures,
                          [](const HeaderCompileFailure& failure) { return !failure.target; })) {
    if (lib_dir) build.baseline.exports = read_shim_exports(*lib_dir);
    return build;
  }
  AbiModel model;
  try {
    model = build_abi_model(include_dir, build.baseline.inventory);
  } catch (const ToolError& error) {
    if (!options.untargeted_errors_as_notes) throw;
    // The parses compile inline bodies with libclang; the ABI model's compile is the C++ compiler's
    // (every backend define, no target), which may refuse what libclang accepted: a compile failure
    // of the headers like the parses' own, and no ABI model.
    build.baseline.inventory.compile_failures.push_back(
        {std::nullopt, std::string(kCompilerConfiguration), first_compiler_error(error.what(), include_dir)});
    sort_compile_failures(build.baseline.inventory.compile_failures);
    if (lib_dir) build.baseline.exports = read_shim_exports(*lib_dir);
    return build;
  }
  build.baseline.abixml = std::move(model.abixml);
  if (lib_dir) build.baseline.exports = read_shim_exports(*lib_dir);
  build.problems = check_fidelity(build.baseline.inventory, model.functions, build.baseline.exports);
  return build;
}

std::string exports_to_json(const ShimExports& exports, const TorchVersion& release) {
  nlohmann::ordered_json libraries = nlohmann::ordered_json::object();
  for (const auto& [library, names] : exports.by_library) libraries[library] = names;
  nlohmann::ordered_json document = {{"release", release.to_string()}, {"libraries", libraries}};
  return document.dump(1) + "\n";
}

void write_baseline(const ReleaseBaseline& baseline, const std::filesystem::path& directory) {
  std::filesystem::create_directories(directory);
  write_file_atomically(directory / kInventoryFile, inventory_to_json(baseline.inventory));
  write_file_atomically(directory / kAbiModelFile, gzip_compress(baseline.abixml));
  write_file_atomically(directory / kExportsFile, exports_to_json(baseline.exports, baseline.inventory.release));
  if (baseline.operators)
    write_file_atomically(directory / kOperatorsFile, operator_schemas_to_text(*baseline.operators));
  if (baseline.behaviour) write_file_atomically(directory / kBehaviourFile, behaviour_to_json(*baseline.behaviour));
}

std::optional<BehaviourBaseline> release_behaviour(const std::filesystem::path& include_dir,
                                                   const std::optional<std::filesystem::path>& lib_dir,
                                                   const ShimInventory& inventory) {
  if (!lib_dir) return std::nullopt;
  return probe_behaviour(include_dir, *lib_dir, inventory);
}

std::optional<OperatorSchemas> release_operator_schemas(const std::optional<std::filesystem::path>& python,
                                                        const std::optional<std::filesystem::path>& lib_dir) {
  if (!python || !lib_dir) return std::nullopt;
  return dump_operator_schemas(*python, *lib_dir);
}

ReleaseBaseline load_baseline(const std::filesystem::path& directory) {
  if (!std::filesystem::is_directory(directory))
    throw ToolError(fmt::format("{}: not a baseline directory", directory.string()));
  ReleaseBaseline baseline;
  baseline.inventory = load_inventory(directory / kInventoryFile);
  std::filesystem::path model = directory / kAbiModelFile;
  baseline.abixml = gzip_decompress(read_file_text(model), model.string());
  if (baseline.abixml.find("<abi-corpus") == std::string::npos ||
      baseline.abixml.find("</abi-corpus>") == std::string::npos) {
    throw ToolError(fmt::format("{}: not an ABIXML corpus", model.string()));
  }
  baseline.exports = load_exports_file(directory / kExportsFile);
  if (std::filesystem::exists(directory / kOperatorsFile)) {
    baseline.operators = load_operator_schemas(directory / kOperatorsFile);
  }
  if (std::filesystem::exists(directory / kBehaviourFile))
    baseline.behaviour = load_behaviour(directory / kBehaviourFile);
  return baseline;
}

std::string gzip_compress(std::string_view data) {
  z_stream stream{};
  // windowBits 15 + 16: a gzip wrapper whose header has no name and a zero time.
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw ToolError("zlib: cannot start compressing");
  }
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw ToolError("zlib: compression did not finish");
  return out;
}

std::string gzip_decompress(std::string_view data, const std::string& origin) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) throw ToolError("zlib: cannot start decompressing");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buffer[1 << 16];
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) throw ToolError(fmt::format("{}: truncated or corrupt gzip data", origin));
  return out;
}

}  // namespace abicheck

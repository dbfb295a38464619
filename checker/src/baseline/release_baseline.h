#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "baseline/conversion_behaviour.h"
#include "baseline/library_exports.h"
#include "baseline/operator_schemas.h"
#include "inventory/inventory_collector.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// The files of one committed baseline, shim_decls/<release>/.
inline constexpr std::string_view kInventoryFile = "inventory.json";
inline constexpr std::string_view kAbiModelFile = "abi.xml.gz";  // gzip without name or time: byte-stable
inline constexpr std::string_view kExportsFile = "exports.json";

// Everything the diff needs about one release's stable surface.
struct ReleaseBaseline {
  ShimInventory inventory;
  std::string abixml;   // the ABI model (see abi_probe.h)
  ShimExports exports;  // empty for a header tree without libraries
  // The dispatcher's operators (operators.txt): only where the release has a Python to list them, so
  // never for a bare header tree.
  std::optional<OperatorSchemas> operators;
  // What the headers' inline conversions of the boxed calling convention do (behaviour.json): only where
  // the release has its libtorch to run them against, so never for a bare header tree.
  std::optional<BehaviourBaseline> behaviour;
};

// A reason the baseline cannot be trusted; the baseline is not written when there is one.
struct FidelityProblem {
  std::string name;     // the function
  std::string problem;  // "missing from the ABI model (lost type information)", "declared but not exported by ..."
};

// The library that must export a function of this backend: libtorch_cpu.so for "" (and for
// declarations hidden only from targeting builds), libtorch_cuda.so for USE_CUDA; "" when no Linux
// wheel ships the backend's library (USE_MPS, USE_XPU), so nothing can be checked.
std::string_view exporting_library(std::string_view backend);

// Declared functions must all be in the ABI model; and every function whose library is present
// must be exported by it: unconditional and USE_CUDA ones by libtorch_cpu.so / libtorch_cuda.so.
// Functions of backends whose library a Linux wheel does not ship (USE_MPS, USE_XPU) cannot be
// checked and are not reported.
std::vector<FidelityProblem> check_fidelity(const ShimInventory& inventory,
                                            const std::vector<std::string>& model_functions,
                                            const ShimExports& exports);

struct BaselineBuild {
  ReleaseBaseline baseline;
  std::vector<FidelityProblem> problems;
};

// From a release's headers, and its libraries' exports when it has them (none for a bare header tree).
// With options.untargeted_errors_as_notes, headers that do not compile without a target, or whose
// ABI model does not compile (an inline body the parses skip), give a baseline without an ABI model
// (abixml empty), the compiler's first error among the compile failures, instead of a ToolError.
BaselineBuild build_baseline(const std::filesystem::path& include_dir,
                             const std::optional<std::filesystem::path>& lib_dir, const InventoryOptions& options = {});

// The operator schemas of a release that can run Python (a store release, a torch package with its
// environment); nullopt for one that cannot (a header tree).
std::optional<OperatorSchemas> release_operator_schemas(const std::optional<std::filesystem::path>& python,
                                                        const std::optional<std::filesystem::path>& lib_dir);

// The behaviour baseline of a release whose libraries are torch's own (a store release, a torch package);
// nullopt for one without libraries (a header tree).
std::optional<BehaviourBaseline> release_behaviour(const std::filesystem::path& include_dir,
                                                   const std::optional<std::filesystem::path>& lib_dir,
                                                   const ShimInventory& inventory);

// Writes the files into `directory` (created if needed); each is replaced whole.
void write_baseline(const ReleaseBaseline& baseline, const std::filesystem::path& directory);
// Throws ToolError naming the file when one is missing, truncated or malformed.
ReleaseBaseline load_baseline(const std::filesystem::path& directory);

std::string exports_to_json(const ShimExports& exports, const TorchVersion& release);
// An exports file (exports.json, exports.<platform>.json). Throws ToolError naming the file when it is malformed.
ShimExports load_exports_file(const std::filesystem::path& path);

std::string gzip_compress(std::string_view data);
// Throws ToolError naming `origin` when the data is not a complete gzip stream.
std::string gzip_decompress(std::string_view data, const std::string& origin);

}  // namespace abicheck

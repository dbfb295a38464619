#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "baseline/conversion_behaviour.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// The conversions a release's stable headers specialise (`struct FromImpl<...>` and `struct ToImpl<...>`,
// found in the header text), by family: "generic" (the byte copy of small trivially copyable types),
// "ScalarType", "DeviceType", "Layout", "MemoryFormat", "Tag", "nullopt_t", "optional", "Tensor",
// "Generator", "HeaderOnlyArrayRef", "vector", "Device", "string".
struct ConversionSpecializations {
  std::set<std::string> from;
  std::set<std::string> to;
  bool in_detail_namespace = false;  // from/to are torch::stable::detail's (2.10 on), not only global ones (2.9)
};

ConversionSpecializations find_conversion_specializations(const std::filesystem::path& include_dir);

// The probe program: for every value of every type the headers convert (each primitive's edge values;
// each enumerator the inventory lists of the converted enums; optionals, lists, devices, strings, a
// tensor), it calls from, prints what the bits are or point at, calls to on them and prints what came
// back, one line per value.
std::string generate_behaviour_probe(const std::filesystem::path& include_dir, const ShimInventory& inventory);

// Builds the probe extension of ProbeExtensionSymbols with the release's headers at `target` and reads
// what it exports of torch's namespaces and imports of the shims. Throws ToolError when it does not build.
ProbeExtensionSymbols probe_extension_symbols(const std::filesystem::path& include_dir, TorchVersion target);

// Compiles the probe with the release's headers at its own newest TORCH_TARGET_VERSION, links it with
// the release's libtorch in lib_dir and runs it. Throws ToolError with the compiler's or the probe's
// last lines when either fails. The probe extension's symbols come with it.
BehaviourBaseline probe_behaviour(const std::filesystem::path& include_dir, const std::filesystem::path& lib_dir,
                                  const ShimInventory& inventory);

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

// The behaviour baseline of one release, shim_decls/<release>/behaviour.json: what the header-only
// code of the boxed calling convention (torch::stable::detail::from and to, compiled into every
// extension) does with each probed value, observed by running it against the release's own libtorch
// (behaviour_probe.h). Schema: docs/schemas/behaviour.schema.json; bump the version with its shape.
inline constexpr std::string_view kBehaviourFile = "behaviour.json";
inline constexpr int kBehaviourSchemaVersion = 2;

// What `from` and `to` did with one value of one type.
struct ConversionBehaviour {
  std::string type;   // as an extension spells it: "int8_t", "std::optional<int64_t>", "c10::ScalarType"
  std::string value;  // "-128", "c10::ScalarType::Half", "torch::stable::Device(c10::DeviceType::CUDA, 7)"
  // What from(value) produced: the 64 bits ("0x0000000000000080"), named by the getters of libtorch's shim
  // code they hold where they do ("aoti_torch_dtype_float16() = 0x0000000000000005",
  // "aoti_torch_device_type_cuda() << 32 | 0x00000007 = 0x0000000100000007"); for a pointer encoding what
  // it points at ("pointer to ...", "list [..., ...]", "string \"abc\"", "new handle of the same tensor"),
  // never an address; "refused" when it threw.
  std::string from;
  // What to<type> gave back for those bits ("-128", "c10::ScalarType::Half", "refused"); empty when from
  // refused or the release converts the type one way only.
  std::string to;

  auto operator<=>(const ConversionBehaviour&) const = default;
};

inline constexpr std::string_view kRefused = "refused";

// Whether binaries built against the old release and the new libtorch agree on an encoding: bit for bit,
// except a shim code, which is named by the getters that return it ("aoti_torch_dtype_float16() = 0x...05")
// and agrees when every getter that returned it before returns it now, whatever its value (libtorch
// returns the value at run time, so an extension built before gets the new library's: 2.13 renumbered
// the tags, torch_tag_inplace_view() 6 -> 7, and no binary noticed; 2.12 added aoti_torch_dtype_float8_e8m0fnu()
// beside torch_dtype_float8_e8m0fnu(), both returning 44).
bool same_encoding(std::string_view old_from, std::string_view new_from);

// What an extension built with the release's headers gives and takes at load time: a shared object of
// every stable wrapper header with every inline function emitted (-fkeep-inline-functions), so that what
// any extension could compile in is there.
struct ProbeExtensionSymbols {
  // The symbols of torch's namespaces (torch::stable, torch::headeronly, ...) it exports: defined, of
  // default visibility, in its dynamic symbol table; mangled, sorted. An exported inline function is
  // one that two extensions built against different releases both define, and the loader may bind one
  // extension's calls to the other's copy.
  std::vector<std::string> exports;
  std::vector<std::string> imports;  // the C shims it needs from libtorch, sorted

  auto operator<=>(const ProbeExtensionSymbols&) const = default;
};

struct BehaviourBaseline {
  TorchVersion release;
  TorchVersion target;                           // the TORCH_TARGET_VERSION the probe was compiled at
  std::vector<ConversionBehaviour> conversions;  // sorted by (type, value), each pair once
  ProbeExtensionSymbols extension;

  const ConversionBehaviour* find(std::string_view type, std::string_view value) const;
};

std::string behaviour_to_json(const BehaviourBaseline& behaviour);
// Throws ToolError naming `origin` when the document is malformed or of another schema version.
BehaviourBaseline parse_behaviour(std::string_view text, const std::string& origin);
BehaviourBaseline load_behaviour(const std::filesystem::path& path);

}  // namespace abicheck

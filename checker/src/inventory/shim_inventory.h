#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

// What one declaration of the stable surface is.
enum class DeclarationKind { Function, Struct, Enum, EnumConstant, Typedef, Macro };

std::string_view to_string(DeclarationKind kind);
std::optional<DeclarationKind> declaration_kind_from_string(std::string_view text);

// One declaration of the stable surface (the C shim, torch/headeronly, torch/csrc/stable) of one
// torch release, as a C++ front end saw it.
struct ShimDeclaration {
  std::string name;  // "aoti_torch_empty_strided", "AtenTensorOpaque", "TORCH_VERSION_2_10_0"
  DeclarationKind kind = DeclarationKind::Function;
  std::string signature;  // full C signature, or the macro's value, or the enum constant's value
  std::string header;     // relative to the include dir: "torch/csrc/stable/c/shim.h"
  int line = 0;
  std::string backend;  // "" when visible on every backend, else the define it needs: "USE_CUDA"
  TorchVersion since;   // the oldest TORCH_TARGET_VERSION at which it is visible
  // Functions: the type as the ABI sees it, canonical types and no parameter names
  // ("int (AtenTensorOpaque *, long *)"), so that a renamed parameter or int64_t spelled `long` is
  // the same function. Empty for other kinds (and in baselines written before it was recorded).
  std::string abi_type;

  auto operator<=>(const ShimDeclaration&) const = default;
};

// Every declaration of one release, sorted by (name, kind, backend) so that files are byte-stable.
struct ShimInventory {
  TorchVersion release;
  std::vector<ShimDeclaration> declarations;
  // Facts about the headers found while collecting, e.g. a stable header that does not compile
  // under TORCH_TARGET_VERSION; sorted.
  std::vector<std::string> notes;

  const ShimDeclaration* find(std::string_view name, DeclarationKind kind = DeclarationKind::Function) const;
  void sort();
};

// The file format of shim_decls/<release>/inventory.json:
//   {"release": "2.10", "declarations": [{"name", "kind", "signature", "header", "line", "backend", "since"}],
//    "notes": ["..."]}   ("notes" may be absent)
std::string inventory_to_json(const ShimInventory& inventory);
// Throws ToolError naming the file on anything malformed or truncated.
ShimInventory load_inventory(const std::filesystem::path& path);

}  // namespace abicheck

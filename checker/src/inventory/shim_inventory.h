#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

// What one declaration of the stable surface is. A Method is C++ an extension calls in the headers
// themselves (a member function or constructor of a torch::stable or torch::headeronly class, or a
// free wrapper function there): compiled into the extension, so no library exports it, but a build
// that targets a release needs it visible there.
enum class DeclarationKind { Function, Struct, Enum, EnumConstant, Typedef, Macro, Method };

std::string_view to_string(DeclarationKind kind);
std::optional<DeclarationKind> declaration_kind_from_string(std::string_view text);

// One declaration of the stable surface (the C shim, torch/headeronly, torch/csrc/stable) of one
// torch release, as a C++ front end saw it.
struct ShimDeclaration {
  // "aoti_torch_empty_strided", "AtenTensorOpaque", "TORCH_VERSION_2_10_0"; a Method's name holds its
  // parameter types, so that overloads are different declarations: "torch::stable::Tensor::size(long) const"
  std::string name;
  DeclarationKind kind = DeclarationKind::Function;
  std::string signature;  // full C signature, or the macro's value, or the enum constant's value
  std::string header;     // relative to the include dir: "torch/csrc/stable/c/shim.h"
  int line = 0;
  std::string backend;  // "" when visible on every backend, else the define it needs: "USE_CUDA"
  TorchVersion since;   // the oldest TORCH_TARGET_VERSION at which it is visible
  // Functions and Methods: the type as the ABI sees it, canonical types and no parameter names
  // ("int (AtenTensorOpaque *, long *)"), so that a renamed parameter or int64_t spelled `long` is
  // the same function. Empty for other kinds (and in baselines written before it was recorded).
  std::string abi_type;
  // Methods: what a call as users write it may leave out or rely on, beside the type the ABI sees: how
  // many trailing parameters have a default argument (a call may omit them), and whether a constructor
  // or conversion is `explicit` (no implicit conversion: `Device d = DeviceType::CPU;` does not compile).
  int default_arguments = 0;
  bool is_explicit = false;

  auto operator<=>(const ShimDeclaration&) const = default;
};

// One way the stable headers did not compile while they were collected: the configuration
// (target and backend defines) and the front end's first error there.
struct HeaderCompileFailure {
  std::optional<TorchVersion> target;  // none: compiled without TORCH_TARGET_VERSION
  std::string configuration;           // "TORCH_TARGET_VERSION=2.10, USE_CUDA"
  std::string error;                   // "torch/csrc/stable/tensor.h:42: use of undeclared identifier 'x'"

  auto operator<=>(const HeaderCompileFailure&) const = default;
};

// What stays the same of an error when the lines around it move between releases: its header and
// message, without the line ("torch/csrc/stable/tensor.h: use of undeclared identifier 'x'").
std::string compile_error_identity(std::string_view error);

// Sorts failures by configuration (without a target first, then by target and the configuration's
// name), keeping each configuration's errors in the order the front end gave them.
void sort_compile_failures(std::vector<HeaderCompileFailure>& failures);

// One error of a tree's headers that an earlier tree did not have: where it is, the front end's words
// at the oldest configuration that shows it, and every configuration that shows it.
struct NewCompileError {
  std::string header;  // relative to the include dir
  int line = 0;
  std::string error;                              // "torch/csrc/stable/tensor.h:42: static_assert failed ..."
  std::set<std::optional<TorchVersion>> targets;  // none: without TORCH_TARGET_VERSION

  std::string message() const;         // the error without its place
  std::string configurations() const;  // "no target, target 2.9, target 2.10"
};

struct ShimInventory;
// The first error of each configuration of `inventory`'s compile failures whose identity is not in
// `known` (an error a release already had, such as a header that refuses a target, hides nothing behind
// it), one per place in the headers (an error that quotes a target's value reads differently at each
// target), sorted.
std::vector<NewCompileError> new_compile_errors(const ShimInventory& inventory, const std::set<std::string>& known);

// Every declaration of one release, sorted by (name, kind, backend) so that files are byte-stable.
struct ShimInventory {
  TorchVersion release;
  std::vector<ShimDeclaration> declarations;
  // The public header files of the stable trees (list_stable_headers), include-dir-relative and sorted:
  // an extension includes them by name, so one that disappears breaks its builds. Empty in baselines
  // written before they were recorded.
  std::vector<std::string> headers;
  // Facts about the headers found while collecting, e.g. a stable header that does not compile
  // under TORCH_TARGET_VERSION; sorted. Written to inventory.json.
  std::vector<std::string> notes;
  // Every error of each configuration that did not compile (inline bodies included), sorted by
  // sort_compile_failures. Written to inventory.json, so that a diff from a baseline file sees an
  // error that shows only at some target as a diff of the header trees does (none in baselines
  // written before they were recorded).
  std::vector<HeaderCompileFailure> compile_failures;

  // The identity of every compile error this inventory knows of, from its failures and its notes
  // (a committed baseline has notes only): what a newer tree's failures are compared with.
  std::set<std::string> compile_error_identities() const;

  const ShimDeclaration* find(std::string_view name, DeclarationKind kind = DeclarationKind::Function) const;
  void sort();
};

// The file format of shim_decls/<release>/inventory.json:
//   {"release": "2.10", "declarations": [{"name", "kind", "signature", "header", "line", "backend", "since",
//                                          "abi_type", "default_arguments", "explicit"}],
//    "headers": ["torch/csrc/stable/tensor.h", ...], "notes": ["..."],
//    "compile_failures": [{"target": "2.12" or null, "configuration", "error"}]}
//   ("headers", "notes" and "compile_failures" may be absent; "abi_type" when known, "default_arguments"
//   when more than 0, "explicit" when true)
std::string inventory_to_json(const ShimInventory& inventory);
// Throws ToolError naming the file on anything malformed or truncated.
ShimInventory load_inventory(const std::filesystem::path& path);

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

// The operator baseline of one release, shim_decls/<release>/operators.txt: every operator the
// dispatcher knows after `import torch`, in torch's own schema syntax, one per line and sorted, so that
// two releases' files diff well in review (about 380 KB of text each; git and the wheel compress it
// to about 40 KB, so gzip would buy nothing but unreadable diffs). Lines starting with '@' carry the
// release and the schema adapters; '#' lines are comments.
inline constexpr std::string_view kOperatorsFile = "operators.txt";

// One argument or return of a schema: `Tensor(a!) self`, `int[1] dim=[]`, `Scalar alpha=1`.
struct OperatorArgument {
  std::string name;                          // empty for an unnamed return
  std::string type;                          // without the alias annotation: `Tensor`, `Tensor[]`, `int[1]`
  std::string alias;                         // `a!` of `Tensor(a!)`; empty when none
  std::optional<std::string> default_value;  // as written: `1`, `[]`, `None`, `"mean"`
  bool kwarg_only = false;                   // after the `*` of the argument list

  auto operator<=>(const OperatorArgument&) const = default;
};

struct OperatorSchema {
  std::string name;      // `aten::add`
  std::string overload;  // `Tensor`; empty for the default overload
  std::vector<OperatorArgument> arguments;
  std::vector<OperatorArgument> returns;
  std::string text;  // the whole line, as torch prints it

  // `aten::add.Tensor`, or `aten::add` for the default overload: what the diff names.
  std::string qualified_name() const { return overload.empty() ? name : name + "." + overload; }
};

// A schema adapter a release registers for callers of torch_call_dispatcher: calls to `name` (every
// overload) from an extension built against a torch older than `applies_below` have their argument
// stack adapted to the current schema.
struct SchemaAdapter {
  std::string name;  // `aten::foo`
  TorchVersion applies_below;

  auto operator<=>(const SchemaAdapter&) const = default;
};

struct OperatorSchemas {
  TorchVersion release;
  bool has_adapter_registry = false;  // the release has the registry (2.10+); false: no adapting at all
  std::vector<SchemaAdapter> adapters;
  std::vector<OperatorSchema> schemas;  // sorted by text

  const OperatorSchema* find(std::string_view qualified_name) const;             // `aten::add.Tensor`, `aten::abs`
  std::vector<const OperatorSchema*> overloads_of(std::string_view name) const;  // every `aten::add...`
};

// One schema line; throws ToolError naming `origin` when it is not a schema.
OperatorSchema parse_operator_schema(std::string_view line, const std::string& origin);

std::string operator_schemas_to_text(const OperatorSchemas& schemas);
// Throws ToolError naming `origin` when a line is malformed or the release line is missing.
OperatorSchemas parse_operator_schemas(std::string_view text, const std::string& origin);
OperatorSchemas load_operator_schemas(const std::filesystem::path& path);

// Runs matrix/dump_operator_schemas.py under the release's Python (`python`), which imports its torch
// and lists the dispatcher's schemas; the adapter registry is located in `lib_dir`/libtorch_cpu.so's
// symbol table and read from the loaded library. Throws ToolError when the script fails.
OperatorSchemas dump_operator_schemas(const std::filesystem::path& python, const std::filesystem::path& lib_dir);

}  // namespace abicheck

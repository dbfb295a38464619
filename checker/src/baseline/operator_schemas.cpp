#include "baseline/operator_schemas.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "baseline/library_exports.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

// The registry of shim_common.cpp (a static local of SchemaAdapterRegistry::instance()) and its guard.
constexpr std::string_view kAdapterRegistrySymbol = "_ZZN12_GLOBAL__N_121SchemaAdapterRegistry8instanceEvE8registry";
constexpr std::string_view kAdapterRegistryGuardSymbol =
    "_ZGVZN12_GLOBAL__N_121SchemaAdapterRegistry8instanceEvE8registry";

// Splits at the commas outside brackets, parentheses and quotes; each piece trimmed.
std::vector<std::string_view> split_top_level(std::string_view text) {
  std::vector<std::string_view> pieces;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  auto push = [&](std::size_t end) {
    std::string_view piece = text.substr(start, end - start);
    while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
    while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
    if (!piece.empty()) pieces.push_back(piece);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      push(i);
      start = i + 1;
    }
  }
  push(text.size());
  return pieces;
}

// The position of the first `c` outside brackets and quotes, or npos.
std::size_t find_top_level(std::string_view text, char wanted, bool last = false) {
  int depth = 0;
  bool quoted = false;
  std::size_t found = std::string_view::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == wanted && depth == 0) {
      found = i;
      if (!last) return found;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
  }
  return found;
}

// `Tensor(a!)[] out=None` → type `Tensor[]`, alias `a!`, name `out`, default `None`.
OperatorArgument parse_argument(std::string_view text, bool kwarg_only) {
  OperatorArgument argument;
  argument.kwarg_only = kwarg_only;
  if (std::size_t equals = find_top_level(text, '='); equals != std::string_view::npos) {
    argument.default_value = std::string(text.substr(equals + 1));
    text = text.substr(0, equals);
  }
  std::string_view type = text;
  if (std::size_t space = find_top_level(text, ' ', true); space != std::string_view::npos) {
    type = text.substr(0, space);
    argument.name = std::string(text.substr(space + 1));
  }
  argument.type = std::string(type);
  if (type.starts_with("Tensor(")) {
    std::size_t close = type.find(')');
    argument.alias = std::string(type.substr(7, close - 7));
    argument.type = "Tensor" + std::string(type.substr(close + 1));
  }
  return argument;
}

}  // namespace

// `schemas` is sorted by text, and every line starts with its qualified name and '(': the overloads of
// one operator (`name(` and `name.overload(`) are one run of it, since '(' and '.' sort before every
// character a longer name continues with.
const OperatorSchema* OperatorSchemas::find(std::string_view qualified_name) const {
  std::string head = std::string(qualified_name) + "(";
  auto found = std::ranges::lower_bound(schemas, head, {}, &OperatorSchema::text);
  return found != schemas.end() && found->text.starts_with(head) ? &*found : nullptr;
}

std::vector<const OperatorSchema*> OperatorSchemas::overloads_of(std::string_view name) const {
  std::vector<const OperatorSchema*> overloads;
  std::string head = std::string(name) + "(";
  for (auto it = std::ranges::lower_bound(schemas, head, {}, &OperatorSchema::text);
       it != schemas.end() && it->name == name; ++it) {
    overloads.push_back(&*it);
  }
  return overloads;
}

OperatorSchema parse_operator_schema(std::string_view line, const std::string& origin) {
  auto malformed = [&](std::string_view why) {
    return ToolError(fmt::format("{}: not an operator schema ({}): {}", origin, why, line));
  };
  OperatorSchema schema;
  schema.text = std::string(line);
  std::size_t open = line.find('(');
  std::size_t scope = line.find("::");
  if (open == std::string_view::npos || scope == std::string_view::npos || scope > open) {
    throw malformed("no namespace::name(");
  }
  std::string_view qualified = line.substr(0, open);
  if (std::size_t dot = qualified.find('.', scope); dot != std::string_view::npos) {
    schema.name = std::string(qualified.substr(0, dot));
    schema.overload = std::string(qualified.substr(dot + 1));
  } else {
    schema.name = std::string(qualified);
  }
  std::string_view rest = line.substr(open);
  int depth = 0;
  std::size_t close = std::string_view::npos;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '(') ++depth;
    if (rest[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) throw malformed("unbalanced parentheses");
  bool kwarg_only = false;
  for (std::string_view argument : split_top_level(rest.substr(1, close - 1))) {
    if (argument == "*") {
      kwarg_only = true;
      continue;
    }
    schema.arguments.push_back(parse_argument(argument, kwarg_only));
  }
  std::string_view after = rest.substr(close + 1);
  if (!after.starts_with(" -> ")) throw malformed("no ' -> ' before the returns");
  std::string_view returns = after.substr(4);
  // A type never starts with '(': a parenthesised list is a tuple, `()` none.
  if (returns.starts_with('(') && returns.ends_with(')')) returns = returns.substr(1, returns.size() - 2);
  for (std::string_view value : split_top_level(returns)) schema.returns.push_back(parse_argument(value, false));
  return schema;
}

std::string operator_schemas_to_text(const OperatorSchemas& schemas) {
  std::string text =
      "# operator schemas of one torch release (torch-abi-check baseline): the dispatcher's operators, one per line, "
      "sorted\n";
  text += fmt::format("@release {}\n", schemas.release.to_full_string());
  text += fmt::format("@adapter-registry {}\n", schemas.has_adapter_registry ? "present" : "absent");
  for (const auto& adapter : schemas.adapters) {
    text += fmt::format("@adapter {} {}\n", adapter.name, adapter.applies_below.to_full_string());
  }
  for (const auto& schema : schemas.schemas) text += schema.text + "\n";
  return text;
}

OperatorSchemas parse_operator_schemas(std::string_view text, const std::string& origin) {
  OperatorSchemas schemas;
  bool has_release = false;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line.starts_with('#')) continue;
    if (line.starts_with("@release ")) {
      auto version = TorchVersion::try_parse(line.substr(9));
      if (!version) throw ToolError(fmt::format("{}: bad release line: {}", origin, line));
      schemas.release = *version;
      has_release = true;
    } else if (line.starts_with("@adapter-registry ")) {
      schemas.has_adapter_registry = line.substr(18) == "present";
    } else if (line.starts_with("@adapter ")) {
      std::string_view fields = std::string_view(line).substr(9);
      std::size_t space = fields.find(' ');
      auto below = space == std::string_view::npos ? std::nullopt : TorchVersion::try_parse(fields.substr(space + 1));
      if (!below) throw ToolError(fmt::format("{}: bad adapter line: {}", origin, line));
      schemas.adapters.push_back({std::string(fields.substr(0, space)), *below});
    } else {
      schemas.schemas.push_back(parse_operator_schema(line, origin));
    }
  }
  if (!has_release) throw ToolError(fmt::format("{}: not an operator baseline (no @release line)", origin));
  std::ranges::sort(schemas.adapters);
  std::ranges::sort(schemas.schemas, {}, &OperatorSchema::text);
  return schemas;
}

OperatorSchemas load_operator_schemas(const std::filesystem::path& path) {
  return parse_operator_schemas(read_file_text(path), path.string());
}

OperatorSchemas dump_operator_schemas(const std::filesystem::path& python, const std::filesystem::path& lib_dir) {
  ScopedTempDir work("operator-schemas");
  std::filesystem::path out = work.path() / kOperatorsFile;
  std::vector<std::string> argv = {python.string(), (project_root() / "matrix" / "dump_operator_schemas.py").string(),
                                   "--out", out.string()};
  std::filesystem::path libtorch_cpu = lib_dir / "libtorch_cpu.so";
  auto registry = find_symbol_value(libtorch_cpu, kAdapterRegistrySymbol);
  auto guard = find_symbol_value(libtorch_cpu, kAdapterRegistryGuardSymbol);
  if (registry && guard) {
    argv.insert(argv.end(),
                {"--libtorch-cpu", libtorch_cpu.string(), "--adapter-registry", fmt::format("{:#x}", *registry),
                 "--adapter-registry-guard", fmt::format("{:#x}", *guard)});
  }
  ProcessResult result = run_process({.argv = argv,
                                      .extra_env = {{"PYTHONDONTWRITEBYTECODE", "1"}},
                                      .working_dir = work.path(),
                                      .timeout = std::chrono::minutes(5)});
  if (!result.succeeded()) {
    throw ToolError(fmt::format("{}: listing the operator schemas failed ({}): {}", python.string(), result.describe(),
                                result.tail(3)));
  }
  return load_operator_schemas(out);
}

}  // namespace abicheck

#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "lint/lint_rule.h"
#include "lint/missing_declaration.h"

namespace abicheck {

// What the extension lint saw in a project: plain data gathered once (by libclang and by reading
// the build files), which every extension rule reads and none re-parses.

// One definition of TORCH_TARGET_VERSION: a -D on a compile command, a #define in a source, or a
// definition in a build file.
struct TargetDefinition {
  enum class Origin { CommandLine, Source, BuildFile, Option };
  SourcePosition where;
  Origin origin = Origin::Source;
  std::string value_text;              // as written: "0x020A000000000000", "(((0ULL + 2) << 56) | ...)"
  std::optional<std::uint64_t> value;  // what it evaluates to, when it does
};

// A `torch>=X` (or ~=, ==) requirement in pyproject.toml, setup.py or requirements*.txt.
struct TorchRequirement {
  SourcePosition where;
  std::string text;  // "torch>=2.10"
  TorchVersion minimum;
};

// A torch header that a non-torch file includes, with the include directives leading to it from
// the main file (outermost first, the directive that includes the header last).
struct TorchInclusion {
  std::string header;  // relative to torch's include dir: "torch/extension.h"
  std::vector<SourcePosition> chain;
};

// A compiler error, and what it says is missing when that could be a declaration of a newer
// release ("use of undeclared identifier 'torch_foo'", "no matching function for call to 'new_empty'").
struct CompileError {
  SourcePosition where;
  std::string message;
  MissingDeclaration missing;
};

// dlsym("name") / dlvsym(...) with a string literal; `in_torch_macro` when the call comes from the
// expansion of a macro that torch's own headers define around dlsym.
struct DynamicLookup {
  SourcePosition where;
  std::string function;  // "dlsym"
  std::string symbol;
  bool in_torch_macro = false;
};

// A call in project code that names an ATen operator to the dispatcher: torch_call_dispatcher (2.10+)
// or aoti_torch_call_dispatcher, with the operator and overload as string literals.
struct DispatcherCall {
  SourcePosition where;
  std::string function;  // "torch_call_dispatcher"
  std::string op;        // "aten::transpose"
  std::string overload;  // "int"; empty for the default overload

  std::string qualified_name() const { return overload.empty() ? op : op + "." + overload; }
};

// A use in project code of a C shim that torch's headers declare (a call, or its address taken): what
// the extension's object will import by name.
struct ShimReference {
  SourcePosition where;
  std::string shim;  // "aoti_torch_int64_to_ivalue"
};

// One preprocessor directive of a project file, lexically: `#pragma push_macro("X")` gives
// name "pragma", argument `push_macro("X")`.
struct PreprocessorDirective {
  int line = 0;
  int column = 0;
  std::string name;
  std::string argument;
};

enum class SourceLanguage { Cxx, Cuda };

struct TranslationUnitFacts {
  std::filesystem::path source;
  SourceLanguage language = SourceLanguage::Cxx;
  std::vector<TargetDefinition> target_definitions;  // command line first, then #defines in source order
  std::optional<std::uint64_t> effective_target;     // TORCH_TARGET_VERSION's value where the TU ends
  std::vector<TorchInclusion> torch_inclusions;
  std::vector<CompileError> errors;
  std::vector<DynamicLookup> dynamic_lookups;
  std::vector<DispatcherCall> dispatcher_calls;
  std::vector<ShimReference> shim_references;
  int main_file_declarations = 0;  // valid declarations the front end parsed at the top level of the source itself
  std::vector<std::filesystem::path> project_files;  // the project's own headers it includes
  // Set when libclang refused the unit outright: libclang's diagnostics (nothing else above is set).
  std::optional<std::string> parse_refusal;
};

struct ExtensionFacts {
  std::filesystem::path root;
  std::vector<TranslationUnitFacts> units;
  std::vector<TargetDefinition> build_file_targets;  // CMakeLists.txt, *.cmake, setup.py, pyproject.toml
  std::vector<TorchRequirement> torch_requirements;
  std::map<std::filesystem::path, std::vector<PreprocessorDirective>> project_directives;  // per project file
};

}  // namespace abicheck

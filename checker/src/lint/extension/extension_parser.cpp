#include "lint/extension/extension_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "core/file_text.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "inventory/clang_translation_unit.h"
#include "lint/clang_support.h"
#include "lint/directive_scanner.h"
#include "lint/extension/extension_rules.h"
#include "lint/missing_declaration.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEffectiveTargetVariable = "torch_abi_check_effective_target";

// clang 14 parses CUDA for the host side without a CUDA installation of its own (-nocudainc):
// this prelude supplies the execution-space attributes, the builtin index variables and the launch
// hook that <<<…>>> calls, over the CUDA runtime headers of the wheels.
constexpr std::string_view kCudaPrelude = R"(#pragma once
#if __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#include <__clang_cuda_builtin_vars.h>
#if __has_include(<cuda_runtime.h>)
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
#endif
)";
constexpr std::string_view kCudaPreludePath = "/torch-abi-check/cuda_prelude.h";
// The same for reading a CUDA unit as C++ host code: the runtime's host definitions of the keywords.
constexpr std::string_view kCudaHostPrelude = R"(#pragma once
#if __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
)";
constexpr std::string_view kCudaHostPreludePath = "/torch-abi-check/cuda_host_prelude.h";

int count_lines(const std::string& text) { return static_cast<int>(std::ranges::count(text, '\n')) + 1; }

bool is_under(const fs::path& file, const fs::path& directory) {
  if (directory.empty() || file.empty()) return false;
  auto relative = file.lexically_relative(directory);
  return !relative.empty() && *relative.begin() != "..";
}

std::string strip_string_literal(const std::string& spelling) {
  auto open = spelling.find('"');
  auto close = spelling.rfind('"');
  if (open == std::string::npos || close <= open) return {};
  return spelling.substr(open + 1, close - open - 1);
}

class UnitReader {
 public:
  UnitReader(const ParsedUnit& parsed, const ParseEnvironment& environment, int main_file_lines)
      : parsed_(parsed), environment_(environment), main_file_lines_(main_file_lines) {}

  // torch's own headers; the third-party ones that a wheel ships beside them (pybind11, fmt, …) are not.
  bool is_torch_file(const fs::path& file) const {
    if (!is_under(file, environment_.torch_include_dir)) return false;
    std::string top = file.lexically_relative(environment_.torch_include_dir).begin()->string();
    return top == "torch" || top == "ATen" || top == "c10" || top == "caffe2" || top == "THC";
  }
  bool is_project_file(const fs::path& file) const {
    return is_under(file, environment_.project_root) && !is_under(file, environment_.torch_include_dir);
  }

  // Whether code located in this file belongs to the project (cached per CXFile: the walk asks
  // this for every top-level declaration of every header).
  bool in_project(CXCursor cursor) {
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(cursor), &file, nullptr, nullptr, nullptr);
    if (!file) return false;
    auto [it, inserted] = project_file_cache_.try_emplace(file, false);
    if (inserted) it->second = is_project_file(expansion_position(clang_getCursorLocation(cursor)).file);
    return it->second;
  }

  void read_into(TranslationUnitFacts& facts) {
    read_inclusions(facts);
    read_errors(facts);
    read_preprocessing_and_code(facts);
  }

  const std::set<fs::path>& project_files_seen() const { return project_files_seen_; }

 private:
  void read_inclusions(TranslationUnitFacts& facts) {
    struct Context {
      UnitReader* reader;
      TranslationUnitFacts* facts;
    } context{this, &facts};
    clang_getInclusions(
        parsed_.get(),
        [](CXFile included, CXSourceLocation* stack, unsigned depth, CXClientData data) {
          auto& [reader, facts] = *static_cast<Context*>(data);
          std::string name = copy_cx_string(clang_File_tryGetRealPathName(included));
          if (name.empty()) name = copy_cx_string(clang_getFileName(included));
          fs::path file = fs::path(name).lexically_normal();
          if (reader->is_project_file(file)) reader->project_files_seen_.insert(file);
          if (depth == 0 || !reader->is_torch_file(file)) return;
          SourcePosition directive = expansion_position(stack[0]);
          if (reader->is_torch_file(directive.file)) return;
          TorchInclusion inclusion;
          inclusion.header = file.lexically_relative(reader->environment_.torch_include_dir).generic_string();
          for (unsigned i = depth; i-- > 0;) inclusion.chain.push_back(expansion_position(stack[i]));
          facts->torch_inclusions.push_back(std::move(inclusion));
        },
        &context);
  }

  void read_errors(TranslationUnitFacts& facts) {
    unsigned count = clang_getNumDiagnostics(parsed_.get());
    for (unsigned i = 0; i < count; ++i) {
      CXDiagnostic diagnostic = clang_getDiagnostic(parsed_.get(), i);
      if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error) {
        CompileError error;
        error.where = expansion_position(clang_getDiagnosticLocation(diagnostic));
        error.message = copy_cx_string(clang_getDiagnosticSpelling(diagnostic));
        std::vector<std::string> notes;
        CXDiagnosticSet children = clang_getChildDiagnostics(diagnostic);
        for (unsigned c = 0; c < clang_getNumDiagnosticsInSet(children); ++c) {
          CXDiagnostic note = clang_getDiagnosticInSet(children, c);
          notes.push_back(copy_cx_string(clang_getDiagnosticSpelling(note)));
          clang_disposeDiagnostic(note);
        }
        error.missing = missing_declaration_in(error.message, notes);
        bool in_appended_probe = error.where.file == facts.source && error.where.line > main_file_lines_;
        if (!in_appended_probe) facts.errors.push_back(std::move(error));
      }
      clang_disposeDiagnostic(diagnostic);
    }
  }

  // One walk over the unit: #defines of the target macro and expansions of torch's macros (both
  // top-level preprocessing cursors), dlsym and dispatcher calls in project code, and the probe variable.
  void read_preprocessing_and_code(TranslationUnitFacts& facts) {
    struct Range {
      fs::path file;
      unsigned begin;
      unsigned end;
    };
    std::vector<Range> torch_macro_expansions;
    std::vector<std::pair<CXCursor, DynamicLookup>> calls;
    visit_descendants(parsed_.root(), [&](CXCursor cursor) {
      CXCursorKind kind = clang_getCursorKind(cursor);
      if (kind == CXCursor_MacroDefinition) {
        if (copy_cx_string(clang_getCursorSpelling(cursor)) == "TORCH_TARGET_VERSION" && in_project(cursor)) {
          auto tokens = cursor_tokens(parsed_.get(), cursor);
          std::string value;
          for (std::size_t i = 1; i < tokens.size(); ++i) value += (i > 1 ? " " : "") + tokens[i];
          facts.target_definitions.push_back({expansion_position(clang_getCursorLocation(cursor)),
                                              TargetDefinition::Origin::Source, value, std::nullopt});
        }
        return false;
      }
      if (kind == CXCursor_MacroExpansion) {
        if (in_project(cursor)) {
          CXCursor definition = clang_getCursorReferenced(cursor);
          if (!clang_Cursor_isNull(definition) && is_torch_file(cursor_file(definition))) {
            CXSourceRange extent = clang_getCursorExtent(cursor);
            unsigned begin = 0;
            unsigned end = 0;
            clang_getExpansionLocation(clang_getRangeStart(extent), nullptr, nullptr, nullptr, &begin);
            clang_getExpansionLocation(clang_getRangeEnd(extent), nullptr, nullptr, nullptr, &end);
            torch_macro_expansions.push_back({cursor_file(cursor), begin, end});
          }
        }
        return false;
      }
      if (kind == CXCursor_InclusionDirective || kind == CXCursor_MacroInstantiation) return false;
      if (!in_project(cursor)) return false;
      // A declaration of the source itself that the front end accepted (random bytes parse as invalid
      // ones); the probe variable appended to the source does not count.
      if (clang_isDeclaration(kind) && !clang_isInvalidDeclaration(cursor) &&
          clang_getCursorKind(clang_getCursorSemanticParent(cursor)) == CXCursor_TranslationUnit &&
          cursor_file(cursor) == facts.source &&
          copy_cx_string(clang_getCursorSpelling(cursor)) != kEffectiveTargetVariable) {
        ++facts.main_file_declarations;
      }
      if (kind == CXCursor_VarDecl && copy_cx_string(clang_getCursorSpelling(cursor)) == kEffectiveTargetVariable) {
        CXEvalResult result = clang_Cursor_Evaluate(cursor);
        if (result && clang_EvalResult_getKind(result) == CXEval_Int) {
          facts.effective_target = clang_EvalResult_getAsUnsigned(result);
        }
        if (result) clang_EvalResult_dispose(result);
        return false;
      }
      if (kind == CXCursor_DeclRefExpr) {
        CXCursor referenced = clang_getCursorReferenced(cursor);
        if (is_c_shim(referenced)) {
          facts.shim_references.push_back({expansion_position(clang_getCursorLocation(cursor)),
                                           copy_cx_string(clang_getCursorSpelling(referenced))});
        }
      }
      if (kind == CXCursor_CallExpr) {
        std::string callee = copy_cx_string(clang_getCursorSpelling(cursor));
        if ((callee == "dlsym" || callee == "dlvsym") && clang_Cursor_getNumArguments(cursor) >= 2) {
          std::string symbol;
          visit_descendants(clang_Cursor_getArgument(cursor, 1), [&](CXCursor argument) {
            if (clang_getCursorKind(argument) == CXCursor_StringLiteral && symbol.empty()) {
              symbol = strip_string_literal(copy_cx_string(clang_getCursorSpelling(argument)));
            }
            return symbol.empty();
          });
          if (!symbol.empty()) {
            calls.push_back({cursor, {expansion_position(clang_getCursorLocation(cursor)), callee, symbol, false}});
          }
        }
        if (auto named = operator_named(cursor)) {
          facts.dispatcher_calls.push_back({expansion_position(clang_getCursorLocation(cursor)), callee,
                                            std::move(named->first), std::move(named->second)});
        } else {
          // A torch::stable wrapper (stable/ops.h and friends) names its operator in its own body.
          for (auto& [op, overload] : operators_called_by(clang_getCursorReferenced(cursor), 0)) {
            facts.dispatcher_calls.push_back(
                {expansion_position(clang_getCursorLocation(cursor)), qualified_function_name(cursor), op, overload});
          }
        }
      }
      return true;
    });
    for (auto& call : calls) {
      // Plain references: clang 14 (which clang-tidy runs) cannot capture a structured binding.
      const CXCursor& cursor = call.first;
      auto& lookup = call.second;
      unsigned offset = 0;
      clang_getExpansionLocation(clang_getCursorLocation(cursor), nullptr, nullptr, nullptr, &offset);
      lookup.in_torch_macro = std::ranges::any_of(torch_macro_expansions, [&](const Range& range) {
        return range.file == lookup.where.file && range.begin <= offset && offset <= range.end;
      });
      facts.dynamic_lookups.push_back(std::move(lookup));
    }
  }

  // The operator and overload a call to torch_call_dispatcher or aoti_torch_call_dispatcher names with
  // string literals, when it does.
  static std::optional<std::pair<std::string, std::string>> operator_named(CXCursor call) {
    std::string callee = copy_cx_string(clang_getCursorSpelling(call));
    if ((callee != "torch_call_dispatcher" && callee != "aoti_torch_call_dispatcher") ||
        clang_Cursor_getNumArguments(call) < 2) {
      return std::nullopt;
    }
    auto literal = [&](unsigned index) -> std::optional<std::string> {
      std::optional<std::string> text;
      visit_descendants(clang_Cursor_getArgument(call, index), [&](CXCursor argument) {
        if (clang_getCursorKind(argument) == CXCursor_StringLiteral && !text) {
          text = strip_string_literal(copy_cx_string(clang_getCursorSpelling(argument)));
        }
        return !text;
      });
      return text;
    };
    auto op = literal(0);
    auto overload = literal(1);
    if (!op || !overload) return std::nullopt;
    return std::pair{*op, *overload};
  }

  // Whether a function may be one of the C shim: torch's headers declare it outside any namespace or
  // class (which of those the shim holds, the inventory says).
  bool is_c_shim(CXCursor function) const {
    if (clang_Cursor_isNull(function) || clang_getCursorKind(function) != CXCursor_FunctionDecl) return false;
    // An `extern "C" {}` block is a LinkageSpec, or an UnexposedDecl to libclang 14 and 15.
    CXCursorKind parent = clang_getCursorKind(clang_getCursorSemanticParent(function));
    if (parent != CXCursor_TranslationUnit && parent != CXCursor_LinkageSpec && parent != CXCursor_UnexposedDecl) {
      return false;
    }
    return is_torch_file(cursor_file(function));
  }

  // "torch::stable::transpose": what the project called.
  static std::string qualified_function_name(CXCursor call) {
    CXCursor function = clang_getCursorReferenced(call);
    std::string name = copy_cx_string(clang_getCursorSpelling(function));
    for (CXCursor parent = clang_getCursorSemanticParent(function);
         !clang_Cursor_isNull(parent) && clang_getCursorKind(parent) != CXCursor_TranslationUnit;
         parent = clang_getCursorSemanticParent(parent)) {
      std::string scope = copy_cx_string(clang_getCursorSpelling(parent));
      if (!scope.empty()) name = scope + "::" + name;
    }
    return name;
  }

  // The operators a function defined in torch's headers names to the dispatcher, directly or through
  // other such functions (a wrapper of the headers this unit is compiled with: the release's own).
  std::vector<std::pair<std::string, std::string>> operators_called_by(CXCursor function, int depth) {
    constexpr int kDeepestWrapper = 3;
    if (clang_Cursor_isNull(function) || depth > kDeepestWrapper) return {};
    CXCursor definition = clang_getCursorDefinition(function);
    if (clang_Cursor_isNull(definition) || !is_torch_file(cursor_file(definition))) return {};
    std::string usr = copy_cx_string(clang_getCursorUSR(definition));
    if (auto known = wrapper_operators_.find(usr); known != wrapper_operators_.end()) return known->second;
    wrapper_operators_[usr] = {};  // a recursive wrapper ends here
    std::vector<std::pair<std::string, std::string>> operators;
    visit_descendants(definition, [&](CXCursor cursor) {
      if (clang_getCursorKind(cursor) != CXCursor_CallExpr) return true;
      if (auto named = operator_named(cursor)) {
        operators.push_back(std::move(*named));
      } else {
        auto nested = operators_called_by(clang_getCursorReferenced(cursor), depth + 1);
        operators.insert(operators.end(), nested.begin(), nested.end());
      }
      return true;
    });
    std::ranges::sort(operators);
    operators.erase(std::unique(operators.begin(), operators.end()), operators.end());
    wrapper_operators_[usr] = operators;
    return operators;
  }

  const ParsedUnit& parsed_;
  const ParseEnvironment& environment_;
  int main_file_lines_;
  std::unordered_map<CXFile, bool> project_file_cache_;
  std::set<fs::path> project_files_seen_;
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::string>>> wrapper_operators_;  // by USR
};

std::vector<std::string> front_end_arguments(const UnitToParse& unit, const ParseEnvironment& environment) {
  std::vector<std::string> arguments;
  if (unit.language == SourceLanguage::Cuda) {
    arguments = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version"};
  } else {
    arguments = {"-x", "c++"};
  }
  bool has_standard = std::ranges::any_of(unit.arguments, [](const std::string& a) { return a.starts_with("-std="); });
  if (!has_standard) arguments.push_back("-std=" + environment.cxx_standard);
  arguments.insert(arguments.end(), unit.arguments.begin(), unit.arguments.end());
  // Both include dirs that torch's cpp_extension gives a build, so that <torch/torch.h> and
  // <torch/all.h> resolve (and E002 sees them) as they do in the real build.
  arguments.push_back("-I" + environment.torch_include_dir.string());
  arguments.push_back("-I" + (environment.torch_include_dir / "torch/csrc/api/include").string());
  if (unit.language == SourceLanguage::Cuda) {
    for (const auto& dir : environment.cuda_include_dirs) arguments.push_back("-isystem" + dir.string());
    arguments.insert(arguments.end(), {"-include", std::string(kCudaPreludePath)});
  }
  arguments.insert(arguments.end(), {"-w", "-ferror-limit=0"});
  return arguments;
}

// A CUDA unit's arguments for reading it as C++ host code: the C++ arguments, the CUDA runtime
// headers and the runtime's own host definitions of the execution-space keywords.
std::vector<std::string> host_cxx_arguments(const UnitToParse& unit, const ParseEnvironment& environment) {
  UnitToParse host = unit;
  host.language = SourceLanguage::Cxx;
  std::vector<std::string> arguments = front_end_arguments(host, environment);
  for (const auto& dir : environment.cuda_include_dirs) arguments.push_back("-isystem" + dir.string());
  arguments.insert(arguments.end(), {"-include", std::string(kCudaHostPreludePath)});
  return arguments;
}

// The arguments that build a precompiled header of the system headers for a C++ unit: its own,
// as a header, without its target (the system headers do not read it); empty when the unit
// cannot share one (CUDA with its prelude, forced -includes).
std::vector<std::string> precompiled_header_arguments(const UnitToParse& unit, const ParseEnvironment& environment) {
  if (unit.language != SourceLanguage::Cxx || std::ranges::count(unit.arguments, "-include")) return {};
  std::vector<std::string> arguments;
  for (const auto& argument : front_end_arguments(unit, environment)) {
    if (argument.find("TORCH_TARGET_VERSION") != std::string::npos) {
      if (!arguments.empty() && (arguments.back() == "-D" || arguments.back() == "-U")) arguments.pop_back();
      continue;
    }
    arguments.push_back(argument == "c++" ? "c++-header" : argument);
  }
  return arguments;
}

// Parses one unit; `extra_arguments` come last (-include-pch), and `system_headers`, when given,
// receives what the unit read from outside torch and the project (see system_headers_of).
TranslationUnitFacts parse_unit(const UnitToParse& unit, const ParseEnvironment& environment,
                                const std::vector<std::string>& extra_arguments,
                                std::vector<std::string>* system_headers) {
  TranslationUnitFacts facts;
  facts.source = unit.source;
  facts.language = unit.language;
  facts.target_definitions = unit.command_line_targets;

  // The probe appended to the main file (in memory) lets the front end evaluate the target the
  // way the compiler would, whatever expression or #undef/#define sequence defines it.
  std::string text = read_file_text(unit.source);
  int lines = count_lines(text);
  std::string probed = text + fmt::format(
                                  "\n#ifdef TORCH_TARGET_VERSION\nstatic constexpr unsigned long long {} = "
                                  "TORCH_TARGET_VERSION;\n#endif\n",
                                  kEffectiveTargetVariable);
  std::vector<ParsedUnit::UnsavedFile> unsaved = {{unit.source.string(), probed}};
  if (unit.language == SourceLanguage::Cuda) {
    unsaved.push_back({std::string(kCudaPreludePath), std::string(kCudaPrelude)});
    unsaved.push_back({std::string(kCudaHostPreludePath), std::string(kCudaHostPrelude)});
  }
  std::vector<std::string> arguments = front_end_arguments(unit, environment);
  arguments.insert(arguments.end(), extra_arguments.begin(), extra_arguments.end());
  std::optional<ParsedUnit> refused_or_parsed;
  try {
    refused_or_parsed.emplace(unit.source, arguments, unsaved);
  } catch (const UnparsableSource& refusal) {
    if (unit.language != SourceLanguage::Cuda) {
      facts.parse_refusal = refusal.diagnostics();
      return facts;
    }
    // clang 14 crashes in CUDA mode on some sources over newer torch headers (torchsort's .cu with
    // torch 2.15, C++20). Read as C++ host code the unit still shows its includes, its target and
    // its calls, which is what the rules look at; kernel launches are then mere syntax errors.
    try {
      refused_or_parsed.emplace(unit.source, host_cxx_arguments(unit, environment), unsaved);
    } catch (const UnparsableSource& second_refusal) {
      facts.parse_refusal = refusal.diagnostics() + "\nread as C++ host code: " + second_refusal.diagnostics();
      return facts;
    }
  }
  const ParsedUnit& parsed = *refused_or_parsed;
  if (system_headers) {
    *system_headers = system_headers_of(parsed, [&environment](const fs::path& file) {
      return !file.empty() && !is_under(file, environment.torch_include_dir) &&
             !is_under(file, environment.project_root);
    });
  }
  UnitReader reader(parsed, environment, lines);
  reader.read_into(facts);
  facts.project_files.assign(reader.project_files_seen().begin(), reader.project_files_seen().end());
  // A literal is its own value; an expression gets the front end's value when it is the one in force.
  for (auto& definition : facts.target_definitions) definition.value = parse_integer_literal(definition.value_text);
  auto& last = facts.target_definitions;
  if (!last.empty() && !last.back().value && !TorchVersion::try_parse(last.back().value_text)) {
    last.back().value = facts.effective_target;
  }
  return facts;
}

}  // namespace

TranslationUnitFacts parse_translation_unit(const UnitToParse& unit, const ParseEnvironment& environment) {
  return parse_unit(unit, environment, {}, nullptr);
}

ExtensionFacts collect_extension_facts(const ExtensionSources& sources, const ParseEnvironment& environment) {
  ExtensionFacts facts;
  facts.root = sources.root;
  facts.build_file_targets = sources.build_file_targets;
  for (auto& definition : facts.build_file_targets) definition.value = parse_integer_literal(definition.value_text);
  facts.torch_requirements = sources.torch_requirements;
  facts.units.resize(sources.units.size());

  // Units whose arguments differ only in their target (the reference kernels: one group per
  // backend) read the same system headers the same way. The first of each group is parsed as it
  // is and tells which; the others read them from one precompiled header (about half of a parse).
  std::map<std::vector<std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < sources.units.size(); ++i) {
    groups[precompiled_header_arguments(sources.units[i], environment)].push_back(i);
  }
  std::vector<std::size_t> first_round;
  std::vector<std::size_t> second_round;
  std::vector<const std::vector<std::string>*> group_of(sources.units.size(), nullptr);
  for (const auto& [arguments, members] : groups) {
    bool shared = !arguments.empty() && members.size() > 1;
    for (std::size_t k = 0; k < members.size(); ++k) {
      (shared && k > 0 ? second_round : first_round).push_back(members[k]);
      if (shared) group_of[members[k]] = &arguments;
    }
  }
  std::vector<std::vector<std::string>> system_headers(sources.units.size());
  std::map<const std::vector<std::string>*, std::vector<std::string>> pch_arguments;
  // Two workers: the CI machine has two cores, and libclang parses independent units in parallel.
  auto parse_all = [&](const std::vector<std::size_t>& indices) {
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t k = next++; k < indices.size(); k = next++) {
        std::size_t i = indices[k];
        const auto* group = group_of[i];
        auto extra = group && pch_arguments.contains(group) ? pch_arguments.at(group) : std::vector<std::string>{};
        facts.units[i] = parse_unit(sources.units[i], environment, extra, group ? &system_headers[i] : nullptr);
      }
    };
    auto second = std::async(std::launch::async, worker);
    worker();
    second.get();
  };
  parse_all(first_round);
  std::optional<ScopedTempDir> scratch;
  if (!second_round.empty()) scratch.emplace("torch-abi-check-lint");
  for (const auto& [arguments, members] : groups) {
    if (!group_of[members.front()]) continue;
    fs::path directory = scratch->path() / std::to_string(members.front());
    fs::create_directories(directory);
    if (auto pch = precompile_headers(system_headers[members.front()], arguments, directory)) {
      pch_arguments[&arguments] = {"-include-pch", pch->string()};
    }
  }
  parse_all(second_round);
  std::set<fs::path> project_files;
  for (const auto& unit : facts.units) {
    project_files.insert(unit.source);
    project_files.insert(unit.project_files.begin(), unit.project_files.end());
  }
  for (const auto& file : project_files) facts.project_directives[file] = scan_preprocessor_directives_of(file);
  return facts;
}

std::vector<fs::path> find_cuda_include_dirs(const fs::path& store_root, int cuda_major) {
  std::vector<fs::path> dirs;
  fs::path nvidia = store_root / "cuda" / fmt::format("cu{}", cuda_major) / "site" / "nvidia";
  std::error_code error;
  if (fs::is_directory(nvidia, error)) {
    for (const auto& package : fs::directory_iterator(nvidia, error)) {
      if (fs::is_directory(package.path() / "include")) dirs.push_back(package.path() / "include");
    }
  }
  if (dirs.empty() && fs::exists("/usr/local/cuda/include/cuda_runtime.h")) dirs.push_back("/usr/local/cuda/include");
  // CUDA 13 keeps cub, thrust and libcu++ in include/cccl, which nvcc adds to every compile itself.
  for (std::size_t i = 0, n = dirs.size(); i < n; ++i) {
    if (fs::is_directory(dirs[i] / "cccl", error)) dirs.push_back(dirs[i] / "cccl");
  }
  std::ranges::sort(dirs);
  return dirs;
}

}  // namespace abicheck

#include "inventory/inventory_collector.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/tool_error.h"
#include "inventory/clang_translation_unit.h"
#include "inventory/stable_header_tree.h"
#include "inventory/stable_methods.h"

namespace abicheck {
namespace {

using VisibleDeclarationKey = std::pair<DeclarationKind, std::string>;
// What one parse saw: every stable declaration, keyed by kind and name. `since` and `backend` are
// left empty here; they come from comparing parses.
using VisibleDeclarations = std::map<VisibleDeclarationKey, ShimDeclaration>;

constexpr std::string_view kVersionMacroPrefix = "TORCH_VERSION_";

// TORCH_VERSION_2_10_0 and the like: the names extensions compare TORCH_TARGET_VERSION against.
bool is_release_macro_name(std::string_view name) {
  if (!name.starts_with(kVersionMacroPrefix)) return false;
  name.remove_prefix(kVersionMacroPrefix.size());
  return !name.empty() && std::ranges::all_of(name, [](char c) { return (c >= '0' && c <= '9') || c == '_'; }) &&
         std::ranges::count(name, '_') == 2;
}

// Walks one translation unit: the extern "C" functions declared in the stable trees, the types
// their signatures reach, the header-only enums and the release macros.
class DeclarationExtractor {
 public:
  explicit DeclarationExtractor(const ClangTranslationUnit& unit) : unit_(unit) {}

  VisibleDeclarations run() {
    visit_scope(unit_.root());
    return std::move(found_);
  }

 private:
  void visit_scope(CXCursor scope) {
    for_each_child(scope, [this](CXCursor child) {
      switch (clang_getCursorKind(child)) {
        case CXCursor_Namespace:
        case CXCursor_LinkageSpec:
        case CXCursor_UnexposedDecl:  // libclang 14 reports extern "C" { } blocks as unexposed
          visit_scope(child);
          break;
        case CXCursor_FunctionDecl:
          add_function(child);
          add_method(child);
          break;
        case CXCursor_FunctionTemplate: add_method(child); break;
        case CXCursor_EnumDecl:
          if (unit_.position_of(child).header.starts_with("torch/headeronly/")) add_enum(child);
          break;
        case CXCursor_ClassTemplate:
          add_class_template(child);
          add_members(child);
          break;
        case CXCursor_StructDecl:
        case CXCursor_ClassDecl:
          add_data_struct(child);
          add_members(child);
          break;
        case CXCursor_MacroDefinition: add_macro(child); break;
        default: break;
      }
    });
  }

  // Only C-linkage functions that the library defines: a shim function's mangled name is its name,
  // and it has no body in the header.
  void add_function(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    if (!is_stable_header(position.header) || clang_isCursorDefinition(cursor)) return;
    if (clang_getCursorLinkage(cursor) != CXLinkage_External) return;
    std::string name = cursor_spelling(cursor);
    if (copy_cx_string(clang_Cursor_getMangling(cursor)) != name) return;
    if (found_.contains({DeclarationKind::Function, name})) return;

    CXType type = clang_getCursorType(cursor);
    std::string signature = type_spelling(clang_getResultType(type)) + " " + name + "(";
    int count = clang_Cursor_getNumArguments(cursor);
    for (int i = 0; i < count; ++i) {
      CXCursor argument = clang_Cursor_getArgument(cursor, static_cast<unsigned>(i));
      std::string argument_name = cursor_spelling(argument);
      signature += (i ? ", " : "") + type_spelling(clang_getCursorType(argument));
      if (!argument_name.empty()) signature += " " + argument_name;
    }
    if (clang_isFunctionTypeVariadic(type)) signature += count ? ", ..." : "...";
    signature += ")";
    std::string abi_type = canonical_spelling(clang_getResultType(type)) + " (";
    for (int i = 0, n = clang_getNumArgTypes(type); i < n; ++i) {
      abi_type += (i ? ", " : "") + parameter_abi_spelling(clang_getArgType(type, static_cast<unsigned>(i)));
    }
    if (clang_isFunctionTypeVariadic(type)) abi_type += count ? ", ..." : "...";
    abi_type += ")";
    found_[{DeclarationKind::Function, name}] = {
        name, DeclarationKind::Function, signature, position.header, position.line, "", {}, abi_type};
    reach(clang_getResultType(type));
    for (int i = 0; i < count; ++i) reach(clang_getArgType(type, static_cast<unsigned>(i)));
  }

  // The C++ of the stable headers that an extension calls (stable_methods.h).
  void add_method(CXCursor cursor) {
    if (std::optional<ShimDeclaration> method = stable_method(unit_, cursor)) {
      found_.try_emplace({DeclarationKind::Method, method->name}, std::move(*method));
    }
  }

  void add_members(CXCursor record) {
    if (!clang_isCursorDefinition(record)) return;
    for_each_child(record, [this](CXCursor member) { add_method(member); });
  }

  static std::string canonical_spelling(CXType type) { return type_spelling(clang_getCanonicalType(type)); }

  // The types a signature reaches are part of the ABI: record each one declared in a stable tree.
  void reach(CXType type) {
    switch (type.kind) {
      case CXType_Elaborated: reach(clang_Type_getNamedType(type)); break;
      case CXType_Pointer:
      case CXType_LValueReference:
      case CXType_RValueReference: reach(clang_getPointeeType(type)); break;
      case CXType_ConstantArray:
      case CXType_IncompleteArray: reach(clang_getArrayElementType(type)); break;
      case CXType_FunctionProto:
      case CXType_FunctionNoProto:
        reach(clang_getResultType(type));
        for (int i = 0, n = clang_getNumArgTypes(type); i < n; ++i)
          reach(clang_getArgType(type, static_cast<unsigned>(i)));
        break;
      case CXType_Typedef: add_typedef(clang_getTypeDeclaration(type)); break;
      case CXType_Record: add_record(clang_getTypeDeclaration(type)); break;
      case CXType_Enum: add_enum(clang_getTypeDeclaration(type)); break;
      default: break;
    }
  }

  void add_typedef(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    CXType underlying = clang_getTypedefDeclUnderlyingType(cursor);
    if (!is_stable_header(position.header)) {
      reach(underlying);  // a typedef from elsewhere may still name a stable type
      return;
    }
    std::string name = type_spelling(clang_getCursorType(cursor));
    if (!found_.try_emplace({DeclarationKind::Typedef, name}).second) return;
    found_[{DeclarationKind::Typedef, name}] = {name,
                                                DeclarationKind::Typedef,
                                                fmt::format("using {} = {}", name, type_spelling(underlying)),
                                                position.header,
                                                position.line,
                                                "",
                                                {},
                                                // what the ABI sees: `using X = int64_t` and `= long` are one type
                                                canonical_spelling(underlying)};
    reach(underlying);
  }

  void add_record(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    if (!is_stable_header(position.header)) return;
    CXType type = clang_getCursorType(cursor);
    std::string name = type_spelling(type);
    if (!found_.try_emplace({DeclarationKind::Struct, name}).second) return;
    std::string signature = "struct " + name;
    long long size = clang_Type_getSizeOf(type);
    std::vector<CXType> field_types;
    if (size >= 0) {
      signature += " {";
      struct FieldWalk {
        std::string* signature;
        std::vector<CXType>* types;
      } walk{&signature, &field_types};
      clang_Type_visitFields(
          type,
          [](CXCursor field, CXClientData data) {
            auto* state = static_cast<FieldWalk*>(data);
            CXType field_type = clang_getCursorType(field);
            *state->signature += fmt::format(" {} {};", type_spelling(field_type), cursor_spelling(field));
            state->types->push_back(field_type);
            return CXVisit_Continue;
          },
          &walk);
      signature += fmt::format(" }} size {} align {}", size, clang_Type_getAlignOf(type));
    }
    found_[{DeclarationKind::Struct, name}] = {
        name, DeclarationKind::Struct, signature, position.header, position.line, "", {}};
    for (CXType field_type : field_types) reach(field_type);
  }

  // A struct of torch/headeronly that holds data (c10::Float8_e5m2, c10::qint8): an extension's inline
  // code and libtorch's kernels share its layout through tensors' data even where no shim signature
  // names it, so its members, size and alignment are recorded as for a reached struct. Helpers of
  // metaprogramming (no data member) and structs of detail namespaces are left out. A class of
  // torch/csrc/stable that holds data (torch::stable::Tensor, Generator, detail::StableLibrary) is
  // compiled into the extension with the layout of the headers it was built with, and its objects
  // cross into code compiled with other headers (a library's inline functions, another extension):
  // recorded too, its detail classes included (the registration macros build a StableLibrary).
  void add_data_struct(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    bool stable_class = position.header.starts_with("torch/csrc/stable/");
    if (!stable_class && !position.header.starts_with("torch/headeronly/")) return;
    if (!clang_isCursorDefinition(cursor)) return;
    if (cursor_spelling(cursor).empty()) return;  // an anonymous struct is its enclosing declaration's
    // A class of an anonymous namespace (2.9's StableLibrary) is each translation unit's own.
    if (type_spelling(clang_getCursorType(cursor)).starts_with("(anonymous")) return;
    std::string name = qualified_name(cursor);
    if (!stable_class && (name.find("detail::") != std::string::npos || name.find("impl::") != std::string::npos))
      return;
    CXType type = clang_getCursorType(cursor);
    if (clang_Type_getSizeOf(type) < 0) return;
    bool has_field = false;
    clang_Type_visitFields(
        type,
        [](CXCursor, CXClientData data) {
          *static_cast<bool*>(data) = true;
          return CXVisit_Break;
        },
        &has_field);
    if (has_field) add_record(cursor);
  }

  void add_enum(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    std::string name = type_spelling(clang_getCursorType(cursor));
    if (!is_stable_header(position.header) || cursor_spelling(cursor).empty()) return;
    if (!found_.try_emplace({DeclarationKind::Enum, name}).second) return;
    CXType integer = clang_getEnumDeclIntegerType(cursor);
    found_[{DeclarationKind::Enum, name}] = {
        name,
        DeclarationKind::Enum,
        fmt::format("enum {}{} : {}", clang_EnumDecl_isScoped(cursor) ? "class " : "", name, type_spelling(integer)),
        position.header,
        position.line,
        "",
        {}};
    bool is_unsigned = type_spelling(clang_getCanonicalType(integer)).starts_with("unsigned");
    for_each_child(cursor, [&](CXCursor constant) {
      if (clang_getCursorKind(constant) != CXCursor_EnumConstantDecl) return;
      std::string constant_name = name + "::" + cursor_spelling(constant);
      std::string value = is_unsigned ? std::to_string(clang_getEnumConstantDeclUnsignedValue(constant))
                                      : std::to_string(clang_getEnumConstantDeclValue(constant));
      HeaderPosition at = unit_.position_of(constant);
      found_[{DeclarationKind::EnumConstant, constant_name}] = {
          constant_name, DeclarationKind::EnumConstant, value, at.header, at.line, "", {}};
    });
  }

  // A class template that holds data (c10::complex<T>): no signature reaches it as a type until
  // instantiated, yet its layout is what an extension and libtorch share for every T. Recorded as a
  // struct whose signature is its parameters, bases and members as written. Helpers of
  // metaprogramming (no data member) and templates of detail namespaces are left out.
  void add_class_template(CXCursor cursor) {
    HeaderPosition position = unit_.position_of(cursor);
    if (!is_stable_header(position.header) || !clang_isCursorDefinition(cursor)) return;
    std::string name = qualified_name(cursor);
    if (name.find("detail::") != std::string::npos || name.find("impl::") != std::string::npos) return;
    std::vector<std::string> parameters, bases, members;
    for_each_child(cursor, [&](CXCursor child) {
      switch (clang_getCursorKind(child)) {
        case CXCursor_TemplateTypeParameter: parameters.push_back("typename " + cursor_spelling(child)); break;
        case CXCursor_NonTypeTemplateParameter:
          parameters.push_back(type_spelling(clang_getCursorType(child)) + " " + cursor_spelling(child));
          break;
        case CXCursor_TemplateTemplateParameter:
          parameters.push_back("template class " + cursor_spelling(child));
          break;
        case CXCursor_CXXBaseSpecifier: bases.push_back(type_spelling(clang_getCursorType(child))); break;
        case CXCursor_FieldDecl:
          members.push_back(type_spelling(clang_getCursorType(child)) + " " + cursor_spelling(child) + ";");
          break;
        default: break;
      }
    });
    if (members.empty()) return;
    std::string signature = fmt::format("template <{}> struct {}", fmt::join(parameters, ", "), name);
    if (!bases.empty()) signature += fmt::format(" : {}", fmt::join(bases, ", "));
    signature += fmt::format(" {{ {} }}", fmt::join(members, " "));
    found_.try_emplace(
        {DeclarationKind::Struct, name},
        ShimDeclaration{name, DeclarationKind::Struct, signature, position.header, position.line, "", {}});
  }

  // The release macros, and every other object-like macro whose value may be an integer constant
  // (error codes, TORCH_ABI_VERSION, the default TORCH_FEATURE_VERSION): an extension compiles their
  // values in. The value is filled in later, once, by evaluating the macro (see evaluate_macro_values);
  // a macro other than a release macro that does not evaluate to an integer is dropped there.
  void add_macro(CXCursor cursor) {
    std::string name = cursor_spelling(cursor);
    if (clang_Cursor_isMacroFunctionLike(cursor)) return;
    if (!is_release_macro_name(name) && !may_be_integer_constant(cursor)) return;
    HeaderPosition position = unit_.position_of(cursor);
    if (!is_stable_header(position.header)) return;
    found_.try_emplace({DeclarationKind::Macro, name},
                       ShimDeclaration{name, DeclarationKind::Macro, "", position.header, position.line, "", {}});
  }

  // A macro whose tokens after its name could form an expression that stays within its declaration:
  // none of `{ } ; #` or a string, which could turn the evaluation unit into something else (a macro
  // that opens a namespace), no __COUNTER__ or __LINE__ (a value of where it is used, C10_UID), and
  // at least one token (an include guard has none).
  bool may_be_integer_constant(CXCursor cursor) const {
    CXToken* tokens = nullptr;
    unsigned count = 0;
    clang_tokenize(unit_.get(), clang_getCursorExtent(cursor), &tokens, &count);
    bool fits = count > 1;
    for (unsigned i = 1; i < count && fits; ++i) {
      CXTokenKind kind = clang_getTokenKind(tokens[i]);
      std::string spelling = copy_cx_string(clang_getTokenSpelling(unit_.get(), tokens[i]));
      fits = kind != CXToken_Comment && spelling.find_first_of("{};#\"'") == std::string::npos &&
             spelling != "__COUNTER__" && spelling != "__LINE__";
    }
    clang_disposeTokens(unit_.get(), tokens, count);
    return fits;
  }

  const ClangTranslationUnit& unit_;
  VisibleDeclarations found_;
};

// One way an extension could compile the headers: a target (none: TORCH_TARGET_VERSION undefined)
// and the backend defines it sets.
struct ParseConfig {
  std::optional<TorchVersion> target;
  std::vector<std::string> defines;

  std::vector<std::string> arguments() const {
    std::vector<std::string> result;
    if (target) {
      result.push_back("-DTORCH_TARGET_VERSION=" + target->to_abi_hex());
      result.push_back("-DTORCH_STABLE_ONLY");
    }
    for (const auto& define : defines) result.push_back("-D" + define);
    return result;
  }
  std::string describe() const {
    std::string text = target ? "TORCH_TARGET_VERSION=" + target->to_string() : "no TORCH_TARGET_VERSION";
    for (const auto& define : defines) text += ", " + define;
    return text;
  }
};

struct ParseOutcome {
  VisibleDeclarations declarations;
  std::vector<std::string> errors;
};

// Runs every parse, `jobs` at a time; each parse owns its libclang index, so they do not share state.
std::vector<ParseOutcome> run_parses(const std::filesystem::path& include_dir, const std::string& source,
                                     const std::vector<ParseConfig>& configs, unsigned jobs) {
  std::vector<ParseOutcome> outcomes(configs.size());
  std::vector<std::exception_ptr> failures(configs.size());
  std::size_t next = 0;
  std::mutex next_mutex;
  auto worker = [&] {
    for (;;) {
      std::size_t index;
      {
        std::lock_guard lock(next_mutex);
        if (next == configs.size()) return;
        index = next++;
      }
      try {
        ClangTranslationUnit unit(include_dir, source, configs[index].arguments(),
                                  {.macros = true, .function_bodies = true});
        outcomes[index] = {DeclarationExtractor(unit).run(), unit.errors()};
      } catch (...) {
        failures[index] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < std::max(1u, std::min<unsigned>(jobs, configs.size())); ++i) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  return outcomes;
}

// Evaluates integer expressions over the headers' macros with libclang: `expressions` are C++
// expressions, the result is their values in order (none where one did not evaluate).
std::vector<std::optional<std::uint64_t>> evaluate_with_headers(const std::filesystem::path& include_dir,
                                                                const std::string& prelude,
                                                                const std::vector<std::string>& expressions) {
  std::string source = prelude;
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    source += fmt::format("constexpr unsigned long long torch_abi_check_value_{} = {};\n", i, expressions[i]);
  }
  ClangTranslationUnit unit(include_dir, source, {});
  std::vector<std::optional<std::uint64_t>> values(expressions.size());
  for_each_child(unit.root(), [&](CXCursor child) {
    std::string name = cursor_spelling(child);
    constexpr std::string_view prefix = "torch_abi_check_value_";
    if (clang_getCursorKind(child) != CXCursor_VarDecl || !name.starts_with(prefix)) return;
    std::size_t index = std::stoul(name.substr(prefix.size()));
    CXEvalResult result = clang_Cursor_Evaluate(child);
    if (result && clang_EvalResult_getKind(result) == CXEval_Int)
      values[index] = clang_EvalResult_getAsUnsigned(result);
    if (result) clang_EvalResult_dispose(result);
  });
  return values;
}

void evaluate_macro_values(const std::filesystem::path& include_dir, ShimInventory& inventory) {
  std::set<std::string> headers;
  std::vector<ShimDeclaration*> macros;
  std::vector<std::string> names;
  for (auto& declaration : inventory.declarations) {
    if (declaration.kind != DeclarationKind::Macro) continue;
    headers.insert(declaration.header);
    macros.push_back(&declaration);
    names.push_back(declaration.name);
  }
  if (macros.empty()) return;
  std::vector<std::string> header_list(headers.begin(), headers.end());
  auto values = evaluate_with_headers(include_dir, umbrella_source(header_list), names);
  for (std::size_t i = 0; i < macros.size(); ++i) {
    macros[i]->signature = values[i] ? fmt::format("0x{:016X}", *values[i]) : "";
  }
  // A macro that is no integer constant (an attribute, a type) is not part of what is compared.
  std::erase_if(inventory.declarations, [](const ShimDeclaration& d) {
    return d.kind == DeclarationKind::Macro && d.signature.empty() && !is_release_macro_name(d.name);
  });
}

// Decides `since` and `backend` of each declaration from the parses that saw it.
class VisibilityResolver {
 public:
  VisibilityResolver(const std::vector<ParseConfig>& configs, const std::vector<ParseOutcome>& outcomes,
                     TorchVersion release)
      : configs_(configs), outcomes_(outcomes), release_(release) {}

  std::optional<ShimDeclaration> resolve(const VisibleDeclarationKey& key) const {
    const ShimDeclaration* seen = nullptr;
    std::optional<TorchVersion> plain_since, backend_since;
    bool untargeted_plain = false;
    for (std::size_t i = 0; i < configs_.size(); ++i) {
      auto it = outcomes_[i].declarations.find(key);
      if (it == outcomes_[i].declarations.end()) continue;
      seen = &it->second;
      std::optional<TorchVersion> target = effective_target(configs_[i]);
      bool plain = configs_[i].defines.empty();
      if (!target) {
        untargeted_plain |= plain;
        continue;
      }
      auto& since = plain ? plain_since : backend_since;
      if (!since || *target < *since) since = target;
    }
    if (!seen) return std::nullopt;
    ShimDeclaration declaration = *seen;
    std::string needed_defines = plain_since || untargeted_plain ? "" : defines_needed_for(key);
    if (plain_since) {
      declaration.since = *plain_since;
    } else if (backend_since) {
      declaration.since = *backend_since;
      declaration.backend = needed_defines;
    } else {
      // Visible only when no target is set: not part of what a targeting extension can use.
      declaration.since = kOldestStableRelease;
      declaration.backend = needed_defines.empty() ? std::string(kUntargetedOnly)
                                                   : needed_defines + " && " + std::string(kUntargetedOnly);
    }
    if (declaration.backend.empty()) declaration.backend = backend_of_header(declaration.header);
    return declaration;
  }

  // 2.9 headers do not know TORCH_TARGET_VERSION, so their one untargeted parse stands for target 2.9.
  std::optional<TorchVersion> effective_target(const ParseConfig& config) const {
    if (config.target) return config.target;
    if (release_ < kFirstTargetableRelease) return kOldestStableRelease;
    return std::nullopt;
  }

 private:
  // The single backend define that makes the declaration visible (from the one-define parses), or
  // all of them when no single one does.
  std::string defines_needed_for(const VisibleDeclarationKey& key) const {
    std::vector<std::string> single;
    for (std::size_t i = 0; i < configs_.size(); ++i) {
      if (configs_[i].target || configs_[i].defines.size() != 1) continue;
      if (outcomes_[i].declarations.contains(key)) single.push_back(configs_[i].defines.front());
    }
    if (single.empty()) {
      for (std::string_view define : kBackendDefines) single.emplace_back(define);
      std::string joined;
      for (const auto& define : single) joined += (joined.empty() ? "" : " && ") + define;
      return joined;
    }
    return single.front();
  }

  const std::vector<ParseConfig>& configs_;
  const std::vector<ParseOutcome>& outcomes_;
  TorchVersion release_;
};

std::vector<ParseConfig> parse_configs(TorchVersion release) {
  std::vector<std::string> all_backends(std::begin(kBackendDefines), std::end(kBackendDefines));
  std::vector<ParseConfig> configs;
  configs.push_back({std::nullopt, {}});
  configs.push_back({std::nullopt, all_backends});
  for (std::string_view define : kBackendDefines) configs.push_back({std::nullopt, {std::string(define)}});
  if (release >= kFirstTargetableRelease) {
    for (TorchVersion target = kOldestStableRelease; target <= release; target.minor++) {
      configs.push_back({target, {}});
      configs.push_back({target, all_backends});
    }
  }
  return configs;
}

}  // namespace

TorchVersion read_release_from_headers(const std::filesystem::path& include_dir) {
  const std::string prelude =
      "#if __has_include(<torch/headeronly/version.h>)\n#include <torch/headeronly/version.h>\n"
      "#elif __has_include(<torch/csrc/api/include/torch/version.h>)\n"
      "#include <torch/csrc/api/include/torch/version.h>\n#endif\n";
  auto values = evaluate_with_headers(include_dir, prelude,
                                      {"TORCH_VERSION_MAJOR", "TORCH_VERSION_MINOR", "TORCH_VERSION_PATCH"});
  if (!values[0] || !values[1]) {
    throw ToolError(
        fmt::format("{}: the headers do not define TORCH_VERSION_MAJOR/MINOR "
                    "(torch/headeronly/version.h is missing)",
                    include_dir.string()));
  }
  return TorchVersion{static_cast<int>(*values[0]), static_cast<int>(*values[1]),
                      static_cast<int>(values[2].value_or(0))};
}

TorchVersion release_version(const ResolvedRelease& release) {
  if (release.version) return *release.version;
  require_stable_headers(release.include_dir);
  return read_release_from_headers(release.include_dir);
}

ShimInventory collect_inventory(const std::filesystem::path& include_dir, const InventoryOptions& options) {
  require_stable_headers(include_dir);
  TorchVersion release = options.release.value_or(read_release_from_headers(include_dir)).minor_release();
  if (release < kOldestStableRelease) {
    throw ToolError(fmt::format("{}: torch {} is older than {}, the first release with a stable ABI this tool reads",
                                include_dir.string(), release.to_string(), kOldestStableRelease.to_string()));
  }
  std::vector<std::string> headers = list_stable_headers(include_dir);
  std::vector<ParseConfig> configs = parse_configs(release);
  unsigned jobs = options.jobs ? options.jobs : std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  std::vector<ParseOutcome> outcomes = run_parses(include_dir, umbrella_source(headers), configs, jobs);

  ShimInventory inventory;
  inventory.release = release;
  std::set<std::string> notes;
  std::set<VisibleDeclarationKey> keys;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (!outcomes[i].errors.empty()) {
      // Without a target the headers must compile: anything else is a header that does not parse.
      if (!configs[i].target && !options.untargeted_errors_as_notes) {
        throw ToolError(fmt::format("{}: does not parse ({}): {}", include_dir.string(), configs[i].describe(),
                                    outcomes[i].errors.front()));
      }
      std::string context =
          configs[i].target ? "with TORCH_TARGET_VERSION defined" : "does not compile with " + configs[i].describe();
      for (const auto& error : outcomes[i].errors) notes.insert(context + ": " + error);
      for (const auto& error : outcomes[i].errors) {
        inventory.compile_failures.push_back({configs[i].target, configs[i].describe(), error});
      }
    }
    for (const auto& [key, declaration] : outcomes[i].declarations) keys.insert(key);
  }
  VisibilityResolver resolver(configs, outcomes, release);
  for (const auto& key : keys) {
    if (auto declaration = resolver.resolve(key)) inventory.declarations.push_back(std::move(*declaration));
  }
  evaluate_macro_values(include_dir, inventory);
  inventory.headers = std::move(headers);
  inventory.notes.assign(notes.begin(), notes.end());
  sort_compile_failures(inventory.compile_failures);
  inventory.sort();
  return inventory;
}

}  // namespace abicheck

#include "inventory/stable_methods.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "inventory/stable_header_tree.h"

namespace abicheck {
namespace {

bool is_class(CXCursorKind kind) {
  return kind == CXCursor_ClassDecl || kind == CXCursor_StructDecl || kind == CXCursor_ClassTemplate ||
         kind == CXCursor_ClassTemplatePartialSpecialization;
}

// "<typename, int>": what a template's parameters are, not their names.
std::string template_parameters(CXCursor cursor) {
  if (clang_getCursorKind(cursor) != CXCursor_FunctionTemplate) return "";
  std::vector<std::string> kinds;
  for_each_child(cursor, [&](CXCursor child) {
    switch (clang_getCursorKind(child)) {
      case CXCursor_TemplateTypeParameter: kinds.emplace_back("typename"); break;
      case CXCursor_NonTypeTemplateParameter:
        kinds.push_back(parameter_abi_spelling(clang_getCursorType(child)));
        break;
      case CXCursor_TemplateTemplateParameter: kinds.emplace_back("template"); break;
      default: break;
    }
  });
  return fmt::format("<{}>", fmt::join(kinds, ", "));
}

std::string qualifiers(CXCursor cursor) {
  std::string text;
  if (clang_CXXMethod_isConst(cursor)) text += " const";
  switch (clang_Type_getCXXRefQualifier(clang_getCursorType(cursor))) {
    case CXRefQualifier_LValue: text += " &"; break;
    case CXRefQualifier_RValue: text += " &&"; break;
    default: break;
  }
  return text;
}

// A parameter's default argument is no part of its type or cursor spelling: the header's tokens have it
// (`DeviceIndex index = -1`). A type cannot hold a lone `=` token (`==` is one token of its own).
bool has_default_argument(const ClangTranslationUnit& unit, CXCursor parameter) {
  return std::ranges::count(cursor_tokens(unit.get(), parameter), "=") > 0;
}

// `explicit` as written before the constructor's name or `operator` (libclang 14 has no query for it;
// clang_CXXConstructor_isConvertingConstructor counts explicit ones too).
bool declared_explicit(const ClangTranslationUnit& unit, CXCursor cursor) {
  std::string name = cursor_spelling(cursor);
  std::string_view stop = clang_getCursorKind(cursor) == CXCursor_ConversionFunction ? "operator" : name;
  for (const std::string& token : cursor_tokens(unit.get(), cursor)) {
    if (token == "explicit") return true;
    if (token == stop) return false;
  }
  return false;
}

}  // namespace

namespace {

bool is_inline_namespace(CXCursor cursor) {
  return clang_getCursorKind(cursor) == CXCursor_Namespace && clang_Cursor_isInlineNamespace(cursor) != 0;
}

}  // namespace

std::string qualified_name(CXCursor cursor) {
  // An inline namespace is not part of the name callers write (torch::stable::v2::f is called as
  // torch::stable::f): a declaration moved into one is the same declaration, and the name of such a
  // namespace is its enclosing one's.
  while (is_inline_namespace(cursor)) cursor = clang_getCursorSemanticParent(cursor);
  if (clang_Cursor_isNull(cursor) || clang_getCursorKind(cursor) == CXCursor_TranslationUnit) return "";
  std::string name = cursor_spelling(cursor);
  for (CXCursor parent = clang_getCursorSemanticParent(cursor);
       !clang_Cursor_isNull(parent) && clang_getCursorKind(parent) != CXCursor_TranslationUnit;
       parent = clang_getCursorSemanticParent(parent)) {
    if (is_inline_namespace(parent)) continue;
    std::string scope = cursor_spelling(parent);
    if (!scope.empty()) name = scope + "::" + name;
  }
  return name;
}

std::optional<ShimDeclaration> stable_method(const ClangTranslationUnit& unit, CXCursor cursor) {
  CXCursorKind kind = clang_getCursorKind(cursor);
  if (kind != CXCursor_CXXMethod && kind != CXCursor_Constructor && kind != CXCursor_ConversionFunction &&
      kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) {
    return std::nullopt;
  }
  HeaderPosition position = unit.position_of(cursor);
  if (!is_stable_header(position.header)) return std::nullopt;
  CXCursor parent = clang_getCursorSemanticParent(cursor);
  // An out-of-line definition (tensor_inl.h's Tensor::scalar_type): the class's declaration stands for it.
  if (!clang_equalCursors(parent, clang_getCursorLexicalParent(cursor))) return std::nullopt;
  bool member = is_class(clang_getCursorKind(parent));
  std::string scope = qualified_name(parent);
  // c10's own classes and the C shims (global, extern "C") are not this surface.
  if (!scope.starts_with("torch::")) return std::nullopt;
  if (!member && (scope.find("::detail") != std::string::npos || scope.find("::impl") != std::string::npos))
    return std::nullopt;
  if (clang_getCursorAvailability(cursor) == CXAvailability_NotAvailable) return std::nullopt;  // = delete
  CX_CXXAccessSpecifier access = clang_getCXXAccessSpecifier(cursor);
  if (access == CX_CXXPrivate || access == CX_CXXProtected) return std::nullopt;

  std::vector<std::string> types, spelled;
  int default_arguments = 0;
  for_each_child(cursor, [&](CXCursor child) {
    if (clang_getCursorKind(child) != CXCursor_ParmDecl) return;
    CXType type = clang_getCursorType(child);
    types.push_back(parameter_abi_spelling(type));
    std::string name = cursor_spelling(child);
    spelled.push_back(type_spelling(type) + (name.empty() ? "" : " " + name));
    // Defaults are trailing: a parameter without one resets the count.
    default_arguments = has_default_argument(unit, child) ? default_arguments + 1 : 0;
  });
  std::string callee = scope + "::" + cursor_spelling(cursor) + template_parameters(cursor);
  std::string tail = qualifiers(cursor);
  bool is_static = clang_CXXMethod_isStatic(cursor) != 0;
  CXType result = clang_getCursorResultType(cursor);
  bool has_result = kind != CXCursor_Constructor && kind != CXCursor_ConversionFunction;
  std::string name = fmt::format("{}({}){}", callee, fmt::join(types, ", "), tail);
  std::string signature =
      fmt::format("{}{}{}({}){}", is_static ? "static " : "", has_result ? type_spelling(result) + " " : "", callee,
                  fmt::join(spelled, ", "), tail);
  std::string abi_type =
      fmt::format("{}{}({}){}", is_static ? "static " : "",
                  has_result ? type_spelling(clang_getCanonicalType(result)) + " " : "", fmt::join(types, ", "), tail);
  ShimDeclaration method{name, DeclarationKind::Method, signature, position.header, position.line, "", {}, abi_type};
  method.default_arguments = default_arguments;
  method.is_explicit =
      (kind == CXCursor_Constructor || kind == CXCursor_ConversionFunction) && declared_explicit(unit, cursor);
  return method;
}

}  // namespace abicheck

#include "inventory/clang_translation_unit.h"

#include <fmt/format.h>

#include "core/tool_error.h"

namespace abicheck {

std::string parameter_abi_spelling(CXType type) {
  CXType canonical = clang_getCanonicalType(type);
  std::string text = type_spelling(canonical);
  if (!clang_isConstQualifiedType(canonical)) return text;
  constexpr std::string_view kConst = "const";
  if (text.ends_with(kConst) && text.size() > kConst.size() &&
      (text[text.size() - kConst.size() - 1] == '*' || text[text.size() - kConst.size() - 1] == ' ')) {
    text.erase(text.size() - kConst.size());
    while (!text.empty() && text.back() == ' ') text.pop_back();
  } else if (text.starts_with("const ")) {
    text.erase(0, kConst.size() + 1);
  }
  return text;
}

ClangTranslationUnit::ClangTranslationUnit(const std::filesystem::path& include_dir, const std::string& source,
                                           const std::vector<std::string>& arguments, ParseDepth depth) {
  std::string include = std::filesystem::absolute(include_dir).lexically_normal().string();
  while (include.size() > 1 && include.back() == '/') include.pop_back();
  include_prefix_ = include + "/";

  // The in-memory source gets a name inside the include dir so that relative positions work; no
  // file is created there.
  std::string source_name = include_prefix_ + "__torch_abi_check_probe__.cpp";
  std::vector<std::string> owned = {"-x", "c++", "-std=c++17", "-w", "-I" + include};
  owned.insert(owned.end(), arguments.begin(), arguments.end());
  std::vector<const char*> argv;
  for (const auto& argument : owned) argv.push_back(argument.c_str());
  CXUnsavedFile unsaved{source_name.c_str(), source.c_str(), static_cast<unsigned long>(source.size())};

  unsigned flags = CXTranslationUnit_KeepGoing;
  if (!depth.function_bodies) flags |= CXTranslationUnit_SkipFunctionBodies;
  if (depth.macros) flags |= CXTranslationUnit_DetailedPreprocessingRecord;
  index_ = clang_createIndex(0, 0);
  CXErrorCode status = clang_parseTranslationUnit2(index_, source_name.c_str(), argv.data(),
                                                   static_cast<int>(argv.size()), &unsaved, 1, flags, &unit_);
  if (status != CXError_Success || unit_ == nullptr) {
    clang_disposeIndex(index_);
    throw ToolError(
        fmt::format("{}: libclang could not parse the stable headers (error {})", include, static_cast<int>(status)));
  }
  for (unsigned i = 0, n = clang_getNumDiagnostics(unit_); i < n; ++i) {
    CXDiagnostic diagnostic = clang_getDiagnostic(unit_, i);
    if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error) {
      CXFile file = nullptr;
      unsigned line = 0;
      clang_getExpansionLocation(clang_getDiagnosticLocation(diagnostic), &file, &line, nullptr, nullptr);
      std::string name = file ? copy_cx_string(clang_getFileName(file)) : "<command line>";
      if (name.starts_with(include_prefix_)) name.erase(0, include_prefix_.size());
      errors_.push_back(fmt::format("{}:{}: {}", name, line, copy_cx_string(clang_getDiagnosticSpelling(diagnostic))));
    }
    clang_disposeDiagnostic(diagnostic);
  }
}

ClangTranslationUnit::~ClangTranslationUnit() {
  clang_disposeTranslationUnit(unit_);
  clang_disposeIndex(index_);
}

HeaderPosition ClangTranslationUnit::position_of(CXCursor cursor) const {
  CXFile file = nullptr;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(cursor), &file, &line, nullptr, nullptr);
  if (!file) return {};
  std::string name = copy_cx_string(clang_getFileName(file));
  if (!name.starts_with(include_prefix_)) return {};
  return {name.substr(include_prefix_.size()), static_cast<int>(line)};
}

std::vector<std::string> cursor_tokens(CXTranslationUnit unit, CXCursor cursor) {
  CXToken* tokens = nullptr;
  unsigned count = 0;
  clang_tokenize(unit, clang_getCursorExtent(cursor), &tokens, &count);
  std::vector<std::string> spellings;
  spellings.reserve(count);
  for (unsigned i = 0; i < count; ++i) spellings.push_back(copy_cx_string(clang_getTokenSpelling(unit, tokens[i])));
  clang_disposeTokens(unit, tokens, count);
  return spellings;
}

}  // namespace abicheck

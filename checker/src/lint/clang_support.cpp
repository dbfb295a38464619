#include "lint/clang_support.h"

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <set>

#include "core/tool_error.h"

namespace abicheck {

namespace {

std::filesystem::path normal_file_path(CXFile file) {
  if (!file) return {};
  std::string name = copy_cx_string(clang_File_tryGetRealPathName(file));
  if (name.empty()) name = copy_cx_string(clang_getFileName(file));
  return std::filesystem::path(name).lexically_normal();
}

}  // namespace

SourcePosition expansion_position(CXSourceLocation location) {
  CXFile file = nullptr;
  unsigned line = 0;
  unsigned column = 0;
  clang_getExpansionLocation(location, &file, &line, &column, nullptr);
  return {normal_file_path(file), static_cast<int>(line), static_cast<int>(column)};
}

std::filesystem::path cursor_file(CXCursor cursor) { return expansion_position(clang_getCursorLocation(cursor)).file; }

std::string undeclared_name_in(const std::string& message) {
  static const std::regex pattern(
      R"(^(?:use of undeclared identifier|unknown type name|no member named|no type named|no template named|use of undeclared) '([^']+)')");
  std::smatch match;
  if (!std::regex_search(message, match, pattern)) return {};
  return match[1].str();
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

void visit_descendants(CXCursor root, const std::function<bool(CXCursor)>& visit) {
  clang_visitChildren(
      root,
      [](CXCursor cursor, CXCursor, CXClientData data) {
        const auto& callback = *static_cast<const std::function<bool(CXCursor)>*>(data);
        return callback(cursor) ? CXChildVisit_Recurse : CXChildVisit_Continue;
      },
      const_cast<std::function<bool(CXCursor)>*>(&visit));
}

ParsedUnit::ParsedUnit(const std::filesystem::path& source, const std::vector<std::string>& arguments,
                       const std::vector<UnsavedFile>& unsaved_files) {
  index_ = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  std::vector<const char*> argv;
  argv.reserve(arguments.size());
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  std::vector<CXUnsavedFile> unsaved;
  for (const auto& file : unsaved_files) {
    unsaved.push_back({file.path.c_str(), file.content.c_str(), static_cast<unsigned long>(file.content.size())});
  }
  unsigned options = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing;
  CXErrorCode error =
      clang_parseTranslationUnit2(index_, source.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
                                  static_cast<unsigned>(unsaved.size()), options, &unit_);
  if (error != CXError_Success || !unit_) {
    clang_disposeIndex(index_);
    throw ToolError(
        fmt::format("{}: libclang could not parse it (error {})", source.string(), static_cast<int>(error)));
  }
}

ParsedUnit::~ParsedUnit() {
  clang_disposeTranslationUnit(unit_);
  clang_disposeIndex(index_);
}

std::vector<std::string> system_headers_of(const ParsedUnit& unit,
                                           const std::function<bool(const std::filesystem::path&)>& is_system) {
  std::set<std::string> names;
  visit_descendants(unit.root(), [&](CXCursor cursor) {
    if (clang_getCursorKind(cursor) != CXCursor_InclusionDirective) return false;
    CXFile included = clang_getIncludedFile(cursor);
    if (included && !is_system(cursor_file(cursor)) && is_system(normal_file_path(included))) {
      names.insert(copy_cx_string(clang_getCursorSpelling(cursor)));
    }
    return false;
  });
  return {names.begin(), names.end()};
}

std::optional<std::filesystem::path> precompile_headers(const std::vector<std::string>& headers,
                                                        const std::vector<std::string>& arguments,
                                                        const std::filesystem::path& directory) {
  if (headers.empty()) return std::nullopt;
  std::filesystem::path prelude = directory / "system_headers.hpp";
  std::filesystem::path output = directory / "system_headers.pch";
  {
    std::ofstream out(prelude);
    for (const auto& header : headers) out << "#include <" << header << ">\n";
  }
  std::vector<const char*> argv;
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit unit = nullptr;
  bool saved = clang_parseTranslationUnit2(index, prelude.c_str(), argv.data(), static_cast<int>(argv.size()), nullptr,
                                           0, CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization,
                                           &unit) == CXError_Success &&
               clang_saveTranslationUnit(unit, output.c_str(), clang_defaultSaveOptions(unit)) == CXSaveError_None;
  if (unit) clang_disposeTranslationUnit(unit);
  clang_disposeIndex(index);
  if (!saved) return std::nullopt;
  return output;
}

}  // namespace abicheck

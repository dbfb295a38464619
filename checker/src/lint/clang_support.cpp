#include "lint/clang_support.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>

#include "core/lazy_libclang.h"
#include "core/process.h"
#include "core/tool_error.h"

namespace abicheck {

namespace {

std::filesystem::path normal_file_path(CXFile file) {
  if (!file) return {};
  std::string name = copy_cx_string(clang_File_tryGetRealPathName(file));
  if (name.empty()) name = copy_cx_string(clang_getFileName(file));
  return std::filesystem::path(name).lexically_normal();
}

// The options of every parse, and of the precompiled headers they read: libclang refuses a
// precompiled header built with other options than the parse that includes it.
constexpr unsigned kParseOptions = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing;

struct UnitRequest {
  const std::filesystem::path& source;
  std::vector<std::string> arguments;
  const std::vector<ParsedUnit::UnsavedFile>& unsaved_files;
  unsigned options;
};

CXErrorCode parse(CXIndex index, const UnitRequest& request, CXTranslationUnit* unit) {
  std::vector<const char*> argv;
  argv.reserve(request.arguments.size());
  for (const auto& argument : request.arguments) argv.push_back(argument.c_str());
  std::vector<CXUnsavedFile> unsaved;
  for (const auto& file : request.unsaved_files) {
    unsaved.push_back({file.path.c_str(), file.content.c_str(), static_cast<unsigned long>(file.content.size())});
  }
  return clang_parseTranslationUnit2(index, request.source.c_str(), argv.data(), static_cast<int>(argv.size()),
                                     unsaved.data(), static_cast<unsigned>(unsaved.size()), request.options, unit);
}

std::vector<std::string> without_precompiled_header(const std::vector<std::string>& arguments) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == "-include-pch") {
      ++i;
      continue;
    }
    kept.push_back(arguments[i]);
  }
  return kept;
}

std::string first_line_of(const std::string& text) {
  std::size_t start = text.find_first_not_of(" \n");
  if (start == std::string::npos) return {};
  std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The compile errors of a command line, as the clang driver of libclang's LLVM prints them.
std::string driver_diagnostics(const UnitRequest& request) {
  auto driver = libclang_driver();
  if (!driver) return {};
  std::vector<std::string> argv = {driver->string(), "-fsyntax-only"};
  argv.insert(argv.end(), request.arguments.begin(), request.arguments.end());
  argv.push_back(request.source.string());
  ProcessResult result = run_process({.argv = argv, .timeout = std::chrono::seconds(120)});
  return result.succeeded() ? std::string() : result.compiler_error();
}

// A refused parse returns no unit, so there are no diagnostics to ask for: libclang only prints
// them, to stderr, when its index is told to. The parse is repeated once that way with stderr
// captured; one at a time, since stderr is the process's. Only refused parses (rare) come here.
// Errors of the command line itself (an unknown -std=) libclang does not print at all: the clang
// driver of the same LLVM does.
std::string diagnostics_of_refused_parse(const UnitRequest& request, CXErrorCode error) {
  // A crash would only crash again (libclang has printed its crash report already): say so.
  if (error == CXError_Crashed) return "error: libclang crashed while parsing it (a bug of the front end)";
  static std::mutex stderr_capture;
  std::string captured;
  {
    std::lock_guard lock(stderr_capture);
    std::FILE* sink = std::tmpfile();
    int saved_stderr = sink ? dup(STDERR_FILENO) : -1;
    if (saved_stderr >= 0) {
      std::fflush(stderr);
      dup2(fileno(sink), STDERR_FILENO);
      CXIndex index = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/1);
      CXTranslationUnit unit = nullptr;
      parse(index, request, &unit);
      if (unit) clang_disposeTranslationUnit(unit);
      clang_disposeIndex(index);
      std::fflush(stderr);
      dup2(saved_stderr, STDERR_FILENO);
      close(saved_stderr);
      std::rewind(sink);
      char buffer[4096];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, sink)) > 0;) captured.append(buffer, n);
    }
    if (sink) std::fclose(sink);
  }
  if (captured.find_first_not_of(" \n") == std::string::npos) captured = driver_diagnostics(request);
  if (captured.find_first_not_of(" \n") == std::string::npos) {
    captured = fmt::format("libclang gave no diagnostic (error {})", static_cast<int>(error));
  }
  return captured;
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

void visit_descendants(CXCursor root, const std::function<bool(CXCursor)>& visit) {
  clang_visitChildren(
      root,
      [](CXCursor cursor, CXCursor, CXClientData data) {
        const auto& callback = *static_cast<const std::function<bool(CXCursor)>*>(data);
        return callback(cursor) ? CXChildVisit_Recurse : CXChildVisit_Continue;
      },
      const_cast<std::function<bool(CXCursor)>*>(&visit));
}

UnparsableSource::UnparsableSource(const std::filesystem::path& source, std::string diagnostics)
    : ToolError(fmt::format("{}: libclang could not parse it: {}", source.string(), first_line_of(diagnostics))),
      diagnostics_(std::move(diagnostics)) {}

ParsedUnit::ParsedUnit(const std::filesystem::path& source, const std::vector<std::string>& arguments,
                       const std::vector<UnsavedFile>& unsaved_files) {
  index_ = clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  UnitRequest request{source, arguments, unsaved_files, kParseOptions};
  CXErrorCode error = parse(index_, request, &unit_);
  if (error != CXError_Success && std::ranges::count(arguments, "-include-pch")) {
    request.arguments = without_precompiled_header(arguments);
    error = parse(index_, request, &unit_);
  }
  if (error != CXError_Success || !unit_) {
    clang_disposeIndex(index_);
    throw UnparsableSource(source, diagnostics_of_refused_parse(request, error));
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
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit unit = nullptr;
  const std::vector<ParsedUnit::UnsavedFile> no_unsaved_files;
  UnitRequest request{prelude, arguments, no_unsaved_files,
                      kParseOptions | CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization};
  bool saved = parse(index, request, &unit) == CXError_Success &&
               clang_saveTranslationUnit(unit, output.c_str(), clang_defaultSaveOptions(unit)) == CXSaveError_None;
  if (unit) clang_disposeTranslationUnit(unit);
  clang_disposeIndex(index);
  if (!saved) return std::nullopt;
  return output;
}

}  // namespace abicheck

#pragma once

#include <clang-c/Index.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clang_string.h"
#include "core/tool_error.h"
#include "lint/lint_rule.h"

namespace abicheck {

// Small RAII and conversion helpers over libclang's C API, shared by the lints.

// The file, line and column where code at this location ends up after macro expansion (the
// place a user sees), with the file made absolute and normal.
SourcePosition expansion_position(CXSourceLocation location);
std::filesystem::path cursor_file(CXCursor cursor);

// Calls visit on each descendant (pre-order); visit returns false to skip a node's children.
void visit_descendants(CXCursor root, const std::function<bool(CXCursor)>& visit);

// libclang refused a source outright (no unit at all, so nothing of it can be linted). `what()` is
// one line: the source and libclang's first diagnostic; `diagnostics` all that libclang printed.
class UnparsableSource : public ToolError {
 public:
  UnparsableSource(const std::filesystem::path& source, std::string diagnostics);
  const std::string& diagnostics() const { return diagnostics_; }

 private:
  std::string diagnostics_;
};

// A parsed translation unit that owns its index. Parsing goes on after errors (a missing include
// does not stop it), so a file that does not compile still yields what could be seen.
class ParsedUnit {
 public:
  struct UnsavedFile {
    std::string path;
    std::string content;
  };
  // Throws UnparsableSource when libclang cannot parse at all. A precompiled header it cannot use
  // (`-include-pch` in `arguments`) only costs time: the source is parsed again without it.
  ParsedUnit(const std::filesystem::path& source, const std::vector<std::string>& arguments,
             const std::vector<UnsavedFile>& unsaved_files = {});
  ~ParsedUnit();
  ParsedUnit(const ParsedUnit&) = delete;
  ParsedUnit& operator=(const ParsedUnit&) = delete;

  CXTranslationUnit get() const { return unit_; }
  CXCursor root() const { return clang_getTranslationUnitCursor(unit_); }

 private:
  CXIndex index_ = nullptr;
  CXTranslationUnit unit_ = nullptr;
};

// The headers a parse read from outside the code being linted (is_system says which files are
// outside), spelled as the directives that reach them from that code spell them (<iostream>):
// what the next parses of the same kind can read from one precompiled header instead.
std::vector<std::string> system_headers_of(const ParsedUnit& unit,
                                           const std::function<bool(const std::filesystem::path&)>& is_system);

// Builds a precompiled header of `headers` in `directory` with the language and macro arguments
// of the parses that will use it (`-x c++-header` and the rest), for their `-include-pch`; nothing
// when libclang cannot (those parses then read the headers themselves, only slower). A parse may
// define more macros than the precompiled header saw (TORCH_TARGET_VERSION, USE_CUDA): the
// system headers do not read them.
std::optional<std::filesystem::path> precompile_headers(const std::vector<std::string>& headers,
                                                        const std::vector<std::string>& arguments,
                                                        const std::filesystem::path& directory);

}  // namespace abicheck

#pragma once

#include <clang-c/Index.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/clang_string.h"

namespace abicheck {

// The spelling of a cursor or a type, copied out of libclang.
inline std::string cursor_spelling(CXCursor cursor) { return copy_cx_string(clang_getCursorSpelling(cursor)); }
inline std::string type_spelling(CXType type) { return copy_cx_string(clang_getTypeSpelling(type)); }

// The spelling of every token of the cursor's extent, in order, as the header wrote them (macros not
// expanded): what no cursor or type spelling keeps, such as `explicit` or a parameter's `= default`.
std::vector<std::string> cursor_tokens(CXTranslationUnit unit, CXCursor cursor);

// A parameter's type as the function's type has it: canonical, and without a top-level `const`
// (`const int64_t d`, `AtenTensorHandle const h`), which only binds the definition's own copy: the
// declarations `f(int64_t)` and `f(const int64_t)` are one function to every caller.
std::string parameter_abi_spelling(CXType type);

// Where a cursor's declaration was written, relative to the include dir of the parse ("" when it
// is not under it, e.g. a system header). Macro-expanded declarations count where they expand.
struct HeaderPosition {
  std::string header;
  int line = 0;
};

// What a parse reads beyond the declarations.
struct ParseDepth {
  bool macros = false;  // the preprocessor's record: macro definitions are cursors of the unit
  // Inline function bodies compiled (they are skipped otherwise): an error in a body (a macro that
  // expands to a shim the target hides, a member a wrapper uses removed) is then one of errors().
  bool function_bodies = false;
};

// One parse of a generated source by libclang: the index and translation unit are owned here and
// disposed together. Each instance is independent, so several can parse on different threads.
class ClangTranslationUnit {
 public:
  // `source` is an in-memory file (never written to disk) compiled as C++17 with `arguments` added;
  // include_dir is added as -I and is what positions are made relative to.
  ClangTranslationUnit(const std::filesystem::path& include_dir, const std::string& source,
                       const std::vector<std::string>& arguments, ParseDepth depth = {});
  ~ClangTranslationUnit();
  ClangTranslationUnit(const ClangTranslationUnit&) = delete;
  ClangTranslationUnit& operator=(const ClangTranslationUnit&) = delete;

  CXTranslationUnit get() const { return unit_; }
  CXCursor root() const { return clang_getTranslationUnitCursor(unit_); }
  // Every error and fatal error as "header:line: message", headers relative to the include dir.
  const std::vector<std::string>& errors() const { return errors_; }
  HeaderPosition position_of(CXCursor cursor) const;

 private:
  std::string include_prefix_;  // the include dir as clang spells it, with a trailing '/'
  CXIndex index_ = nullptr;
  CXTranslationUnit unit_ = nullptr;
  std::vector<std::string> errors_;
};

// Visits the direct children of `parent` with any callable taking a CXCursor.
template <typename Visitor>
void for_each_child(CXCursor parent, Visitor&& visitor) {
  clang_visitChildren(
      parent,
      [](CXCursor child, CXCursor, CXClientData data) {
        (*static_cast<Visitor*>(data))(child);
        return CXChildVisit_Continue;
      },
      &visitor);
}

}  // namespace abicheck

#pragma once

#include <clang-c/Index.h>

#include <string>

namespace abicheck {

// Takes a libclang string: copies it and disposes of libclang's, so no CXString outlives a call.
inline std::string copy_cx_string(CXString text) {
  const char* chars = clang_getCString(text);
  std::string copy = chars != nullptr ? chars : "";
  clang_disposeString(text);
  return copy;
}

}  // namespace abicheck

#include "core/lazy_libclang.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include "core/tool_error.h"

namespace abicheck {

void* libclang_symbol(const char* name) {
  static void* const library = [] {
    void* handle = dlopen(TORCH_ABI_CHECK_LIBCLANG, RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw ToolError(fmt::format("cannot load libclang: {}", dlerror()));
    return handle;
  }();
  void* symbol = dlsym(library, name);
  if (!symbol) throw ToolError(fmt::format("{} has no function {}", TORCH_ABI_CHECK_LIBCLANG, name));
  return symbol;
}

}  // namespace abicheck

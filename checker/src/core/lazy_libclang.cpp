#include "core/lazy_libclang.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>

#include "core/tool_error.h"

namespace abicheck {

namespace {

// $TORCH_ABI_CHECK_LIBCLANG, else the library the build found (Debian's libclang-14): a CLI
// installed from the Python package runs on machines that may keep libclang elsewhere.
const char* libclang_path() {
  const char* configured = std::getenv("TORCH_ABI_CHECK_LIBCLANG");
  return configured != nullptr && *configured != '\0' ? configured : TORCH_ABI_CHECK_LIBCLANG;
}

}  // namespace

void* libclang_symbol(const char* name) {
  static void* const library = [] {
    void* handle = dlopen(libclang_path(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      throw ToolError(
          fmt::format("cannot load libclang, which the lint, inventory and baseline parse headers with ({}); install "
                      "Debian's libclang-14-dev (apt-get install libclang-14-dev) or set TORCH_ABI_CHECK_LIBCLANG to a "
                      "libclang.so",
                      dlerror()));
    }
    return handle;
  }();
  void* symbol = dlsym(library, name);
  if (!symbol) throw ToolError(fmt::format("{} has no function {}", libclang_path(), name));
  return symbol;
}

std::optional<std::filesystem::path> libclang_driver() {
  // The library's own path first (Debian's /usr/lib/llvm-14/lib/libclang.so is a link out of that
  // tree), then the file it resolves to.
  std::error_code error;
  std::filesystem::path library = std::filesystem::absolute(libclang_path(), error).lexically_normal();
  for (const auto& candidate : {library, std::filesystem::canonical(library, error)}) {
    std::filesystem::path driver = candidate.parent_path().parent_path() / "bin" / "clang";
    if (!candidate.empty() && std::filesystem::is_regular_file(driver, error)) return driver;
  }
  return std::nullopt;
}

}  // namespace abicheck

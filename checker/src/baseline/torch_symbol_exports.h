#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baseline/symbol_digests.h"

namespace abicheck {

// Whether a library's file name or soname is one torch builds itself: libtorch*, libc10*, libshm*, libcaffe2*.
bool is_torch_built_library(std::string_view name);

// Which symbols a torch release's own libraries export (libtorch*.so, libc10*.so, libshm.so,
// libcaffe2*.so in its lib/): what an extension's libtorch C++ imports bind to when it is loaded
// into that release. The one owner of "does torch X define this C++ symbol" (docs/device-runtime.md).
class TorchSymbolExports {
 public:
  // The libraries of lib_dir that torch builds itself (libtorch*, libc10*, libshm*, libcaffe2*) and
  // those of lib_dir they NEED (the libgomp a wheel bundles: an extension linked against libtorch_cpu
  // binds GOMP_barrier there, without naming libgomp itself), sorted by file name; not a bundled
  // library that none of them NEEDs, where the loader does not look.
  static std::vector<std::filesystem::path> torch_libraries(const std::filesystem::path& lib_dir);

  // Reads the dynamic symbol tables of torch_libraries(lib_dir) with libelf. Throws ToolError naming
  // a library that is not a readable ELF object.
  static TorchSymbolExports read(const std::filesystem::path& lib_dir);

  bool exports(std::string_view symbol) const;
  const std::vector<std::string>& libraries() const { return libraries_; }  // file names, sorted
  std::size_t symbol_count() const { return symbols_.size(); }

  // The cache file's bytes, and back (nullopt for a file of another format or a truncated one).
  std::string serialize() const;
  static std::optional<TorchSymbolExports> deserialize(std::string_view bytes);

 private:
  std::vector<std::string> libraries_;
  SymbolDigests symbols_;
};

// The cache key of lib_dir's torch libraries: each one's file name, size and GNU build id (derived
// by the linker from its content); the whole file's bytes for a library without a build id.
std::string torch_exports_key(const std::filesystem::path& lib_dir);

// The exports of the torch whose libraries are in lib_dir: read once per process, and once per
// content (torch_exports_key) into cache_dir/<key>.exports, which later processes read instead
// (an unwritable cache_dir only costs the reading). Thread-safe. Throws ToolError like read.
std::shared_ptr<const TorchSymbolExports> torch_symbol_exports(const std::filesystem::path& lib_dir,
                                                               const std::filesystem::path& cache_dir);
// The same with the tool's cache: user_cache_dir()/torch-exports.
std::shared_ptr<const TorchSymbolExports> torch_symbol_exports(const std::filesystem::path& lib_dir);

}  // namespace abicheck

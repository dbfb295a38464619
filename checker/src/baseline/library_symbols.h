#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baseline/symbol_digests.h"

namespace abicheck {

// What one shared library gives the dynamic loader: the sonames it NEEDs (what the loader opens
// next) and the names its dynamic symbol table exports (for_each_exported_symbol). The libraries an
// object's load reaches besides torch's own (the system's libc, libstdc++, librt, ...; the NVIDIA
// wheels' libraries) are read through it, once per process each.
class LibrarySymbols {
 public:
  // Throws ToolError naming a file that is not a readable ELF object.
  static LibrarySymbols read(const std::filesystem::path& library);
  // What an object read elsewhere gives (a wheel's entry, read by the audit as it streams by).
  static LibrarySymbols of(std::vector<std::string> needed, SymbolDigests exported);

  bool exports(std::string_view symbol) const;
  const std::vector<std::string>& needed() const { return needed_; }

  // The cache file's bytes, and back (nullopt for a file of another format or a truncated one).
  std::string serialize() const;
  static std::optional<LibrarySymbols> deserialize(std::string_view bytes);

 private:
  std::vector<std::string> needed_;
  SymbolDigests symbols_;
};

// The symbols of `library`, read once per process per (canonical path, size, modification time),
// and once per such key into cache_dir/<key>.symbols, which later processes read instead (an
// unwritable cache_dir only costs the reading): an audit asks for libc at every object and release,
// and a CUDA release's load reaches some 30 libraries whose tables cost more to read than most
// objects. Thread-safe. Throws ToolError like LibrarySymbols::read.
std::shared_ptr<const LibrarySymbols> library_symbols(const std::filesystem::path& library,
                                                      const std::filesystem::path& cache_dir);
// The same with the tool's cache: user_cache_dir()/library-symbols.
std::shared_ptr<const LibrarySymbols> library_symbols(const std::filesystem::path& library);

// Where this machine's loader finds a soname outside any RPATH: its cache (`ldconfig -p`, the entry
// of this machine's word size and architecture), else the default directories (/lib64, /usr/lib64,
// /lib/<multiarch>, /usr/lib/<multiarch>, /lib, /usr/lib). nullopt when none has it. The cache is
// read once per process.
std::optional<std::filesystem::path> find_system_library(std::string_view soname);

// The system library among the C and C++ runtimes every process loads (libc, libm, libstdc++,
// libgcc_s, the loader) and those glibc split off or merged into libc over its releases (librt,
// libpthread, libdl), found by soname on this machine, that defines `symbol`; "" when none does.
// What makes an unversioned shm_open a system symbol wherever glibc moved it (librt before 2.34).
std::string system_runtime_library_defining(std::string_view symbol);

}  // namespace abicheck

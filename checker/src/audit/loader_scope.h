#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "baseline/library_symbols.h"
#include "baseline/torch_symbol_exports.h"
#include "store/release_store.h"

namespace abicheck {

// A package's own libraries (a wheel's ELF objects) by their path inside it ("pkg.libs/libfoo.so.1"):
// what the loader binds where an object of the package finds one through its RUNPATH (package_search.h).
struct PackageLibrary {
  std::shared_ptr<const LibrarySymbols> symbols;
  std::vector<std::string> search_path;  // its own RUNPATH (else RPATH), for what it NEEDs in turn
};
using PackageLibraries = std::map<std::string, PackageLibrary, std::less<>>;

// Where an object sits in its package: none (a file audited alone), or its path inside the package
// and its RUNPATH (else RPATH).
struct PackagePlace {
  const PackageLibraries* libraries = nullptr;
  std::string entry;
  std::vector<std::string> search_path;
};

// What an ELF object's load into one release makes available, searched the way the dynamic loader
// searches: torch's own libraries (TorchSymbolExports, loaded by `import torch` before any
// extension), the libraries they NEED outside torch/lib (libc, libstdc++, the NVIDIA wheels' CUDA
// libraries), and the object's own NEEDED closure. A soname is found in the release's torch/lib, in
// the NVIDIA wheels beside it (nvidia/*/lib, where torch's RUNPATH points), else by the system's
// loader cache (find_system_library). A library of the object's own package is found first where its
// RUNPATH leads inside the package, as the loader finds it in the installed package. The one owner of
// "does anything this load reaches define S".
class LoaderScope {
 public:
  // `needed`: the object's DT_NEEDED sonames. `torch`: the release's exports (read by the caller,
  // which reports their failure). `place`: where the object sits in its package.
  LoaderScope(const std::vector<std::string>& needed, const StoredRelease& release,
              std::shared_ptr<const TorchSymbolExports> torch, const PackagePlace& place = {});

  // Every library of the object's closure was found: only then can a symbol be said to be defined
  // nowhere. Not found and still complete: libpython (the interpreter that imports the object
  // brings its symbols) and the driver's libcuda.so.1 (it comes with the machine, not the release).
  bool complete() const { return unresolved_.empty(); }
  const std::vector<std::string>& unresolved() const { return unresolved_; }

  bool defined_by_torch(std::string_view symbol) const { return torch_->exports(symbol); }
  // Defined by a library of the load other than torch's own: a system library's shm_open is never
  // torch's, whatever its unversioned name looks like.
  bool defined_outside_torch(std::string_view symbol) const;
  bool defines(std::string_view symbol) const { return defined_by_torch(symbol) || defined_outside_torch(symbol); }

  // What was searched, for "defined by none of: ...": the object's own libraries by soname, then
  // torch's and what they need, counted.
  std::string searched() const;

 private:
  struct Library {
    std::string soname;
    std::shared_ptr<const LibrarySymbols> symbols;
  };
  struct ReleaseBase;

  static std::shared_ptr<const ReleaseBase> release_base(const StoredRelease& release, const TorchSymbolExports& torch);

  std::string release_name_;
  std::shared_ptr<const TorchSymbolExports> torch_;
  std::shared_ptr<const ReleaseBase> base_;
  std::vector<std::string> needed_;  // the object's own NEEDED, in file order
  std::vector<Library> own_;         // the object's closure beyond the base, nearest first
  std::vector<std::string> unresolved_;
};

}  // namespace abicheck

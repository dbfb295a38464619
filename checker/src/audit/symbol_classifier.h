#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "audit/elf_reader.h"
#include "audit/shim_catalog.h"

namespace abicheck {

// Where an imported symbol comes from, as far as the stable-ABI contract is concerned.
enum class SymbolCategory {
  StableShim,     // a C shim function of the stable ABI (aoti_torch_*, torch_*)
  System,         // libc, libm, libstdc++, libgcc_s, the dynamic loader
  DeviceRuntime,  // CUDA and ROCm libraries
  PythonCApi,     // libpython
  UnstableTorch,  // libtorch's C++ ABI (c10::, at::, torch::, THP*): breaks across minor releases
  Unknown,        // anything else (vendored third-party libraries)
};

std::string_view to_string(SymbolCategory category);

struct ClassifiedSymbol {
  std::string name;       // as in the dynamic symbol table
  std::string demangled;  // the C++ name, or `name` for a C symbol
  SymbolCategory category = SymbolCategory::Unknown;
  // The C++ top-level namespace ("c10", "at", "torch", "std", "(global)") or, for C symbols, the
  // library the version requirement names; groups unstable symbols in reports.
  std::string group;
  std::optional<TorchVersion> introduced;  // stable shims: the release that introduced it
  std::string backend;                     // stable shims only on one backend: "USE_CUDA"
  // The library the import is bound to (ImportedSymbol::library): an ELF version requirement's file,
  // the dylib of a Mach-O two-level-namespace ordinal, a PE import DLL; empty when unknown.
  std::string library;
  bool weak = false;  // a weak import: the loader binds it to null when no object defines it
};

// Classifies one undefined dynamic symbol. A shim-shaped C name that no baseline declares is
// still a StableShim, with no `introduced`: no known release provides it.
ClassifiedSymbol classify_import(const ImportedSymbol& symbol, const ShimCatalog& catalog);

// The outermost namespace of an Itanium-mangled name ("_ZN3c106detail..." -> "c10"), "(global)"
// for a mangled name outside any namespace, "" when the name is not mangled.
std::string outermost_namespace(std::string_view mangled);

// Whether a needed library (soname, dylib or DLL name) is the system's: the C and C++ runtimes, the
// loader, libm, libpthread, libdl, librt.
bool is_system_library(std::string_view library);

// abi::__cxa_demangle, or the name itself when it is not a mangled C++ name.
std::string demangle(std::string_view name);

// False for a Python symbol that an abi3 (limited API) extension must not import. The limited API
// has no list installed with Python, so the rule is the documented naming one: private `_Py`
// names are outside it, except the few that its macros expand to.
bool is_limited_python_api(std::string_view name);

}  // namespace abicheck

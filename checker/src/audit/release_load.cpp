// assess_release_load: whether an audited object loads into a release (audit/binary_audit.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "audit/binary_audit.h"
#include "audit/loader_scope.h"
#include "audit/package_search.h"
#include "baseline/torch_symbol_exports.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

std::string toolkit_need(const DeviceLibrary& library) {
  if (library.tracks_toolkit_major && library.major) {
    return fmt::format("{} {}", to_string(library.toolkit), *library.major);
  }
  return std::string(to_string(library.toolkit));
}

std::vector<std::string> sonames(const std::vector<const DeviceLibrary*>& libraries) {
  std::vector<std::string> names;
  for (const auto* library : libraries) names.push_back(library->soname);
  return names;
}

// What the release brings instead, as the object of "torch 2.11 ships …": the toolkit's major only,
// since the misfit is the major (so 2.11 with CUDA 13.0 and 2.15 with 13.2 make one reason).
std::string release_has(const DeviceRuntime& runtime, const std::vector<const DeviceLibrary*>& shown) {
  if (!runtime.toolkit) return "no device runtime (a CPU build)";
  std::string toolkit = fmt::format("{} {}", to_string(runtime.toolkit->toolkit), runtime.toolkit->major);
  if (shown.empty()) return toolkit;
  return fmt::format("{} ({})", toolkit, fmt::join(sonames(shown), ", "));
}

// Whether the release brings `library`: a soname of the same family and major, or one whose major
// cannot be compared (an unversioned soname).
bool provides(const DeviceRuntime& runtime, const DeviceLibrary& library) {
  return std::ranges::any_of(runtime.of_family(library.family), [&](const DeviceLibrary* shipped) {
    return !shipped->major || !library.major || *shipped->major == *library.major;
  });
}

void add_device_misfits(const DeviceNeeds& needs, const DeviceRuntime& runtime, ReleaseLoad& load) {
  // Libraries that need another toolkit (CPU, CUDA against ROCm, another major) make one misfit:
  // libcudart.so.12 and libcublas.so.12 against CUDA 13 are one reason, not two.
  std::vector<const DeviceLibrary*> other_toolkit;
  std::vector<const DeviceLibrary*> shipped_instead;
  for (const auto& library : needs.libraries) {
    if (library.bundled_copy || (runtime.toolkit && provides(runtime, library))) continue;
    auto same_family = runtime.of_family(library.family);
    bool toolkit_differs = !runtime.toolkit || runtime.toolkit->toolkit != library.toolkit ||
                           (library.tracks_toolkit_major && library.major && *library.major != runtime.toolkit->major);
    if (toolkit_differs) {
      other_toolkit.push_back(&library);
      shipped_instead.insert(shipped_instead.end(), same_family.begin(), same_family.end());
    } else if (!same_family.empty()) {
      // The same toolkit with another major of a separately versioned library (cuDNN 8 against 9):
      // every build of this release brings the one it ships.
      load.device_misfits.push_back({.need = fmt::format("needs {}", library.soname),
                                     .has = fmt::format("{}", fmt::join(sonames(same_family), ", ")),
                                     .blocks_load = true,
                                     .other_build_may_fit = false});
    }
    // Not brought by the release at all (libnvjpeg): it must come from the system, which the audit
    // cannot see, so it is no reason either way.
  }
  if (!other_toolkit.empty()) {
    std::vector<std::string> needed = sonames(other_toolkit);
    load.device_misfits.push_back(
        {.need = fmt::format("needs {} runtime ({})", toolkit_need(*other_toolkit.front()), fmt::join(needed, ", ")),
         .has = release_has(runtime, shipped_instead),
         .blocks_load = true,
         .other_build_may_fit = true});
    return;
  }
  if (!needs.recorded) return;
  // What the package records about its build: a major the runtime lacks is refused by packages that
  // check at import (torchvision does) and by anything sharing device objects with torch; a minor
  // difference loads, since NVIDIA keeps a major's runtime compatible, but is worth knowing.
  const DeviceToolkitVersion& built = needs.recorded->version;
  std::string need = fmt::format("built for {} ({})", built.to_string(), needs.recorded->source);
  if (!runtime.toolkit || runtime.toolkit->toolkit != built.toolkit || runtime.toolkit->major != built.major) {
    load.device_misfits.push_back(
        {.need = need, .has = release_has(runtime, {}), .blocks_load = true, .other_build_may_fit = true});
  } else if (built.minor && runtime.toolkit->minor && *built.minor != *runtime.toolkit->minor) {
    const std::string& checker = needs.recorded->minor_checked_by;
    load.device_misfits.push_back(
        {.need = checker.empty() ? need : fmt::format("{}, and {} refuses another CUDA minor at import", need, checker),
         .has = runtime.describe(),
         .blocks_load = false,
         .other_build_may_fit = true,
         .refused_at_import = !checker.empty()});
  }
}

// The first few of `missing` demangled, and how many more: "c10::foo(int); at::bar() (+3 more)".
std::string first_symbols(const std::vector<std::string>& missing) {
  constexpr std::size_t kShown = 2;
  std::vector<std::string> shown;
  // A template's demangled name runs to a screen; its start says which function it is.
  constexpr std::size_t kLongest = 160;
  for (std::size_t i = 0; i < missing.size() && i < kShown; ++i) {
    std::string name = demangle(missing[i]);
    shown.push_back(name.size() > kLongest ? name.substr(0, kLongest - 3) + "..." : name);
  }
  std::string more = missing.size() > kShown ? fmt::format(" (+{} more)", missing.size() - kShown) : "";
  return fmt::format("{}{}", fmt::join(shown, "; "), more);
}

// Whether the object NEEDs a library that may define a plain C name: one that is neither torch's own,
// the system's nor the device runtime's (a library bundled in its wheel, libwebp beside
// torchvision's image.so).
bool needs_other_library(const ObjectAudit& object) {
  return std::ranges::any_of(object.needed, [](const std::string& library) {
    std::string_view name(library);
    return !is_torch_built_library(name) && !is_system_library(name) && !name.starts_with("libpython") &&
           !parse_device_library(library);
  });
}

// The undefined symbols the loader must bind and nothing the load reaches defines (LoaderScope): weak
// imports are bound to null, Python's C API by the interpreter that imports the object, and what is
// reported already: a libtorch C++ symbol torch does not export, a shim of a newer release (the
// shim catalog says which releases export each).
void add_undefined_symbol_misfit(const ObjectAudit& object, const LoaderScope& scope, ReleaseLoad& load) {
  for (const auto& symbol : object.imports) {
    if (symbol.weak || symbol.category == SymbolCategory::PythonCApi || symbol.category == SymbolCategory::StableShim) {
      continue;
    }
    if (std::ranges::binary_search(load.missing_torch_symbols, symbol.name) || scope.defines(symbol.name)) continue;
    load.undefined_symbols.push_back(symbol.name);
  }
  if (load.undefined_symbols.empty()) return;
  load.torch_misfits.push_back(fmt::format("undefined symbol{} {} (defined by none of: {})",
                                           load.undefined_symbols.size() == 1 ? "" : "s",
                                           first_symbols(load.undefined_symbols), scope.searched()));
}

// libtorch's C++ ABI promises nothing across releases, but whether the loader binds an object is a
// fact: every C++ symbol it imports from torch must be exported by the release's libraries, and every
// other symbol it imports must be defined by a library its load reaches. A plain C name is taken for
// libtorch_python's only by elimination (kTorchCLinkageGroup), so it is torch's only where torch
// exports it: a system library's shm_open is not, and a name nothing defines is an undefined symbol.
void add_symbol_misfits(const ObjectAudit& object, const StoredRelease& release, const PackageLibraries* package,
                        ReleaseLoad& load) {
  // Before the libraries are read, a C name is not counted where another library the object needs may define it.
  const bool c_names_may_be_elsewhere = needs_other_library(object);
  std::vector<const ClassifiedSymbol*> imports;
  for (const auto& symbol : object.imports) {
    if (symbol.category != SymbolCategory::UnstableTorch || symbol.weak) continue;
    if (c_names_may_be_elsewhere && symbol.group == kTorchCLinkageGroup) continue;
    imports.push_back(&symbol);
  }
  auto count = [](std::size_t n) { return fmt::format("{} libtorch C++ symbol{}", n, n == 1 ? "" : "s"); };
  const std::string version = release.version.to_full_string();
  if (object.format != BinaryFormat::Elf) {
    load.torch_cxx_imports = imports.size();
    if (imports.empty()) return;
    load.torch_misfits.push_back(
        fmt::format("imports {}; the store holds torch for Linux, whose exports say "
                    "nothing of torch {} for {}",
                    count(imports.size()), version, platform_display_name(object.format)));
    return;
  }
  std::shared_ptr<const TorchSymbolExports> exports;
  try {
    exports = torch_symbol_exports(release.lib_dir);
  } catch (const ToolError& error) {
    load.torch_cxx_imports = imports.size();
    if (imports.empty()) return;
    load.torch_misfits.push_back(fmt::format("imports {}; the libraries of torch {} cannot be read: {}",
                                             count(imports.size()), version, error.what()));
    return;
  }
  if (exports->libraries().empty()) {
    load.torch_cxx_imports = imports.size();
    if (imports.empty()) return;
    load.torch_misfits.push_back(fmt::format("imports {}; torch {} has no libtorch or libc10 library in {}",
                                             count(imports.size()), version, release.lib_dir.string()));
    return;
  }
  const LoaderScope scope(object.needed, release, exports,
                          {package, std::string(entry_in_package(object.path)), object.library_search_path});
  imports.clear();
  for (const auto& symbol : object.imports) {
    if (symbol.category != SymbolCategory::UnstableTorch || symbol.weak) continue;
    // Where every library of the load was found, a C name torch does not export is not torch's; where
    // one was not, it still is not when another library defines it, and is torch's by elimination only
    // when the object needs no library that might.
    if (symbol.group == kTorchCLinkageGroup && !scope.defined_by_torch(symbol.name) &&
        (scope.complete() || c_names_may_be_elsewhere || scope.defined_outside_torch(symbol.name))) {
      continue;
    }
    imports.push_back(&symbol);
  }
  load.torch_cxx_imports = imports.size();
  load.torch_cxx_checked = true;
  for (const auto* symbol : imports) {
    if (!exports->exports(symbol->name)) load.missing_torch_symbols.push_back(symbol->name);
  }
  std::ranges::sort(load.missing_torch_symbols);
  if (!load.missing_torch_symbols.empty()) {
    load.torch_misfits.push_back(fmt::format("torch {} does not export {} of the {} it imports: {}", version,
                                             load.missing_torch_symbols.size(), count(imports.size()),
                                             first_symbols(load.missing_torch_symbols)));
  }
  // A library of the load not found (one its wheel bundles, one the system lacks) may define anything.
  if (scope.complete()) add_undefined_symbol_misfit(object, scope, load);
}

}  // namespace

std::optional<DeviceToolkitVersion> DeviceNeeds::toolkit() const {
  for (const auto& library : libraries) {
    if (library.tracks_toolkit_major && library.major) {
      return DeviceToolkitVersion{.toolkit = library.toolkit, .major = *library.major};
    }
  }
  if (recorded) return recorded->version;
  return std::nullopt;
}

bool ReleaseLoad::device_runtime_fits() const {
  return std::ranges::none_of(device_misfits, &DeviceMisfit::blocks_load);
}

ReleaseLoad assess_release_load(const ObjectAudit& object, const StoredRelease& release,
                                const PackageLibraries* package) {
  ReleaseLoad load{.release = release.version, .runtime = release.device.describe()};
  const TorchVersion minor = release.version.minor_release();
  std::optional<TorchVersion> oldest =
      object.declared_target ? std::optional(object.declared_target->version) : object.min_torch_to_load;
  // Per minor release: `torch==2.9.1` claims 2.9.1, and the stable ABI does not change within a minor.
  load.claimed = !oldest || minor >= oldest->minor_release();
  add_symbol_misfits(object, release, package, load);
  for (const auto& shim : object.shims) {
    if (!shim.introduced && !shim.dynamic_lookup) {
      load.torch_misfits.push_back(fmt::format("imports {}, which no known torch release declares", shim.name));
    } else if (std::ranges::find(shim.not_exported_by, minor) != shim.not_exported_by.end()) {
      load.torch_misfits.push_back(fmt::format("torch {} for {} does not export {}", minor.to_string(),
                                               platform_display_name(object.format), shim.name));
    }
  }
  if (object.min_torch_to_load && *object.min_torch_to_load > minor) {
    load.torch_misfits.push_back(fmt::format("imports shims of torch {}", object.min_torch_to_load->to_string()));
  }
  add_device_misfits(object.device, release.device, load);
  return load;
}

}  // namespace abicheck

namespace abicheck {
namespace {

// "dir/libfoo.so.1" and "<wheel>!pkg/libfoo.so.1" -> "libfoo.so.1".
std::string_view file_name_of(std::string_view path) {
  std::size_t slash = path.find_last_of("/!");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The objects of `by_name` that `object` NEEDs, directly or through others of them, nearest first.
std::vector<const ObjectAudit*> bundled_dependencies(
    const ObjectAudit& object, const std::map<std::string, const ObjectAudit*, std::less<>>& by_name) {
  std::vector<const ObjectAudit*> reached;
  std::set<const ObjectAudit*> seen{&object};
  std::deque<const ObjectAudit*> pending{&object};
  while (!pending.empty()) {
    const ObjectAudit* current = pending.front();
    pending.pop_front();
    for (const auto& needed : current->needed) {
      auto found = by_name.find(file_name_of(needed));
      if (found != by_name.end() && seen.insert(found->second).second) {
        reached.push_back(found->second);
        pending.push_back(found->second);
      }
    }
  }
  return reached;
}

}  // namespace

void add_bundled_dependency_misfits(const std::vector<ObjectAudit*>& objects) {
  std::map<std::string, const ObjectAudit*, std::less<>> by_name;
  for (const ObjectAudit* object : objects) by_name.emplace(file_name_of(object->path), object);
  for (const ObjectAudit* object : objects) {
    if (!object->soname.empty()) by_name.emplace(object->soname, object);
  }
  // Each object's own loads, before any is inherited: a misfit names the library that has it.
  std::map<const ObjectAudit*, std::vector<ReleaseLoad>> own;
  for (const ObjectAudit* object : objects) own.emplace(object, object->loads);
  for (ObjectAudit* object : objects) {
    std::vector<const ObjectAudit*> dependencies = bundled_dependencies(*object, by_name);
    for (ReleaseLoad& load : object->loads) {
      bool device_blocked = !load.device_runtime_fits();
      for (const ObjectAudit* dependency : dependencies) {
        const auto& loads = own.at(dependency);
        auto same = std::ranges::find(loads, load.release, &ReleaseLoad::release);
        if (same == loads.end()) continue;
        std::string via = fmt::format("needs {} of its package, which", file_name_of(dependency->path));
        if (!same->torch_symbols_fit()) {
          load.torch_misfits.push_back(fmt::format("{} does not load: {}", via, same->torch_misfits.front()));
        }
        for (const auto& misfit : same->device_misfits) {
          if (!misfit.blocks_load || device_blocked) continue;
          DeviceMisfit inherited = misfit;
          inherited.need = fmt::format("{} {}", via, misfit.need);
          load.device_misfits.push_back(std::move(inherited));
          device_blocked = true;
        }
      }
    }
  }
}

}  // namespace abicheck

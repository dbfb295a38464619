// assess_release_load: whether an audited object loads into a release (audit/binary_audit.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "audit/binary_audit.h"

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
    load.device_misfits.push_back(
        {.need = need, .has = runtime.describe(), .blocks_load = false, .other_build_may_fit = true});
  }
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

ReleaseLoad assess_release_load(const ObjectAudit& object, const StoredRelease& release) {
  ReleaseLoad load{.release = release.version, .runtime = release.device.describe()};
  const TorchVersion minor = release.version.minor_release();
  std::optional<TorchVersion> oldest =
      object.declared_target ? std::optional(object.declared_target->version) : object.min_torch_to_load;
  // Per minor release: `torch==2.9.1` claims 2.9.1, and the stable ABI does not change within a minor.
  load.claimed = !oldest || minor >= oldest->minor_release();
  if (!object.unstable.empty()) {
    load.imports_unstable = true;
    load.torch_misfits.push_back("imports unstable libtorch C++ symbols: only the torch it was built with can load it");
  }
  for (const auto& shim : object.shims) {
    if (!shim.introduced && !shim.dynamic_lookup) {
      load.torch_misfits.push_back(fmt::format("imports {}, which no known torch release declares", shim.name));
    }
  }
  for (const auto& shim : object.shims) {
    if (std::ranges::find(shim.not_exported_by, minor) != shim.not_exported_by.end()) {
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

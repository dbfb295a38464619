#include "canary/canary_prediction.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "audit/import_time_checks.h"
#include "audit/python_imports.h"

namespace abicheck {
namespace {

// The object's path inside the package: "xformers/_C.so" of ".../unpacked/<hash>/xformers/_C.so"
// or of "<wheel>!xformers/_C.so".
std::string object_name(const ObjectAudit& object) {
  auto bang = object.path.rfind('!');
  if (bang != std::string::npos) return object.path.substr(bang + 1);
  return object.path;
}

struct Misfit {
  CanaryOutcome outcome;
  std::string reason;
};

// The reason one object gives under one release, in the order the loader meets them: it opens the
// NEEDED libraries first (a device runtime the release lacks is a missing library, whatever the
// symbols), then binds symbols (a torch misfit is an undefined symbol: a shim newer than the release,
// a libtorch C++ symbol the release does not export). A toolkit minor that differs from the
// release's is a reason only where the package's own import compares it
// (RecordedToolkit::minor_checked_by): a refusal, once everything bound (docs/canary.md).
std::optional<Misfit> object_misfit(const ObjectAudit& object, const ReleaseLoad& load) {
  for (const auto& misfit : load.device_misfits) {
    if (misfit.blocks_load) {
      return Misfit{CanaryOutcome::MissingLibrary, fmt::format("{}: {}; torch {} has {}", object_name(object),
                                                               misfit.need, load.release.to_string(), misfit.has)};
    }
  }
  if (!load.torch_misfits.empty()) {
    return Misfit{CanaryOutcome::UndefinedSymbol,
                  fmt::format("{}: {}", object_name(object), load.torch_misfits.front())};
  }
  // Everything binds; then the package's own Python compares its build's CUDA minor with torch's.
  for (const auto& misfit : load.device_misfits) {
    if (misfit.refused_at_import) {
      return Misfit{CanaryOutcome::Refused, fmt::format("{}: {}; torch {} has {}", object_name(object), misfit.need,
                                                        load.release.to_string(), misfit.has)};
    }
  }
  return std::nullopt;
}

// The package's own Python at import (ImportTimeChecks, read from the wheel): it loads only the copy
// of a library for the running torch's major.minor, may refuse a torch of another minor than its
// build's, and fails on a module it imports that nothing installed provides. Under a release: whether
// an object is a copy for another release (the loader never meets it), and the refusal, if any.
class ImportTimeDecisions {
 public:
  ImportTimeDecisions(const AuditReport& audit, const PackageImport& import) : audit_(audit) {
    if (import.modules.empty()) return;
    provided_ = importable_names(import.unpacked);
    provided_.merge(importable_names(import.dependencies));
    for (const auto& wheel : audit.wheels) {
      for (auto& module : modules_reached_at_import(wheel.import_checks.python_imports, import.modules)) {
        reached_.push_back({std::move(module), &wheel.import_checks.declared_requirements});
      }
    }
  }

  bool copy_for_another_release(const ObjectAudit& object, const TorchVersion& release) const {
    const ImportTimeChecks* checks = checks_of(object);
    if (checks == nullptr || checks->release_copy_picked_by.empty()) return false;
    auto copy = release_of_copy(object_name(object));
    return copy && *copy != release.minor_release();
  }

  std::optional<Misfit> refusal(const StoredRelease& stored) const {
    const TorchVersion& release = stored.version;
    if (auto undeclared = undeclared_import(stored)) return undeclared;
    for (const auto& wheel : audit_.wheels) {
      const ImportTimeChecks& checks = wheel.import_checks;
      if (auto insisted = checks.insisted_minor(); insisted && *insisted != release.minor_release()) {
        return Misfit{CanaryOutcome::Refused, fmt::format("{} refuses torch {} at import: built with torch {} ({})",
                                                          checks.torch_version_checked_by, release.to_string(),
                                                          insisted->to_string(), checks.torch_built_with_source)};
      }
    }
    // A library of which the package ships copies per release, none for this one.
    std::map<std::string, std::set<TorchVersion>> copies;
    for (const auto& object : audit_.binaries) {
      const ImportTimeChecks* checks = checks_of(object);
      if (checks == nullptr || checks->release_copy_picked_by.empty()) continue;
      if (auto copy = release_of_copy(object_name(object))) copies[copy_family(object_name(object))].insert(*copy);
    }
    for (const auto& [family, releases] : copies) {
      if (releases.contains(release.minor_release())) continue;
      std::vector<std::string> shown;
      for (const auto& copy : releases) shown.push_back(copy.to_string());
      return Misfit{CanaryOutcome::Refused,
                    fmt::format("{}: no copy for torch {} (the package loads the copy of the running torch's "
                                "minor, {}; it ships {})",
                                family, release.to_string(), checks_of_family(family), fmt::join(shown, ", "))};
    }
    return std::nullopt;
  }

 private:
  // The first module the import reaches that nothing installed provides: its import fails there.
  std::optional<Misfit> undeclared_import(const StoredRelease& release) const {
    if (reached_.empty()) return std::nullopt;
    // Python's own, what the release's site-packages holds, what torch declares it brings (a user's
    // install of torch has triton, which a store may lack), the package's and its dependencies'.
    const std::filesystem::path site_packages = release.torch_dir.parent_path();
    std::set<std::string> available = python_stdlib_modules();
    available.merge(importable_names(site_packages));
    available.insert(provided_.begin(), provided_.end());
    std::vector<std::string> torch_brings;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(site_packages, error)) {
      std::string name = entry.path().filename().string();
      if (name.starts_with("torch-") && name.ends_with(".dist-info"))
        torch_brings = declared_requirements_of(entry.path());
    }
    for (const auto& [module, declared] : reached_) {
      std::vector<std::string> requirements = *declared;
      requirements.insert(requirements.end(), torch_brings.begin(), torch_brings.end());
      if (undeclared_modules({module}, requirements, available).empty()) continue;
      return Misfit{CanaryOutcome::Refused,
                    fmt::format("{} imports {}, which the package does not declare (Requires-Dist) and neither "
                                "Python nor torch {} brings",
                                module.imported_by, module.name, release.version.to_string())};
    }
    return std::nullopt;
  }

  const ImportTimeChecks* checks_of(const ObjectAudit& object) const {
    auto wheel = std::ranges::find(audit_.wheels, object.wheel, &WheelAudit::path);
    return wheel == audit_.wheels.end() ? nullptr : &wheel->import_checks;
  }
  std::string checks_of_family(const std::string& family) const {
    for (const auto& object : audit_.binaries) {
      const ImportTimeChecks* checks = checks_of(object);
      if (checks != nullptr && copy_family(object_name(object)) == family) return checks->release_copy_picked_by;
    }
    return "";
  }

  const AuditReport& audit_;
  std::set<std::string> provided_;  // by the package's folder and its installed dependencies
  std::vector<std::pair<ReachedModule, const std::vector<std::string>*>> reached_;  // with the declared names
};

int severity(CanaryOutcome outcome) {
  switch (outcome) {
    case CanaryOutcome::MissingLibrary: return 3;
    case CanaryOutcome::UndefinedSymbol: return 2;
    case CanaryOutcome::Refused: return 1;
    default: return 0;
  }
}

}  // namespace

PackageAudit predict_package(const AuditReport& audit, const std::vector<StoredRelease>& releases,
                             const PackageImport& import) {
  PackageAudit result;
  result.objects = audit.binaries.size();
  for (const auto& object : audit.binaries) {
    result.device_code = result.device_code || object.device.uses_device();
    if (object.min_torch && (!result.min_torch || *object.min_torch > *result.min_torch)) {
      result.min_torch = object.min_torch;
    }
    if (object.verdict == AuditVerdict::Unstable ||
        (object.verdict == AuditVerdict::NeedsNewerTorch && result.verdict == AuditVerdict::Stable)) {
      result.verdict = object.verdict;
    }
  }
  const ImportTimeDecisions decisions(audit, import);
  for (const auto& release : releases) {
    Prediction prediction{.release = release.version};
    int worst = 0;
    std::size_t loaded_objects = 0;
    if (auto refused = decisions.refusal(release)) {
      worst = severity(refused->outcome);
      prediction.outcome = refused->outcome;
      prediction.reason = refused->reason;
    }
    for (const auto& object : audit.binaries) {
      if (decisions.copy_for_another_release(object, release.version)) continue;
      ++loaded_objects;
      auto load = std::ranges::find(object.loads, release.version, &ReleaseLoad::release);
      ReleaseLoad assessed = load != object.loads.end() ? *load : assess_release_load(object, release);
      auto misfit = object_misfit(object, assessed);
      if (misfit && severity(misfit->outcome) > worst) {
        worst = severity(misfit->outcome);
        prediction.outcome = misfit->outcome;
        prediction.reason = misfit->reason;
      }
    }
    if (worst == 0) {
      prediction.reason =
          loaded_objects == 0
              ? "no native library"
              : fmt::format("{} native librar{} fit{} torch {}", loaded_objects, loaded_objects == 1 ? "y" : "ies",
                            loaded_objects == 1 ? "s" : "", release.version.to_string());
    }
    result.predictions.push_back(std::move(prediction));
  }
  return result;
}

}  // namespace abicheck

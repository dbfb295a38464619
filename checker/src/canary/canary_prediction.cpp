#include "canary/canary_prediction.h"

#include <fmt/format.h>

#include <algorithm>

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

int severity(CanaryOutcome outcome) {
  switch (outcome) {
    case CanaryOutcome::MissingLibrary: return 3;
    case CanaryOutcome::UndefinedSymbol: return 2;
    case CanaryOutcome::Refused: return 1;
    default: return 0;
  }
}

}  // namespace

PackageAudit predict_package(const AuditReport& audit, const std::vector<StoredRelease>& releases) {
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
  for (const auto& release : releases) {
    Prediction prediction{.release = release.version};
    int worst = 0;
    for (const auto& object : audit.binaries) {
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
      prediction.reason = audit.binaries.empty()
                              ? "no native library"
                              : fmt::format("{} native librar{} fit{} torch {}", audit.binaries.size(),
                                            audit.binaries.size() == 1 ? "y" : "ies",
                                            audit.binaries.size() == 1 ? "s" : "", release.version.to_string());
    }
    result.predictions.push_back(std::move(prediction));
  }
  return result;
}

}  // namespace abicheck

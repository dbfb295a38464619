#pragma once

#include <optional>
#include <string>
#include <vector>

#include "audit/binary_audit.h"
#include "canary/canary_outcome.h"
#include "store/release_store.h"

namespace abicheck {

// What the tool expects of one package under one release, and why, before anything is loaded.
struct Prediction {
  TorchVersion release;
  CanaryOutcome outcome = CanaryOutcome::Loaded;
  std::string reason;  // "xformers/_C.so: imports shims of torch 2.10"; for a load, what it rests on
};

// The audit's facts about a package that the prediction rests on, for the report.
struct PackageAudit {
  AuditVerdict verdict = AuditVerdict::Stable;
  std::optional<TorchVersion> min_torch;  // the newest shim any of its objects uses
  bool device_code = false;               // an object uses CUDA or ROCm: without a GPU it is not executed
  std::size_t objects = 0;
  std::vector<Prediction> predictions;  // one per release, in the order given
};

// The prediction, from the audit's per-release load rule (assess_release_load): a device runtime the
// release lacks is a missing library (the loader meets it first); a shim newer than the release, or a
// libtorch C++ symbol its libraries do not export, is an undefined symbol; otherwise it loads.
PackageAudit predict_package(const AuditReport& audit, const std::vector<StoredRelease>& releases);

}  // namespace abicheck

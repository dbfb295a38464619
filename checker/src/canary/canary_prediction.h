#pragma once

#include <filesystem>
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
// libtorch C++ symbol its libraries do not export, is an undefined symbol; otherwise it loads. What the
// package's own Python decides at import comes first (WheelAudit::import_checks): of a library it ships
// in copies per torch minor only the running release's copy is held to it (none: refused), and a
// package that refuses a torch of another minor than its build's is refused there.
// How the canary imports a package: the modules it imports (those the wheel provides), the folder it
// is unpacked in and the folder its declared dependencies are installed in (each on sys.path). With
// them, a module that the package's import reaches (modules_reached_at_import) and that neither
// Python, the release's site-packages, the package nor its installed dependencies provide, nor a
// declared requirement names, is an import that fails: refused.
struct PackageImport {
  std::vector<std::string> modules;
  std::filesystem::path unpacked;
  std::filesystem::path dependencies;
};

PackageAudit predict_package(const AuditReport& audit, const std::vector<StoredRelease>& releases,
                             const PackageImport& import = {});

}  // namespace abicheck

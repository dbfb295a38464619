#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "audit/allowlist.h"
#include "audit/binary_imports.h"
#include "audit/import_time_checks.h"
#include "audit/loader_scope.h"
#include "audit/platform_policy.h"
#include "audit/pt2_package.h"
#include "audit/recorded_toolkit.h"
#include "audit/shim_catalog.h"
#include "audit/symbol_classifier.h"
#include "baseline/operator_calls.h"
#include "core/device_library.h"
#include "core/torch_version.h"
#include "store/release_store.h"

namespace abicheck {

enum class AuditVerdict {
  Stable,           // only stable shims, system, device runtime and Python imports
  Unstable,         // imports libtorch's C++ ABI (or a shim no release has, or breaks abi3)
  NeedsNewerTorch,  // stable, but its shims need a newer torch than it declares
};

std::string_view to_string(AuditVerdict verdict);

// A shim the object uses: imported, or looked up by name at run time (a string in its read-only data).
struct ShimUse {
  std::string name;
  std::optional<TorchVersion> introduced;  // nullopt: declared by no known release
  bool dynamic_lookup = false;
  std::string library;  // the library an import is bound to (Mach-O ordinal's dylib, PE DLL); "" for dlsym
  // The releases since `introduced` whose torch for the object's platform does not export it (an
  // import only): macOS's torch lacks the oneDNN shims, Linux's and Windows's the MPS ones.
  std::vector<TorchVersion> not_exported_by;
  auto operator<=>(const ShimUse&) const = default;
};

// An operator the object names to the dispatcher: a read-only string "aten::foo" or "aten::foo.overload"
// that a release of the history registers (other strings of that shape are left alone).
struct OperatorUse {
  // A release the object claims on which the call fails, whichever of its possible overloads it is.
  struct Break {
    TorchVersion release;
    std::string problem;  // "not registered", "'aten::triu(Tensor self, SymInt diagonal=0) -> Tensor' there ..."
    auto operator<=>(const Break&) const = default;
  };

  std::string name;  // as found: "aten::triu", "aten::sum.dim_IntList"
  // What it may call (`aten::sum.dim_IntList`, `aten::sum`): the overload written into the string,
  // else the default overload and those whose overload names are strings of the object too (the
  // overload is a string literal of its own, which the linker may place anywhere).
  std::vector<std::string> overloads;
  std::optional<TorchVersion> introduced;  // the oldest release registering one of `overloads`
  std::vector<Break> breaks;               // oldest first

  auto operator<=>(const OperatorUse&) const = default;
};

// A declared target and where it was read.
struct DeclaredTarget {
  TorchVersion version;
  std::string source;  // "--target", "marker torch-abi-check:target=...", "Requires-Dist: torch>=2.10"
};

// What one object needs of the device runtime.
struct DeviceNeeds {
  std::vector<DeviceLibrary> libraries;     // its NEEDED device libraries, in file order
  bool links_torch_device_library = false;  // NEEDs libtorch_cuda, libc10_cuda, libtorch_hip or libc10_hip
  // What its wheel or installed package records; only for an object that uses the device (a vendored
  // libpng in the same wheel was not built with CUDA).
  std::optional<RecordedToolkit> recorded;

  bool uses_device() const { return !libraries.empty() || links_torch_device_library; }

  // The toolkit its libraries pin (libcudart.so.12: CUDA 12), else the recorded one's.
  std::optional<DeviceToolkitVersion> toolkit() const;
};

// One reason a binary's device needs do not fit a release's device runtime.
struct DeviceMisfit {
  std::string need;         // "needs CUDA 12 runtime (libcudart.so.12)"
  std::string has;          // what the release ships instead: "CUDA 13.0 (libcudart.so.13)", "libcudnn.so.9"
  bool blocks_load = true;  // false: it loads, but a package's own import check may refuse
  // The misfit is the toolkit (its major, or CUDA against ROCm or CPU): torch publishes builds of a
  // release for several toolkits, so a build of this release that fits may exist on another index.
  bool other_build_may_fit = false;
  // It loads, but the package's own import refuses it (RecordedToolkit::minor_checked_by): a CUDA
  // minor that differs from its build's, which the package compares at import.
  bool refused_at_import = false;
};

// Whether one object loads into one stored release: its torch symbols and its device runtime.
struct ReleaseLoad {
  TorchVersion release;  // the stored release, full version
  std::string runtime;   // its device runtime: "CUDA 13.0"
  bool claimed = false;  // at or above the oldest torch the object declares or needs
  // The libtorch C++ symbols it imports (weak ones aside; allowlisted ones too: the allowlist accepts
  // the verdict, it does not make the loader find a symbol), checked against what the release's
  // libraries export (TorchSymbolExports): how many, whether the exports could be checked (an ELF
  // object, the release's libraries read), and those the release does not export (mangled, sorted).
  std::size_t torch_cxx_imports = 0;
  bool torch_cxx_checked = false;
  std::vector<std::string> missing_torch_symbols;
  // The other symbols it imports (weak ones and Python's C API aside) that no library its load reaches
  // defines (audit/loader_scope.h), mangled, sorted; judged only where every library of the load was
  // found. Each is a torch misfit too: the loader stops at an undefined symbol wherever it is from.
  std::vector<std::string> undefined_symbols;
  std::vector<std::string> torch_misfits;  // why its torch symbols do not fit
  std::vector<DeviceMisfit> device_misfits;

  bool torch_symbols_fit() const { return torch_misfits.empty(); }
  // It imports libtorch's C++ ABI and the release exports every symbol of it that it imports.
  bool torch_cxx_all_exported() const {
    return torch_cxx_imports > 0 && torch_cxx_checked && missing_torch_symbols.empty();
  }
  bool device_runtime_fits() const;  // no misfit that blocks loading
  bool loads() const { return torch_symbols_fit() && device_runtime_fits(); }
};

// The group of a plain C name that no rule places, imported by an object linked against
// libtorch_python: taken for libtorch_python's (torch's own _C imports initModule that way).
inline constexpr std::string_view kTorchCLinkageGroup = "libtorch (C linkage)";

// Everything the audit found about one object: an ELF object, a PE image, or one architecture of a
// Mach-O (a universal one's path ends in "[arm64]").
struct ObjectAudit {
  std::string path;                         // a file, or "<wheel>!<entry>" for an object inside a wheel
  BinaryFormat format = BinaryFormat::Elf;  // its platform: platform_of(format)
  std::string wheel;                        // the wheel it came from, if any
  std::string machine;
  std::string soname;  // ELF's DT_SONAME, Mach-O's install name; "" when it has none
  std::vector<std::string> needed;
  std::vector<VersionNeed> version_needs;                         // BinaryImports::version_needs
  std::vector<std::string> library_search_path;                   // BinaryImports::library_search_path
  std::vector<ClassifiedSymbol> imports;                          // every undefined dynamic symbol, sorted by name
  std::vector<ShimUse> shims;                                     // imported and dynamically looked-up shims, sorted
  std::vector<ClassifiedSymbol> unstable;                         // not allowlisted unstable torch imports
  std::vector<std::pair<ClassifiedSymbol, std::string>> allowed;  // allowlisted, with the reason
  std::vector<std::string> abi3_violations;  // Python names outside the limited API (abi3 wheels only)
  std::vector<OperatorUse> operators;        // named to the dispatcher, sorted by name
  // The newest release among the imported shims and the operators it names (a call fails without them); a shim
  // looked up by name at run time is optional (used where present), not a minimum.
  std::optional<TorchVersion> min_torch;
  std::optional<TorchVersion> min_torch_to_load;  // newest release among imported shims only
  std::optional<DeclaredTarget> declared_target;
  std::string allowed_object_reason;  // non-empty when an [[object]] entry accepted the whole object
  bool stripped = false;
  DeviceNeeds device;
  std::vector<ReleaseLoad> loads;  // one per stored release given in AuditOptions::releases, oldest first
  AuditVerdict verdict = AuditVerdict::Stable;
  std::vector<std::string> reasons;  // one line each: why the verdict is not Stable
};

struct WheelAudit {
  std::string path;
  bool abi3 = false;
  std::optional<DeclaredTarget> declared_target;  // from Requires-Dist (or --target)
  std::optional<TorchVersion> min_torch;          // the newest of its objects'
  std::optional<TorchVersion> min_torch_to_load;  // the newest of its objects'
  AuditVerdict verdict = AuditVerdict::Stable;
  std::size_t object_count = 0;
  ImportTimeChecks import_checks;  // what its Python decides at import (the canary's prediction reads it)
  // Its ELF objects that do not load on the systems a manylinux or musllinux tag of its file name names.
  std::vector<PlatformTagMisfit> platform_misfits;
};

// An AOTInductor package (.pt2): what it records of itself, and the roll-up of its compiled objects,
// each audited as an extension's (ObjectAudit: shims, min torch, a prediction per stored release).
struct Pt2PackageAudit {
  std::string path;  // a file, or "<wheel>!<entry>" for a package inside a wheel
  Pt2Contents contents;
  std::vector<std::string> objects;               // the ObjectAudit paths of its shared objects
  std::optional<TorchVersion> min_torch;          // the newest of its objects'
  std::optional<TorchVersion> min_torch_to_load;  // the newest of its objects'
  AuditVerdict verdict = AuditVerdict::Stable;
};

struct AuditFailure {
  std::string path;
  std::string problem;
};

struct AuditReport {
  std::vector<ObjectAudit> binaries;                     // sorted by path
  std::vector<WheelAudit> wheels;                        // sorted by path
  std::vector<Pt2PackageAudit> pt2_packages;             // sorted by path
  std::vector<AuditFailure> failures;                    // objects or inputs that could not be audited, sorted by path
  std::vector<SuppressionProblem> suppression_problems;  // the allowlist's stale and expired entries
};

struct AuditOptions {
  std::optional<TorchVersion> target;  // --target: overrides what binaries and wheels declare
  Allowlist* allowlist = nullptr;
  // The releases to judge loading against (the store's, or a release gate's candidate); none: no
  // per-release verdict.
  std::vector<StoredRelease> releases;
  // The operator baselines of the release history (ReleaseHistory::operator_schemas); null or empty:
  // the operators an object names are not looked for.
  const OperatorHistory* operators = nullptr;
};

// Audits shared objects, wheels, AOTInductor packages (.pt2), directories (searched recursively for
// objects, wheels and .pt2 packages; a wheel's .pt2 entries are audited too) and installed packages (a package
// directory in site-packages, whose dist-info declares the target). Per-input problems go to AuditReport::failures;
// nothing throws for a bad input.
AuditReport audit_paths(const std::vector<std::filesystem::path>& inputs, const ShimCatalog& catalog,
                        const AuditOptions& options);

// Whether `object` loads into `release`: its torch symbols (the verdict and the newest shim it
// imports) and its device needs against the release's device runtime. The one rule the audit,
// `check` and the release gate share.
// `package`: the libraries of the object's wheel, which its RUNPATH may lead to (none for a file
// audited alone).
ReleaseLoad assess_release_load(const ObjectAudit& object, const StoredRelease& release,
                                const PackageLibraries* package = nullptr);

// Objects shipped together (one wheel, one installed package): the loader opens an object's NEEDED
// libraries before binding it, so one that NEEDs another of them (by soname, else file name; through
// others too) does not load where that one does not. Adds to each object's loads the torch misfits,
// and device misfits that block loading, of the bundled libraries it needs (their own ones: each
// names the library that has it). Call once, after every object's loads are assessed.
void add_bundled_dependency_misfits(const std::vector<ObjectAudit*>& objects);

// The audit of the objects read from one image (a file mapped) or stream (a wheel's entry), whatever
// its format: one ObjectAudit per object in it (a universal Mach-O holds one per architecture).
// Exposed for tests and the fuzzer. Throws BinaryReadError.
std::vector<ObjectAudit> audit_binary_image(std::span<char> image, const std::string& path, const ShimCatalog& catalog,
                                            const AuditOptions& options, bool abi3);
std::vector<ObjectAudit> audit_binary_objects(const std::vector<BinaryImports>& objects, const std::string& path,
                                              const ShimCatalog& catalog, const AuditOptions& options, bool abi3);

}  // namespace abicheck

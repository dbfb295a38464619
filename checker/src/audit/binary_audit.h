#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "audit/allowlist.h"
#include "audit/shim_catalog.h"
#include "audit/symbol_classifier.h"
#include "core/torch_version.h"

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
  auto operator<=>(const ShimUse&) const = default;
};

// A declared target and where it was read.
struct DeclaredTarget {
  TorchVersion version;
  std::string source;  // "--target", "marker torch-abi-check:target=...", "Requires-Dist: torch>=2.10"
};

// Everything the audit found about one ELF object.
struct ObjectAudit {
  std::string path;   // a file, or "<wheel>!<entry>" for an object inside a wheel
  std::string wheel;  // the wheel it came from, if any
  std::string machine;
  std::vector<std::string> needed;
  std::vector<ClassifiedSymbol> imports;                          // every undefined dynamic symbol, sorted by name
  std::vector<ShimUse> shims;                                     // imported and dynamically looked-up shims, sorted
  std::vector<ClassifiedSymbol> unstable;                         // not allowlisted unstable torch imports
  std::vector<std::pair<ClassifiedSymbol, std::string>> allowed;  // allowlisted, with the reason
  std::vector<std::string> abi3_violations;       // Python names outside the limited API (abi3 wheels only)
  std::optional<TorchVersion> min_torch;          // newest release among all shims used
  std::optional<TorchVersion> min_torch_to_load;  // newest release among imported shims only
  std::optional<DeclaredTarget> declared_target;
  std::string allowed_object_reason;  // non-empty when an [[object]] entry accepted the whole object
  bool stripped = false;
  AuditVerdict verdict = AuditVerdict::Stable;
  std::vector<std::string> reasons;  // one line each: why the verdict is not Stable
};

struct WheelAudit {
  std::string path;
  bool abi3 = false;
  std::optional<DeclaredTarget> declared_target;  // from Requires-Dist (or --target)
  std::optional<TorchVersion> min_torch;
  AuditVerdict verdict = AuditVerdict::Stable;
  std::size_t object_count = 0;
};

struct AuditFailure {
  std::string path;
  std::string problem;
};

struct AuditReport {
  std::vector<ObjectAudit> binaries;   // sorted by path
  std::vector<WheelAudit> wheels;      // sorted by path
  std::vector<AuditFailure> failures;  // objects or inputs that could not be audited, sorted by path
  std::vector<AllowlistEntry> stale_allowlist_entries;
};

struct AuditOptions {
  std::optional<TorchVersion> target;  // --target: overrides what binaries and wheels declare
  Allowlist* allowlist = nullptr;
};

// Audits shared objects, wheels, directories (searched recursively for ELF objects and wheels) and
// installed packages (a package directory in site-packages, whose dist-info declares the target).
// Per-input problems go to AuditReport::failures; nothing throws for a bad input.
AuditReport audit_paths(const std::vector<std::filesystem::path>& inputs, const ShimCatalog& catalog,
                        const AuditOptions& options);

// The audit of one ELF image (a file mapped, or a wheel entry inflated): exposed for tests and the
// fuzzer. Throws ElfReadError.
ObjectAudit audit_elf_image(std::span<char> image, std::string path, const ShimCatalog& catalog,
                            const AuditOptions& options, bool abi3);

}  // namespace abicheck

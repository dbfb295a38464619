#pragma once

#include <map>
#include <string>

#include "core/finding.h"
#include "core/torch_version.h"
#include "inventory/declaration_pairing.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// What an extension that uses a declaration depends on at run time. This, not the declaration's first
// appearance, decides what a too-old target costs: the finding states the consequence a probe against
// the real releases can show (bench/probe_findings.py, bench/RESULTS.md "Findings probed").
enum class RuntimeDependency {
  // Header-only code (a type, a template, an inline method, an enumerator no wrapper visible at the
  // target carries to libtorch): compiled into the extension, it loads and runs on any release.
  None,
  // A C shim: the extension imports the symbol, and a release that does not export it refuses to load it.
  ExportedSymbol,
  // An enumerator added to an enum after the enum shipped (ScalarType::BComplex32 in 2.14), where a stable
  // wrapper converts that enum and passes it to libtorch (a ScalarType given to torch::stable::new_empty): it
  // loads, but a release whose libtorch does not know the value fails the call. An enumerator that came with
  // its enum is as old in libtorch as the enum (the enums moved from c10 into torch/headeronly whole).
  ValueCrossesShim,
};

struct DeclarationDependency {
  RuntimeDependency kind = RuntimeDependency::None;
  TorchVersion from;    // the oldest target at which an extension using the declaration has the dependency
  std::string carrier;  // ValueCrossesShim: the wrapper (of the oldest guard) that passes the enum on
};

// What an extension built against `inventory`'s headers depends on at run time when it uses `declaration`,
// from the oldest target at which it has a dependency (None: at no target). `first_shipped`: the release
// history's first release of each declaration (first_shipped_releases); one in none is new in `inventory`.
DeclarationDependency runtime_dependency(const ShimInventory& inventory, const ShimDeclaration& declaration,
                                         const std::map<DeclarationKey, TorchVersion>& first_shipped);

// What using it costs at the oldest target with the dependency, as H001 and H006 say it (and
// bench/probe_findings.py reads it): "an extension targeting 2.9 that uses it compiles, and does not load on
// torch 2.9: undefined symbol aoti_torch_foo"; empty for RuntimeDependency::None.
std::string consequence_of(const DeclarationDependency& dependency, const ShimDeclaration& declaration);
// The same, as the report counts it: DoesNotLoad, FailsAtCallTime; Unstated for RuntimeDependency::None.
Consequence consequence_kind(const DeclarationDependency& dependency);

}  // namespace abicheck

#include "diff/inventory_compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <set>

#include "inventory/declaration_name.h"
#include "inventory/declaration_pairing.h"
#include "inventory/runtime_dependency.h"

namespace abicheck {
namespace {

std::string backend_text(const std::string& backend) { return backend.empty() ? "every backend" : backend; }

ChangeKind removal_kind(DeclarationKind kind) {
  switch (kind) {
    case DeclarationKind::Function: return ChangeKind::FunctionRemoved;
    case DeclarationKind::EnumConstant: return ChangeKind::EnumValueRemoved;
    case DeclarationKind::Macro: return ChangeKind::MacroValueChanged;
    case DeclarationKind::Method: return ChangeKind::MethodRemoved;
    default: return ChangeKind::TypeRemoved;
  }
}

ChangeKind value_change_kind(DeclarationKind kind) {
  switch (kind) {
    case DeclarationKind::EnumConstant: return ChangeKind::EnumValueChanged;
    case DeclarationKind::Macro: return ChangeKind::MacroValueChanged;
    default: return ChangeKind::TypeChanged;
  }
}

// A macro that spells the release itself (TORCH_VERSION_MINOR, TORCH_ABI_VERSION and the default
// TORCH_FEATURE_VERSION at whatever patch the headers came from, TORCH_VERSION_PATCH) changes from one
// release to the next by design: not a change of the surface. Between two trees of one release it is.
bool tracks_the_release(const ShimDeclaration& before, const ShimDeclaration& after, TorchVersion old_release,
                        TorchVersion new_release) {
  if (before.kind != DeclarationKind::Macro || old_release.minor_release() == new_release.minor_release()) return false;
  if (before.name.ends_with("_PATCH")) return true;
  auto spells = [](const std::string& value, TorchVersion release) {
    std::uint64_t number = 0;
    try {
      number = std::stoull(value, nullptr, 16);
    } catch (const std::exception&) {
      return false;
    }
    if (number == static_cast<std::uint64_t>(release.minor)) return true;
    std::optional<TorchVersion> version = TorchVersion::from_abi_value(number);
    return version && version->major == release.major && version->minor == release.minor;
  };
  return spells(before.signature, old_release) && spells(after.signature, new_release);
}

// Same-type parameters whose names moved to other positions (every name still there, some elsewhere):
// the function's type is the same, its meaning by position is not. A plain rename is no change.
std::string swapped_parameters(const ShimDeclaration& before, const ShimDeclaration& after) {
  if (before.kind != DeclarationKind::Function || !same_signature(before, after)) return {};
  std::vector<std::string> old_names = parameter_names(before), new_names = parameter_names(after);
  if (old_names == new_names || old_names.size() != new_names.size()) return {};
  std::vector<std::string> old_sorted = old_names, new_sorted = new_names;
  std::ranges::sort(old_sorted);
  std::ranges::sort(new_sorted);
  if (old_sorted != new_sorted) return {};
  std::vector<std::string> moved;
  for (std::size_t i = 0; i < old_names.size(); ++i) {
    if (old_names[i] != new_names[i])
      moved.push_back(fmt::format("{} '{}' is now '{}'", i, old_names[i], new_names[i]));
  }
  return fmt::format(
      "parameters of one type swapped with their names (position {}): a caller built before "
      "passes them in the old order",
      fmt::join(moved, ", "));
}

// Whether another C++ declaration of the same name in `inventory` takes a call of `arguments` arguments (a
// template of the name always may): such a call may bind it instead.
bool another_overload_takes(const ShimInventory& inventory, const ShimDeclaration& declaration, int arguments) {
  DeclarationName name = declaration_name(declaration.name);
  return std::ranges::any_of(inventory.declarations, [&](const ShimDeclaration& other) {
    if (other.kind != DeclarationKind::Method || other.name == declaration.name) return false;
    DeclarationName other_name = declaration_name(other.name);
    if (other_name.qualified() != name.qualified()) return false;
    if (other.name.starts_with(name.qualified() + "<")) return true;  // a template (its key keeps "<typename>")
    auto total = static_cast<int>(other_name.parameter_types.size());
    return total - other.default_arguments <= arguments && arguments <= total;
  });
}

// What a call of the same C++ declaration may leave out or convert implicitly: the type is unchanged, so
// only sources that relied on a default or an implicit conversion are affected. A shortened call that
// another overload can take may bind it instead of failing: that is for review, not a claimed break.
void compare_call_forms(const ShimDeclaration& before, const ShimDeclaration& after, const ShimInventory& new_inventory,
                        std::vector<AbiChange>& changes) {
  if (before.kind != DeclarationKind::Method) return;
  if (after.default_arguments < before.default_arguments) {
    auto total = static_cast<int>(declaration_name(after.name).parameter_types.size());
    bool rebinds = false;
    for (int arguments = total - before.default_arguments; arguments < total - after.default_arguments; ++arguments)
      rebinds = rebinds || another_overload_takes(new_inventory, after, arguments);
    std::string omitted = after.default_arguments == 0
                              ? std::string("any argument")
                              : fmt::format("more than its last {} arguments", after.default_arguments);
    changes.push_back(
        {after.name,
         rebinds ? ChangeKind::DefaultArgumentRemovedOverloaded : ChangeKind::DefaultArgumentRemoved,
         fmt::format("{} trailing parameters had a default argument, {} now: a call that leaves out {} {} ({}:{})",
                     before.default_arguments, after.default_arguments, omitted,
                     rebinds ? "binds another overload of the name where its arguments convert, else does not compile"
                             : "no longer compiles",
                     after.header, after.line),
         {}});
  }
  if (after.is_explicit && !before.is_explicit) {
    changes.push_back({after.name,
                       ChangeKind::MadeExplicit,
                       fmt::format("'{}' is explicit now: an implicit conversion through it no longer compiles ({}:{})",
                                   normal_signature(after.signature), after.header, after.line),
                       {}});
  }
}

// A function added at release R must be hidden from targets older than R; one visible to an
// older target lets an extension targeting it compile a call the older library lacks. Releases
// before 2.10 have no targets, and a declaration hidden from every targeting build cannot be misused.
bool lacks_its_guard(const ShimDeclaration& added, TorchVersion release) {
  return added.kind == DeclarationKind::Function && release >= kFirstTargetableRelease &&
         added.since < release.minor_release() && added.backend.find(kUntargetedOnly) == std::string::npos;
}

// How a guard that moved is judged: a method lowered is new API for older targets (what its body calls is
// H005's); a guard raised no higher than the release that first shipped the declaration, for one an
// extension depends on at run time (runtime_dependency: a shim it imports), corrects it, since a use at the
// targets it left compiled and then failed to load there; any other move changes what some targets compile.
ChangeKind guard_change_kind(const ShimInventory& new_inventory, const ShimDeclaration& before,
                             const ShimDeclaration& after,
                             const std::map<DeclarationKey, TorchVersion>& first_shipped) {
  if (after.kind == DeclarationKind::Method && after.since < before.since) return ChangeKind::MethodGuardLowered;
  auto shipped = first_shipped.find(key_of(after));
  if (after.since > before.since && shipped != first_shipped.end() && after.since <= shipped->second &&
      runtime_dependency(new_inventory, after, first_shipped).kind != RuntimeDependency::None) {
    return ChangeKind::GuardCorrected;
  }
  return ChangeKind::GuardChanged;
}

void compare_declarations(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                          const std::map<DeclarationKey, TorchVersion>& first_shipped,
                          std::vector<AbiChange>& changes) {
  DeclarationPairing pairing = pair_declarations(old_baseline.inventory, new_baseline.inventory);
  for (const ShimDeclaration* before : pairing.removed) {
    changes.push_back({before->name,
                       removal_kind(before->kind),
                       fmt::format("{} '{}' ({}:{}) is gone", to_string(before->kind), before->signature,
                                   before->header, before->line),
                       {}});
  }
  for (const auto& [before, after] : pairing.replaced) {
    changes.push_back({before->name,
                       ChangeKind::MethodOverloadReplaced,
                       fmt::format("'{}' ({}:{}) is gone; '{}' ({}:{}) takes its place at the same targets",
                                   normal_signature(before->signature), before->header, before->line,
                                   normal_signature(after->signature), after->header, after->line),
                       {}});
  }
  for (const auto& [before, after] : pairing.kept) {
    if (before->since != after->since) {
      changes.push_back({after->name,
                         guard_change_kind(new_baseline.inventory, *before, *after, first_shipped),
                         fmt::format("first visible at target {} before, at target {} now ({}:{})",
                                     before->since.to_string(), after->since.to_string(), after->header, after->line),
                         {}});
    }
    if (before->backend != after->backend) {
      changes.push_back(
          {after->name,
           ChangeKind::BackendChanged,
           fmt::format("needed {} before, needs {} now", backend_text(before->backend), backend_text(after->backend)),
           {}});
    }
    // The function's type as the front end saw it: libabigail's model of the probe does not see every
    // change of it (a pointee's `const` dropped), so the inventory's own record is compared too; where
    // both report, the diff keeps libabigail's account (baseline_diff.cpp). The declaration as written
    // must differ too: where headers stop compiling, the front end's types of an unchanged one may not
    // be the types an extension sees.
    bool callable = before->kind == DeclarationKind::Function || before->kind == DeclarationKind::Method;
    if (callable && !same_signature(*before, *after) &&
        normal_signature(before->signature) != normal_signature(after->signature)) {
      changes.push_back(
          {after->name,
           ChangeKind::SignatureChanged,
           fmt::format("'{}' became '{}'", normal_signature(before->signature), normal_signature(after->signature)),
           {}});
    }
    compare_call_forms(*before, *after, new_baseline.inventory, changes);
    if (std::string swapped = swapped_parameters(*before, *after); !swapped.empty()) {
      changes.push_back({after->name, ChangeKind::ParametersSwapped, swapped, {}});
    }
    // A typedef is the type it names: `int64_t` respelled `long` is no change on the platform.
    bool value_changed = before->kind == DeclarationKind::Typedef ? !same_signature(*before, *after)
                                                                  : before->signature != after->signature;
    if (!callable && value_changed &&
        !tracks_the_release(*before, *after, old_baseline.inventory.release, new_baseline.inventory.release)) {
      changes.push_back({after->name,
                         value_change_kind(after->kind),
                         fmt::format("'{}' became '{}'", before->signature, after->signature),
                         {}});
    }
  }
  TorchVersion release = new_baseline.inventory.release;
  for (const ShimDeclaration* added : pairing.added) {
    if (lacks_its_guard(*added, release)) {
      changes.push_back({added->name,
                         ChangeKind::AddedWithoutGuard,
                         fmt::format("new in {} but visible at target {} ({}:{}): guard it with "
                                     "TORCH_FEATURE_VERSION >= TORCH_VERSION_{}_{}_0",
                                     release.to_string(), added->since.to_string(), added->header, added->line,
                                     release.major, release.minor),
                         {}});
    } else {
      changes.push_back({added->name,
                         ChangeKind::Added,
                         fmt::format("{} since {} on {} ({}:{})", to_string(added->kind), added->since.to_string(),
                                     backend_text(added->backend), added->header, added->line),
                         {}});
    }
  }
}

// The public header files an extension includes by name. A baseline written before they were recorded
// has none, and then nothing is compared.
void compare_headers(const ShimInventory& old_inventory, const ShimInventory& new_inventory,
                     std::vector<AbiChange>& changes) {
  if (old_inventory.headers.empty() || new_inventory.headers.empty()) return;
  for (const auto& header : old_inventory.headers) {
    if (std::ranges::binary_search(new_inventory.headers, header)) continue;
    changes.push_back({header,
                       ChangeKind::HeaderRemoved,
                       fmt::format("public header of {} is gone in {}: every extension that includes it stops "
                                   "compiling",
                                   old_inventory.release.to_string(), new_inventory.release.to_string()),
                       {}});
  }
}

void compare_exports(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                     std::vector<AbiChange>& changes) {
  if (new_baseline.exports.empty()) return;
  for (const auto& [library, names] : old_baseline.exports.by_library) {
    if (!new_baseline.exports.by_library.contains(library)) continue;  // a CPU-only wheel: not comparable
    for (const auto& name : names) {
      if (new_baseline.exports.library_of(name).empty()) {
        changes.push_back(
            {name,
             ChangeKind::ExportRemoved,
             fmt::format("exported by {} in {}, by no library in {}", library,
                         old_baseline.inventory.release.to_string(), new_baseline.inventory.release.to_string()),
             {}});
      }
    }
  }
  for (const auto& declaration : new_baseline.inventory.declarations) {
    if (declaration.kind != DeclarationKind::Function) continue;
    std::string library(exporting_library(declaration.backend));
    if (library.empty() || !new_baseline.exports.by_library.contains(library)) continue;
    // A backend's shim may be defined in another library (libtorch_cpu.so exports CUDA shims too):
    // what resolves an extension's import is that some shim library exports it.
    if (new_baseline.exports.library_of(declaration.name).empty()) {
      changes.push_back({declaration.name,
                         ChangeKind::DeclaredNotExported,
                         fmt::format("declared in {}:{} but {} does not export it, nor does any other shim library",
                                     declaration.header, declaration.line, library),
                         {}});
    }
  }
}

}  // namespace

std::vector<AbiChange> compare_inventories(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                                           const std::map<DeclarationKey, TorchVersion>& first_shipped) {
  std::vector<AbiChange> changes;
  compare_declarations(old_baseline, new_baseline, first_shipped, changes);
  compare_headers(old_baseline.inventory, new_baseline.inventory, changes);
  compare_exports(old_baseline, new_baseline, changes);
  return changes;
}

}  // namespace abicheck

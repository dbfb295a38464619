#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "diff/abi_change.h"

namespace abicheck {
namespace {

struct ChangeRule {
  ChangeKind kind;
  std::string_view id;
  Verdict verdict;
  std::string_view meaning;  // one line for the report's group heading
  std::string_view remedy;   // what the release's author (or a user) can do
  // What a breaking change does to an extension (the probe of bench/probe_findings.py shows it): a binary
  // built against the old release does not load on the new one or misreads at call time, or a source that
  // built does not compile against the new headers.
  Consequence consequence = Consequence::Unstated;
};

// One row per kind of change. Why each verdict:
// * an extension built against OLD imports every OLD function by name with OLD's types, so a
//   removal, a new signature under the same name, a layout change of a type it passes, or a
//   removed export fails at load time or corrupts memory at run time: breaking;
// * a guard whose version moved changes what an extension targeting an older release compiles
//   against; a declaration added without a guard at the new release lets an extension targeting
//   an older release compile a call that the older library lacks: breaking;
// * except a C shim's guard raised, but no higher than the release that first shipped it (the release history's
//   first_shipped; 53 of the 57 guard-changed of 2.9 -> 2.15, e.g. aoti_torch_aten_full in 2.13): a use at
//   the targets it left compiled and then failed to load there, so no binary and no project that ran on its
//   target breaks; a project with too old a target now learns it at compile time: worth a look, not breaking
//   (probed: bench/probe_findings.py).
// * a declaration the library does not export is a load failure waiting for its first user: breaking;
// * the header-only enums are compiled into the extension and dtypes cross the boundary through
//   getter functions, so a changed value is not an ABI break by itself, but worth a look;
// * an addition behind a guard at its own release is what the stable ABI is for: compatible.
// Operator schemas: torch_call_dispatcher turns the caller's stack of StableIValues into the NEW
// schema's arguments by position, as many as the NEW schema has, and reads back as many returns as
// it has (shim_common.cpp). The caller built against OLD filled the stack for OLD's schema, with
// defaults resolved at its compile time (stable/ops.h). So:
// * an operator or overload that is gone, an argument added (with a default or without: the stack
//   is read past what the caller filled), removed or of another type, and a changed return all
//   misread the stack: breaking, unless the new release registers a schema adapter for callers
//   built before it (the diff then marks the change as accepted by that adapter);
// * a renamed overload is a removal for every caller of the old name: breaking;
// * an argument renamed with its type kept does not move the stack, but is indistinguishable from
//   two arguments of one type swapped: worth a look;
// * a changed default does not reach a caller that passes every argument, but changes what a new
//   build gets; a changed alias annotation (an argument now written to, a view now returned)
//   changes what the caller may assume about its tensors: worth a look;
// * a new operator or overload: compatible.
// The headers as a whole:
// * headers that newly do not compile at some target (a guard hides what a wrapper still calls, a
//   typedef no longer fits a static_assert) stop every extension that builds there: breaking;
// * a public header file that is gone stops every extension that includes it, whatever it declared
//   (the umbrella of what a release declares only includes the headers that exist): breaking;
// * parameters of one type that swapped places together with their names leave the function's type
//   as it was, so nothing fails to compile or link, but a caller built before passes each argument
//   where the other one is now read, unless only the header's words were wrong: worth a look.
// The C++ of the headers (methods, constructors, wrapper functions), compiled into the extension:
// * one that is gone, or whose guard was raised, stops the builds that call it at the targets that
//   lose it (source break, the guard-changed row): breaking;
// * one whose guard was lowered is new API for older targets; what its body calls is H005's: compatible;
// * one that is gone while an overload of the same name, result and number of parameters took its place
//   at the same targets (2.10's `HeaderOnlyArrayRef<int64_t>` for 2.9's `std::vector<int64_t>` in
//   `amax`, `new_empty`, `new_zeros`, `pad`): a binary built before keeps its own inline copy of the old
//   one, and a call compiles where its arguments convert to the new types (a vector and a braced list
//   do, checked by compiling at target 2.9 against both releases: bench/HISTORY.md, issue 28, surface4);
//   the old overload's address, or an argument that does not convert, does not: worth a look.
// The inline conversions of the boxed calling convention (from/to of stableivalue_conversions.h), compiled
// into every extension, run against the release's own libtorch (shim_decls/<release>/behaviour.json):
// * the same value of the same type encoded into other bits (or decoded into another value): a binary
//   built before and the new libtorch, or a binary built now and an old libtorch or another extension,
//   read each other's values wrongly at call time: breaking;
// * a value or type the new headers no longer convert (from refuses it, the specialisation is gone):
//   what old binaries pass may no longer be what the new release expects, and a new build of the same
//   call throws or falls back to the byte copy: breaking;
// * a value or type newly converted: compatible.
// * a symbol of torch's namespaces that an extension built with the new headers exports and one built with
//   the old did not (the hidden visibility of the wrappers' namespace dropped, a new inline function outside
//   it): two extensions built against different releases then both define it, and where one of them is
//   loaded into the global scope (RTLD_GLOBAL, or preloaded) the loader binds the other's calls to its copy,
//   code of another release that encodes, checks and calls shims its own way: breaking.
constexpr std::array<ChangeRule, 39> kRules{{
    {ChangeKind::FunctionRemoved, "function-removed", Verdict::Breaking,
     "A function an extension built against the old release imports is gone from the new one's headers.",
     "Keep the function (deprecate it instead), or suppress with a reason if no release ever shipped it.",
     Consequence::DoesNotLoad},
    {ChangeKind::SignatureChanged, "signature-changed", Verdict::Breaking,
     "A function kept its name but took a new signature: old binaries call it with the old one.",
     "Restore the old signature and add the new one under a new name behind a version guard.",
     Consequence::FailsAtCallTime},
    {ChangeKind::TypeChanged, "type-changed", Verdict::Breaking,
     "The layout of a type passed across the shim changed (size, members, their types or order).",
     "Restore the old layout; add a new type, behind a version guard, for the new one.", Consequence::FailsAtCallTime},
    {ChangeKind::TypeRemoved, "type-removed", Verdict::Breaking, "A type the old headers declared is gone.",
     "Keep the type, or suppress with a reason if no extension can have used it.", Consequence::DoesNotCompile},
    {ChangeKind::GuardChanged, "guard-changed", Verdict::Breaking,
     "The TORCH_FEATURE_VERSION guard of a declaration moved: what targets of some releases compile changed.",
     "Put the guard back at the release that first shipped the declaration.", Consequence::DoesNotCompile},
    {ChangeKind::BackendChanged, "backend-changed", Verdict::NeedsReview,
     "A declaration moved between backends (CPU, CUDA, ...).",
     "Check that every backend which had it still declares and exports it."},
    {ChangeKind::AddedWithoutGuard, "added-without-guard", Verdict::Breaking,
     "A new declaration has no version guard, so an extension targeting an older release can call it.",
     "Wrap it in #if TORCH_FEATURE_VERSION >= TORCH_VERSION_<new release>.", Consequence::DoesNotLoad},
    {ChangeKind::Added, "added", Verdict::Compatible, "A declaration added behind its own release's guard.",
     "Nothing: this is how the stable ABI grows."},
    {ChangeKind::EnumValueChanged, "enum-value-changed", Verdict::NeedsReview,
     "A header-only enumerator changed value; extensions compile the old value in.",
     "Restore the value unless every use crosses the shim through a getter."},
    {ChangeKind::EnumValueRemoved, "enum-value-removed", Verdict::NeedsReview, "A header-only enumerator is gone.",
     "Keep it, or make sure no extension can have compiled it in."},
    {ChangeKind::MacroValueChanged, "macro-value-changed", Verdict::NeedsReview,
     "A macro of the stable headers changed value.", "Check that no extension compiled the old value into its binary."},
    {ChangeKind::ExportRemoved, "export-removed", Verdict::Breaking,
     "The library no longer exports a symbol the old release exported: old binaries fail to load.",
     "Export the symbol again (keep its definition in the library).", Consequence::DoesNotLoad},
    {ChangeKind::DeclaredNotExported, "declared-not-exported", Verdict::Breaking,
     "A declared shim is not exported by the library: its first caller fails to load.",
     "Define and export it, or remove the declaration.", Consequence::DoesNotLoad},
    {ChangeKind::OperatorRemoved, "operator-removed", Verdict::Breaking,
     "An operator that extensions call through torch_call_dispatcher is no longer registered.",
     "Keep registering it, or register a schema adapter for callers built before the removal.",
     Consequence::FailsAtCallTime},
    {ChangeKind::OverloadRemoved, "overload-removed", Verdict::Breaking,
     "An overload called through the dispatcher is gone.", "Keep it, or register a schema adapter for older callers.",
     Consequence::FailsAtCallTime},
    {ChangeKind::OverloadRenamed, "overload-renamed", Verdict::Breaking,
     "An overload was renamed: callers of the old name find nothing.",
     "Keep the old overload name, or register an adapter under it.", Consequence::FailsAtCallTime},
    {ChangeKind::ArgumentAddedWithoutDefault, "argument-added-without-default", Verdict::Breaking,
     "An operator gained an argument: old callers' stacks are read past their end.",
     "Register a schema adapter for callers built before the change.", Consequence::FailsAtCallTime},
    {ChangeKind::ArgumentAddedWithDefault, "argument-added-with-default", Verdict::Breaking,
     "An operator gained a defaulted argument: old callers' stacks are still short by one.",
     "Register a schema adapter for callers built before the change.", Consequence::FailsAtCallTime},
    {ChangeKind::ArgumentRemoved, "argument-removed", Verdict::Breaking,
     "An operator lost an argument: old callers' stacks are misread.",
     "Register a schema adapter for callers built before the change.", Consequence::FailsAtCallTime},
    {ChangeKind::ArgumentTypeChanged, "argument-type-changed", Verdict::Breaking,
     "An operator argument changed type: old callers pass the old type.",
     "Register a schema adapter for callers built before the change.", Consequence::FailsAtCallTime},
    {ChangeKind::ArgumentRenamed, "argument-renamed", Verdict::NeedsReview,
     "An operator argument was renamed with its type kept; indistinguishable from a swap.",
     "Check that the order of arguments did not change."},
    {ChangeKind::ArgumentDefaultChanged, "argument-default-changed", Verdict::NeedsReview,
     "An operator argument's default changed; old builds keep the old default.",
     "Check that both defaults give what callers expect."},
    {ChangeKind::AliasChanged, "alias-changed", Verdict::NeedsReview,
     "An operator's alias annotation changed (now writes an input or returns a view).",
     "Check what old callers assume about their tensors."},
    {ChangeKind::ReturnChanged, "return-changed", Verdict::Breaking,
     "An operator's returns changed: old callers read them as before.",
     "Register a schema adapter for callers built before the change.", Consequence::FailsAtCallTime},
    {ChangeKind::OperatorAdded, "operator-added", Verdict::Compatible, "A new operator or overload.",
     "Nothing: compatible."},
    {ChangeKind::HeadersDoNotCompile, "headers-do-not-compile", Verdict::Breaking,
     "The stable headers stop compiling at some target: every extension that builds there breaks.",
     "Fix the headers at that target (the first compiler error is in the finding).", Consequence::DoesNotCompile},
    {ChangeKind::HeaderRemoved, "header-removed", Verdict::Breaking,
     "A public header of the stable surface is gone: every extension that includes it stops compiling.",
     "Restore the header (it may forward to the new one), or keep it until no supported target needs it.",
     Consequence::DoesNotCompile},
    {ChangeKind::ParametersSwapped, "parameters-swapped", Verdict::NeedsReview,
     "Two parameters of one type swapped places with their names: old binaries pass each where the other is read.",
     "Restore the old order unless only the header's names were wrong."},
    {ChangeKind::MethodRemoved, "method-removed", Verdict::Breaking,
     "A C++ method, constructor or wrapper function of the stable headers is gone at every target.",
     "Keep it (deprecate it instead); add a changed version as a new overload behind a version guard.",
     Consequence::DoesNotCompile},
    {ChangeKind::MethodGuardLowered, "method-guard-lowered", Verdict::Compatible,
     "A C++ method of the stable headers is visible at older targets than before: new API for them.",
     "Nothing, if what it calls exists at those targets (lint headers H005 checks the shims it uses)."},
    {ChangeKind::MethodOverloadReplaced, "method-overload-replaced", Verdict::NeedsReview,
     "A C++ overload of the stable headers was replaced by one with other parameter types: binaries built "
     "before keep their inline copy, and calls compile where the arguments convert to the new types.",
     "Check that callers' arguments convert (compile one at the oldest target); code that takes the old "
     "overload's address must change."},
    {ChangeKind::GuardCorrected, "guard-corrected", Verdict::NeedsReview,
     "A C shim's guard was raised to the release that first shipped it: a use at the older targets compiled but "
     "did not load on them (no such symbol there); now it does not compile.",
     "Nothing for the release. A project that used it at an older target never ran there: raise its target to "
     "the shim's release."},
    // The type is the same, so a binary built before keeps working (its inline copy and its arguments were
    // compiled in); what breaks is the source that relied on it.
    {ChangeKind::DefaultArgumentRemoved, "default-argument-removed", Verdict::Breaking,
     "A parameter of a C++ method, constructor or wrapper function lost its default argument: a call that "
     "left it out, as users write it (`Device(DeviceType::CPU)`), no longer compiles.",
     "Keep the default; to change what the call means, add an overload behind a version guard.",
     Consequence::DoesNotCompile},
    {ChangeKind::DefaultArgumentRemovedOverloaded, "default-argument-removed-overloaded", Verdict::NeedsReview,
     "A parameter lost its default argument while another overload of the name takes as many arguments: a call "
     "that left it out now binds that overload where its arguments convert (another function runs), else it no "
     "longer compiles.",
     "Keep the default; check what the shortened calls bind to now (compile one as users write it)."},
    {ChangeKind::MadeExplicit, "made-explicit", Verdict::Breaking,
     "A constructor or conversion of the stable headers became `explicit`: an implicit conversion that compiled "
     "(`Device d = DeviceType::CPU;`, an argument passed where the class is expected) no longer does.",
     "Keep it implicit; add an explicit overload behind a version guard instead.", Consequence::DoesNotCompile},
    {ChangeKind::ConversionChanged, "conversion-changed", Verdict::Breaking,
     "The headers' inline from/to encode the same value into other bits (or decode them into another value): "
     "binaries built against the old release and the new libtorch disagree about it at call time.",
     "Restore the old encoding; a new one needs a new type or a version check on the extension's build version.",
     Consequence::FailsAtCallTime},
    {ChangeKind::ConversionRemoved, "conversion-removed", Verdict::Breaking,
     "A value or type the old headers' from/to converted is no longer converted by the new ones (refused, or "
     "its specialisation is gone).",
     "Keep the conversion, or suppress with a reason if no extension can pass the value.",
     Consequence::FailsAtCallTime},
    {ChangeKind::ConversionAdded, "conversion-added", Verdict::Compatible,
     "The new headers' from/to convert a value or type the old ones did not.", "Nothing to do."},
    {ChangeKind::WrapperExported, "wrapper-exported", Verdict::Breaking,
     "An extension built with the new headers exports a symbol of torch's namespaces that one built with the old "
     "headers did not: extensions built against different releases define it twice, and the loader may bind one "
     "extension's calls to the other's copy.",
     "Keep the header's inline code in a hidden namespace (HIDDEN_NAMESPACE_BEGIN) or give it hidden visibility.",
     Consequence::FailsAtCallTime},
}};

// The table has a row for every kind up to kLastChangeKind, in the enum's order; a missing row or one
// out of order stops the build here.
constexpr bool rows_follow_the_enum() {
  if (kRules.size() != static_cast<std::size_t>(kLastChangeKind) + 1) return false;
  for (std::size_t i = 0; i < kRules.size(); ++i) {
    if (static_cast<std::size_t>(kRules[i].kind) != i) return false;
  }
  return true;
}
static_assert(rows_follow_the_enum(), "kRules: one row per ChangeKind, in the enum's order");

constexpr std::array<ChangeKind, kRules.size()> kAllKinds = [] {
  std::array<ChangeKind, kRules.size()> kinds{};
  for (std::size_t i = 0; i < kRules.size(); ++i) kinds[i] = kRules[i].kind;
  return kinds;
}();

const ChangeRule& rule_of(ChangeKind kind) { return *std::ranges::find(kRules, kind, &ChangeRule::kind); }

}  // namespace

std::span<const ChangeKind> all_change_kinds() { return kAllKinds; }

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Breaking: return "breaking";
    case Verdict::NeedsReview: return "needs-review";
    case Verdict::Compatible: return "compatible";
  }
  return "unknown";
}

std::string_view to_string(ChangeKind kind) { return rule_of(kind).id; }

std::optional<KindText> change_kind_text(std::string_view id) {
  auto found = std::ranges::find(kRules, id, &ChangeRule::id);
  if (found == kRules.end()) return std::nullopt;
  return KindText{.meaning = std::string(found->meaning), .remedy = std::string(found->remedy)};
}

Verdict verdict_of(ChangeKind kind) { return rule_of(kind).verdict; }

Consequence consequence_of(ChangeKind kind) { return rule_of(kind).consequence; }

}  // namespace abicheck

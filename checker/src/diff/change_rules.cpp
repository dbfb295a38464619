#include <algorithm>
#include <array>

#include "diff/abi_change.h"

namespace abicheck {
namespace {

struct ChangeRule {
  ChangeKind kind;
  std::string_view id;
  Verdict verdict;
};

// One row per kind of change. Why each verdict:
// * an extension built against OLD imports every OLD function by name with OLD's types, so a
//   removal, a new signature under the same name, a layout change of a type it passes, or a
//   removed export fails at load time or corrupts memory at run time: breaking;
// * a guard whose version moved changes what an extension targeting an older release compiles
//   against; a declaration added without a guard at the new release lets an extension targeting
//   an older release compile a call that the older library lacks: breaking;
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
constexpr std::array<ChangeRule, 28> kRules{{
    {ChangeKind::FunctionRemoved, "function-removed", Verdict::Breaking},
    {ChangeKind::SignatureChanged, "signature-changed", Verdict::Breaking},
    {ChangeKind::TypeChanged, "type-changed", Verdict::Breaking},
    {ChangeKind::TypeRemoved, "type-removed", Verdict::Breaking},
    {ChangeKind::GuardChanged, "guard-changed", Verdict::Breaking},
    {ChangeKind::BackendChanged, "backend-changed", Verdict::NeedsReview},
    {ChangeKind::AddedWithoutGuard, "added-without-guard", Verdict::Breaking},
    {ChangeKind::Added, "added", Verdict::Compatible},
    {ChangeKind::EnumValueChanged, "enum-value-changed", Verdict::NeedsReview},
    {ChangeKind::EnumValueRemoved, "enum-value-removed", Verdict::NeedsReview},
    {ChangeKind::MacroValueChanged, "macro-value-changed", Verdict::NeedsReview},
    {ChangeKind::ExportRemoved, "export-removed", Verdict::Breaking},
    {ChangeKind::DeclaredNotExported, "declared-not-exported", Verdict::Breaking},
    {ChangeKind::OperatorRemoved, "operator-removed", Verdict::Breaking},
    {ChangeKind::OverloadRemoved, "overload-removed", Verdict::Breaking},
    {ChangeKind::OverloadRenamed, "overload-renamed", Verdict::Breaking},
    {ChangeKind::ArgumentAddedWithoutDefault, "argument-added-without-default", Verdict::Breaking},
    {ChangeKind::ArgumentAddedWithDefault, "argument-added-with-default", Verdict::Breaking},
    {ChangeKind::ArgumentRemoved, "argument-removed", Verdict::Breaking},
    {ChangeKind::ArgumentTypeChanged, "argument-type-changed", Verdict::Breaking},
    {ChangeKind::ArgumentRenamed, "argument-renamed", Verdict::NeedsReview},
    {ChangeKind::ArgumentDefaultChanged, "argument-default-changed", Verdict::NeedsReview},
    {ChangeKind::AliasChanged, "alias-changed", Verdict::NeedsReview},
    {ChangeKind::ReturnChanged, "return-changed", Verdict::Breaking},
    {ChangeKind::OperatorAdded, "operator-added", Verdict::Compatible},
    {ChangeKind::HeadersDoNotCompile, "headers-do-not-compile", Verdict::Breaking},
    {ChangeKind::HeaderRemoved, "header-removed", Verdict::Breaking},
    {ChangeKind::ParametersSwapped, "parameters-swapped", Verdict::NeedsReview},
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

Verdict verdict_of(ChangeKind kind) { return rule_of(kind).verdict; }

}  // namespace abicheck

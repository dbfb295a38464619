#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/suppression_file.h"
#include "core/torch_version.h"

namespace abicheck {

// The project's own verdicts on a change between two releases; libabigail's exit bits are never
// used for them.
enum class Verdict { Breaking, NeedsReview, Compatible };

std::string_view to_string(Verdict verdict);

// The kinds of change, each with its verdict (see change_rules.cpp for the table and why).
enum class ChangeKind {
  FunctionRemoved,
  SignatureChanged,
  TypeChanged,
  TypeRemoved,
  GuardChanged,
  BackendChanged,
  AddedWithoutGuard,
  Added,
  EnumValueChanged,
  EnumValueRemoved,
  MacroValueChanged,
  ExportRemoved,
  DeclaredNotExported,
  // Operator schemas (the dispatcher's operators, called by name through torch_call_dispatcher).
  OperatorRemoved,
  OverloadRemoved,
  OverloadRenamed,
  ArgumentAddedWithoutDefault,
  ArgumentAddedWithDefault,
  ArgumentRemoved,
  ArgumentTypeChanged,
  ArgumentRenamed,
  ArgumentDefaultChanged,
  AliasChanged,
  ReturnChanged,
  OperatorAdded,
  // The headers as a whole.
  HeadersDoNotCompile,
  HeaderRemoved,
  ParametersSwapped,
  // The C++ of the headers (DeclarationKind::Method).
  MethodRemoved,
  MethodGuardLowered,
  MethodOverloadReplaced,
  // A C shim's guard raised to the release that first shipped it (the release history says which).
  GuardCorrected,
  // How the C++ of the headers is called (DeclarationKind::Method), beside its type.
  DefaultArgumentRemoved,
  DefaultArgumentRemovedOverloaded,
  MadeExplicit,
  // What the headers' inline conversions of the boxed calling convention do (behaviour.json).
  ConversionChanged,
  ConversionRemoved,
  ConversionAdded,
  // What an extension built with the headers exports (behaviour.json's probe extension).
  WrapperExported,
};
// The last kind: move it with the enum. change_rules.cpp's table must then have a row for every kind
// up to it, in order, or the build stops.
inline constexpr ChangeKind kLastChangeKind = ChangeKind::WrapperExported;

std::string_view to_string(ChangeKind kind);
Verdict verdict_of(ChangeKind kind);
// What a breaking change of this kind does to an extension; Unstated for the others.
Consequence consequence_of(ChangeKind kind);
// Every kind, in the order of the enum (change_rules.cpp's table, which the build checks is complete).
std::span<const ChangeKind> all_change_kinds();
// What a change kind (by its id, "function-removed") means and what to do about it.
std::optional<KindText> change_kind_text(std::string_view id);

// One change a diff found: which declaration, what kind, and the details a reader needs (the
// parameter that changed, the old and new guard).
struct AbiChange {
  std::string name;
  ChangeKind kind = ChangeKind::Added;
  std::string detail;
  std::string suppressed_because;  // the suppression's reason when one accepted this change

  Verdict verdict() const { return verdict_of(kind); }
  auto operator<=>(const AbiChange&) const = default;
};

struct AbiDiff {
  TorchVersion old_release;
  TorchVersion new_release;
  std::vector<AbiChange> changes;                        // sorted by (name, kind)
  std::vector<SuppressionProblem> suppression_problems;  // the --suppressions file's stale and expired entries
};

}  // namespace abicheck

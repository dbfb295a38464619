#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E010", "unreleased-api", LintSeverity::Error,
    "A translation unit uses a stable API that no torch release declares.",
    "Use only APIs that a released torch declares; the name may be misspelt or only on torch's main branch."};

// A name some release declares, as the rule compares it.
struct ReleasedName {
  DeclarationName name;
  DeclarationKind kind;
  TorchVersion since;
};

bool is_type(DeclarationKind kind) {
  return kind == DeclarationKind::Struct || kind == DeclarationKind::Typedef || kind == DeclarationKind::Enum;
}

// Whether the unit meant torch's API: a C shim's name, a member of the stable C++ namespaces (each of
// their declarations is in the inventories), or of another torch namespace when it is a near miss of a
// released name there. A project's own undeclared names are its own business.
bool is_torch_api(const MissingDeclaration& missing, bool near_a_released_name) {
  if (missing.name.starts_with("aoti_torch_") || missing.name.starts_with("torch_")) return true;
  if (missing.scope.starts_with("torch::stable") || missing.scope.starts_with("torch::headeronly")) return true;
  return near_a_released_name && (missing.scope.starts_with("torch") || missing.scope.starts_with("c10"));
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The released name nearest to the missing one, when it is close enough to be the one meant (a typo
// of a few characters, more for a long name): among names of the same scope and of the same sort
// (a type where the error wanted a type, else a value or function).
const ReleasedName* nearest_released(const MissingDeclaration& missing, bool wants_type,
                                     const std::vector<ReleasedName>& released) {
  const std::string& name = missing.name;
  const std::size_t close_enough = std::max<std::size_t>(2, name.size() / 6);
  const ReleasedName* nearest = nullptr;
  std::size_t best = close_enough + 1;
  for (const auto& entry : released) {
    if (is_type(entry.kind) != wants_type || !entry.name.is_in_scope(missing.scope)) continue;
    const std::string& candidate = entry.name.name;
    const std::size_t length_gap =
        candidate.size() > name.size() ? candidate.size() - name.size() : name.size() - candidate.size();
    if (length_gap >= best) continue;
    std::size_t distance = edit_distance(name, candidate);
    if (distance < best || (distance == best && nearest && entry.since < nearest->since)) {
      best = distance;
      nearest = &entry;
    }
  }
  return nearest;
}

bool wants_a_type(const CompileError& error) {
  return error.message.starts_with("unknown type name") || error.message.starts_with("no type named") ||
         error.message.starts_with("no template named");
}

// An undeclared name that some release declares is E003's case (newer than the target) or a backend
// the unit is not compiled for; one that no release declares is a typo or an API of an unreleased
// torch, which only the build failure would tell otherwise.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  if (context.released_names.empty()) return;
  std::vector<ReleasedName> released;
  for (const auto& [key, since] : context.released_names) {
    released.push_back({declaration_name(key.first), key.second, since});
  }
  const std::string releases =
      fmt::format("{} to {}", context.known_releases.front().to_string(), context.known_releases.back().to_string());
  for (const auto& unit : facts.units) {
    for (const auto& error : unit.errors) {
      const MissingDeclaration& missing = error.missing;
      if (missing.name.empty() || missing.overload_missing) continue;
      if (std::ranges::any_of(released, [&](const ReleasedName& r) { return may_mean(missing, r.name); })) continue;
      const ReleasedName* nearest = nearest_released(missing, wants_a_type(error), released);
      if (!is_torch_api(missing, nearest != nullptr)) continue;
      std::string spelled = missing.scope.empty() ? missing.name : missing.scope + "::" + missing.name;
      std::string message = fmt::format("'{}' is declared by no torch release known here ({})", spelled, releases);
      if (nearest) {
        message += fmt::format("; did you mean '{}' (torch {} declares it)?", nearest->name.qualified(),
                               nearest->since.to_string());
      }
      sink.report(rule, error.where, message);
    }
  }
}

}  // namespace

ExtensionRule unreleased_api_rule() { return {kRule, check}; }

}  // namespace abicheck

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

// Whether the unit meant torch's API: a C shim name, or a member of a torch namespace that is a near
// miss of a released name. The C++ wrappers of torch/csrc/stable are not in the inventories, so an
// undeclared wrapper cannot be told apart from one newer than the target; and a project's own
// undeclared names are its own business.
bool is_torch_api(const CompileError& error, bool near_a_released_name) {
  if (error.missing_name.starts_with("aoti_torch_") || error.missing_name.starts_with("torch_")) return true;
  return near_a_released_name && (error.message.find("namespace 'torch") != std::string::npos ||
                                  error.message.find("namespace 'c10") != std::string::npos);
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

// The released name nearest to `name`, when it is close enough to be the one meant: a typo of a
// few characters, more for a long name.
const std::pair<const std::string, TorchVersion>* nearest_released(
    const std::string& name, const std::map<std::string, TorchVersion>& released) {
  const std::size_t close_enough = std::max<std::size_t>(2, name.size() / 6);
  const std::pair<const std::string, TorchVersion>* nearest = nullptr;
  std::size_t best = close_enough + 1;
  for (const auto& entry : released) {
    const std::size_t length_gap =
        entry.first.size() > name.size() ? entry.first.size() - name.size() : name.size() - entry.first.size();
    if (length_gap >= best) continue;
    std::size_t distance = edit_distance(name, entry.first);
    if (distance < best) {
      best = distance;
      nearest = &entry;
    }
  }
  return nearest;
}

// An undeclared name that some release declares is E003's case (newer than the target) or a backend
// the unit is not compiled for; one that no release declares is a typo or an API of an unreleased
// torch, which only the build failure would tell otherwise.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  if (context.released_names.empty()) return;
  const std::string releases =
      fmt::format("{} to {}", context.known_releases.front().to_string(), context.known_releases.back().to_string());
  for (const auto& unit : facts.units) {
    for (const auto& error : unit.errors) {
      const std::string& name = error.missing_name;
      if (name.empty() || context.released_names.contains(name)) continue;
      const auto* nearest = nearest_released(name, context.released_names);
      if (!is_torch_api(error, nearest != nullptr)) continue;
      std::string message = fmt::format("'{}' is declared by no torch release known here ({})", name, releases);
      if (nearest) {
        message +=
            fmt::format("; did you mean '{}' (torch {} declares it)?", nearest->first, nearest->second.to_string());
      }
      sink.report(rule, error.where, message);
    }
  }
}

}  // namespace

ExtensionRule unreleased_api_rule() { return {kRule, check}; }

}  // namespace abicheck

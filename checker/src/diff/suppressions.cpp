#include "diff/suppressions.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "core/tool_error.h"

namespace abicheck {
namespace {

std::optional<ChangeKind> change_kind_from_string(std::string_view text) {
  for (ChangeKind kind : all_change_kinds()) {
    if (to_string(kind) == text) return kind;
  }
  return std::nullopt;
}

}  // namespace

std::vector<Suppression> load_suppressions(const std::filesystem::path& path) {
  toml::table document;
  try {
    document = toml::parse_file(path.string());
  } catch (const toml::parse_error& error) {
    throw ToolError(fmt::format("{}:{}: {}", path.string(), error.source().begin.line, error.description()));
  }
  std::vector<Suppression> suppressions;
  const toml::array* entries = document["suppress"].as_array();
  if (!entries && document.contains("suppress"))
    throw ToolError(fmt::format("{}: 'suppress' must be an array of tables", path.string()));
  if (!entries) return suppressions;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table* entry = entries->get(i)->as_table();
    auto fail = [&](std::string_view problem) {
      return ToolError(fmt::format("{}: suppression {}: {}", path.string(), i + 1, problem));
    };
    if (!entry) throw fail("not a table");
    Suppression suppression;
    suppression.name = entry->get("name") ? entry->get("name")->value_or(std::string()) : "";
    suppression.reason = entry->get("reason") ? entry->get("reason")->value_or(std::string()) : "";
    if (suppression.name.empty()) throw fail("'name' is missing");
    if (suppression.reason.empty()) throw fail("'reason' is missing: say why the change is accepted");
    if (const toml::node* kind = entry->get("kind")) {
      std::string text = kind->value_or(std::string());
      suppression.kind = change_kind_from_string(text);
      if (!suppression.kind) throw fail(fmt::format("unknown kind '{}'", text));
    }
    suppressions.push_back(std::move(suppression));
  }
  return suppressions;
}

void apply_suppressions(const std::vector<Suppression>& suppressions, std::vector<AbiChange>& changes) {
  std::vector<AbiChange> stale;
  for (const auto& suppression : suppressions) {
    bool matched = false;
    for (auto& change : changes) {
      if (change.name != suppression.name || (suppression.kind && *suppression.kind != change.kind)) continue;
      change.suppressed_because = suppression.reason;
      matched = true;
    }
    if (!matched) {
      stale.push_back(
          {suppression.name,
           ChangeKind::StaleSuppression,
           fmt::format("suppression{} matches no change (reason given: {})",
                       suppression.kind ? fmt::format(" of {}", to_string(*suppression.kind)) : "", suppression.reason),
           {}});
    }
  }
  changes.insert(changes.end(), stale.begin(), stale.end());
}

}  // namespace abicheck

#include "diff/suppressions.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/tool_error.h"

namespace abicheck {
namespace {

const SuppressionTable kDiffTables[] = {{.name = "suppress", .required = {"name"}, .optional = {"kind"}}};

bool is_change_kind(std::string_view text) {
  return std::ranges::any_of(all_change_kinds(), [&](ChangeKind kind) { return to_string(kind) == text; });
}

}  // namespace

SuppressionFile load_suppressions(const std::filesystem::path& path, CalendarDay today) {
  SuppressionFile file = SuppressionFile::load(path, kDiffTables, today);
  for (const auto& entry : file.entries()) {
    if (auto kind = entry.key("kind"); kind && !is_change_kind(*kind)) {
      throw ToolError(fmt::format("{}:{}: [[suppress]]: unknown kind '{}'", path.string(), entry.line, *kind));
    }
  }
  return file;
}

void apply_suppressions(SuppressionFile& suppressions, std::vector<AbiChange>& changes) {
  for (auto& change : changes) {
    const SuppressionEntry* entry = suppressions.match("suppress", [&](const SuppressionEntry& candidate) {
      auto kind = candidate.key("kind");
      return candidate.key("name") == change.name && (!kind || *kind == to_string(change.kind));
    });
    if (entry) change.suppressed_because = entry->reason;
  }
}

}  // namespace abicheck

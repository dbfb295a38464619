#include "lint/lint_suppressions.h"

#include <algorithm>

namespace abicheck {
namespace {

const SuppressionTable kLintTables[] = {{.name = "finding", .required = {"rule"}, .optional = {"file"}}};

bool file_matches(const std::string& pattern, const std::filesystem::path& file, const std::filesystem::path& base) {
  std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  if (glob_matches(pattern, absolute.string())) return true;
  std::filesystem::path relative = absolute.lexically_relative(base);
  return !relative.empty() && !relative.string().starts_with("..") && glob_matches(pattern, relative.string());
}

}  // namespace

SuppressionFile load_lint_suppressions(const std::filesystem::path& path, CalendarDay today) {
  return SuppressionFile::load(path, kLintTables, today);
}

void apply_lint_suppressions(SuppressionFile& suppressions, LintReport& report) {
  std::filesystem::path base = std::filesystem::absolute(suppressions.path()).parent_path().lexically_normal();
  std::vector<LintDiagnostic> kept;
  for (auto& diagnostic : report.diagnostics) {
    const SuppressionEntry* entry = suppressions.match("finding", [&](const SuppressionEntry& candidate) {
      auto file = candidate.key("file");
      return candidate.key("rule") == diagnostic.rule && (!file || file_matches(*file, diagnostic.where.file, base));
    });
    if (entry) report.suppressed.push_back({std::move(diagnostic), entry->reason});
    else kept.push_back(std::move(diagnostic));
  }
  report.diagnostics = std::move(kept);
  report.suppression_problems = suppressions.problems();
}

}  // namespace abicheck

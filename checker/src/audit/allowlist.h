#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/suppression_file.h"

namespace abicheck {

// The audit's suppressions: an accepted unstable symbol (mangled or demangled name, glob allowed) or a
// whole object (path glob). The file is the one suppression format (docs/suppressions.md):
//   [[symbol]]                            [[object]]
//   name = "_ZN3c10*"                     path = "*/libvendored_ops.so"
//   reason = "why this is accepted"       reason = "why this object is accepted"
//   expires = 2026-12-31                  # optional, both
// An entry that matched nothing, or whose expiry passed, is a finding: the list only shrinks.
class Allowlist {
 public:
  // Throws ToolError naming the file and line on a parse error, an unknown key, or an entry without a reason.
  static Allowlist load(const std::filesystem::path& path, CalendarDay today);

  // The matching entry (and counts the use), or nullptr; an expired entry matches nothing.
  const SuppressionEntry* match_symbol(std::string_view mangled, std::string_view demangled);
  const SuppressionEntry* match_object(std::string_view path);

  std::vector<SuppressionProblem> problems() const { return file_.problems(); }
  const std::filesystem::path& path() const { return file_.path(); }

 private:
  explicit Allowlist(SuppressionFile file) : file_(std::move(file)) {}
  SuppressionFile file_;
};

}  // namespace abicheck

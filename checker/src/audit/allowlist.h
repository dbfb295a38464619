#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace abicheck {

// One accepted exception: an unstable symbol (by mangled or demangled name, glob allowed) or a whole
// object (by path glob). `matches` counts uses, so an entry that matched nothing can fail the audit:
// the list only shrinks.
struct AllowlistEntry {
  enum class Kind { Symbol, Object };
  Kind kind = Kind::Symbol;
  std::string pattern;
  std::string reason;
  int line = 0;  // in the TOML file, for the stale-entry message
  int matches = 0;
};

// The TOML file:
//   [[symbol]]                            [[object]]
//   name = "_ZN3c10*"                     path = "*/libvendored_ops.so"
//   reason = "why this is accepted"       reason = "why this object is accepted"
class Allowlist {
 public:
  // Throws ToolError naming the file on a parse error, an unknown key, or an entry without a reason.
  static Allowlist load(const std::filesystem::path& path);

  // The matching entry's reason (and counts the use), or nullptr.
  const AllowlistEntry* match_symbol(std::string_view mangled, std::string_view demangled);
  const AllowlistEntry* match_object(std::string_view path);

  std::vector<AllowlistEntry> stale_entries() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<AllowlistEntry> entries_;
};

}  // namespace abicheck

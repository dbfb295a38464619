#include "audit/allowlist.h"

namespace abicheck {
namespace {

const SuppressionTable kAllowlistTables[] = {
    {.name = "symbol", .required = {"name"}, .optional = {}},
    {.name = "object", .required = {"path"}, .optional = {}},
};

}  // namespace

Allowlist Allowlist::load(const std::filesystem::path& path, CalendarDay today) {
  return Allowlist(SuppressionFile::load(path, kAllowlistTables, today));
}

const SuppressionEntry* Allowlist::match_symbol(std::string_view mangled, std::string_view demangled) {
  return file_.match("symbol", [&](const SuppressionEntry& entry) {
    std::string pattern = *entry.key("name");
    return glob_matches(pattern, mangled) || glob_matches(pattern, demangled);
  });
}

const SuppressionEntry* Allowlist::match_object(std::string_view path) {
  std::size_t slash = path.find_last_of("/!");
  std::string_view file_name = path.substr(slash == std::string_view::npos ? 0 : slash + 1);
  return file_.match("object", [&](const SuppressionEntry& entry) {
    std::string pattern = *entry.key("path");
    return glob_matches(pattern, path) || glob_matches(pattern, file_name);
  });
}

}  // namespace abicheck

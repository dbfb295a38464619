#include "audit/allowlist.h"

#include <fmt/format.h>
#include <fnmatch.h>
#include <toml++/toml.h>

#include "core/tool_error.h"

namespace abicheck {
namespace {

bool glob_matches(const std::string& pattern, std::string_view text) {
  return ::fnmatch(pattern.c_str(), std::string(text).c_str(), 0) == 0;
}

}  // namespace

Allowlist Allowlist::load(const std::filesystem::path& path) {
  toml::table document;
  try {
    document = toml::parse_file(path.string());
  } catch (const toml::parse_error& error) {
    throw ToolError(fmt::format("{}:{}: {}", path.string(), error.source().begin.line, error.description()));
  }
  Allowlist allowlist;
  allowlist.path_ = path;
  for (auto&& [key, value] : document) {
    AllowlistEntry::Kind kind;
    if (key.str() == "symbol") kind = AllowlistEntry::Kind::Symbol;
    else if (key.str() == "object") kind = AllowlistEntry::Kind::Object;
    else
      throw ToolError(
          fmt::format("{}: unknown table '{}' (expected [[symbol]] or [[object]])", path.string(), key.str()));
    const toml::array* entries = value.as_array();
    if (!entries)
      throw ToolError(fmt::format("{}: '{}' must be an array of tables ([[{}]])", path.string(), key.str(), key.str()));
    for (const auto& element : *entries) {
      const toml::table* table = element.as_table();
      int line = static_cast<int>(element.source().begin.line);
      if (!table)
        throw ToolError(fmt::format("{}:{}: each [[{}]] entry must be a table", path.string(), line, key.str()));
      std::string_view pattern_key = kind == AllowlistEntry::Kind::Symbol ? "name" : "path";
      for (auto&& [field, field_value] : *table) {
        if (field.str() != pattern_key && field.str() != "reason") {
          throw ToolError(fmt::format("{}:{}: unknown key '{}' in [[{}]] (expected {} and reason)", path.string(), line,
                                      field.str(), key.str(), pattern_key));
        }
      }
      auto pattern = (*table)[pattern_key].value<std::string>();
      auto reason = (*table)["reason"].value<std::string>();
      if (!pattern || pattern->empty()) {
        throw ToolError(
            fmt::format("{}:{}: [[{}]] needs a non-empty '{}'", path.string(), line, key.str(), pattern_key));
      }
      if (!reason || reason->empty()) {
        throw ToolError(fmt::format("{}:{}: [[{}]] '{}' needs a reason", path.string(), line, key.str(), *pattern));
      }
      allowlist.entries_.push_back({kind, *pattern, *reason, line, 0});
    }
  }
  return allowlist;
}

const AllowlistEntry* Allowlist::match_symbol(std::string_view mangled, std::string_view demangled) {
  for (auto& entry : entries_) {
    if (entry.kind == AllowlistEntry::Kind::Symbol &&
        (glob_matches(entry.pattern, mangled) || glob_matches(entry.pattern, demangled))) {
      ++entry.matches;
      return &entry;
    }
  }
  return nullptr;
}

const AllowlistEntry* Allowlist::match_object(std::string_view path) {
  std::string_view file_name =
      path.substr(path.find_last_of("/!") == std::string_view::npos ? 0 : path.find_last_of("/!") + 1);
  for (auto& entry : entries_) {
    if (entry.kind == AllowlistEntry::Kind::Object &&
        (glob_matches(entry.pattern, path) || glob_matches(entry.pattern, file_name))) {
      ++entry.matches;
      return &entry;
    }
  }
  return nullptr;
}

std::vector<AllowlistEntry> Allowlist::stale_entries() const {
  std::vector<AllowlistEntry> stale;
  for (const auto& entry : entries_) {
    if (entry.matches == 0) stale.push_back(entry);
  }
  return stale;
}

}  // namespace abicheck

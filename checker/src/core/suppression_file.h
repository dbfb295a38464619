#pragma once

#include <compare>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace abicheck {

// A calendar day, as a suppression's `expires = YYYY-MM-DD` gives it.
struct CalendarDay {
  int year = 0;
  int month = 0;
  int day = 0;

  // nullopt unless the text is exactly YYYY-MM-DD with a month and day that exist.
  static std::optional<CalendarDay> parse(std::string_view text);
  std::string to_string() const;
  auto operator<=>(const CalendarDay&) const = default;
};

// The environment variable that fixes "today" for suppression expiry (tests; reproducing an old run).
inline constexpr const char* kTodayVariable = "TORCH_ABI_CHECK_TODAY";

// Today in UTC, or the day TORCH_ABI_CHECK_TODAY gives. Throws ToolError when that variable is not a day.
CalendarDay suppression_today();

// One kind of entry a stage accepts: the TOML array of tables' name and the keys that say what the
// entry matches (string values). `reason` (required) and `expires` (optional) are every table's.
struct SuppressionTable {
  std::string name;                   // "symbol" for [[symbol]]
  std::vector<std::string> required;  // "name"
  std::vector<std::string> optional;  // "kind"
};

// One entry of a suppression file: what it matches, why, until when, and how often it matched.
struct SuppressionEntry {
  std::string table;
  std::map<std::string, std::string> keys;  // the matching keys the entry gives
  std::string reason;
  std::optional<CalendarDay> expires;
  bool expired = false;  // expires is before today: the entry suppresses nothing
  int line = 0;
  int matches = 0;

  // The value of a matching key, or nullopt when the entry does not give it.
  std::optional<std::string> key(const std::string& name) const;
  // `[[symbol]] name = "_ZN3c10*"`: how messages name the entry.
  std::string describe() const;
};

// A suppression entry that needs attention: it matched nothing (stale) or its expiry passed (expired).
struct SuppressionProblem {
  enum class Kind { Stale, Expired };
  Kind kind = Kind::Stale;
  std::string file;
  int line = 0;
  std::string entry;  // SuppressionEntry::describe()
  std::string reason;
  std::optional<CalendarDay> expires;

  std::string_view kind_name() const;  // "stale", "expired"
  std::string message() const;
};

// The one suppression format of audit, diff and lint (docs/suppressions.md): a TOML file of arrays of
// tables, each entry with its matching keys, a required `reason` and an optional `expires`.
class SuppressionFile {
 public:
  // Throws ToolError naming the file and line on bad TOML, an unknown table or key, a missing key or
  // reason, or an expiry that is not a day.
  static SuppressionFile load(const std::filesystem::path& path, std::span<const SuppressionTable> tables,
                              CalendarDay today);

  const std::filesystem::path& path() const { return path_; }
  std::vector<SuppressionEntry>& entries() { return entries_; }
  const std::vector<SuppressionEntry>& entries() const { return entries_; }

  // The first entry of `table` that is not expired and that `matches` accepts; counts the use.
  template <typename Predicate>
  const SuppressionEntry* match(std::string_view table, Predicate matches) {
    for (auto& entry : entries_) {
      if (entry.table != table || entry.expired || !matches(entry)) continue;
      ++entry.matches;
      return &entry;
    }
    return nullptr;
  }

  // Expired entries and unexpired entries that matched nothing, in file order.
  std::vector<SuppressionProblem> problems() const;

 private:
  std::filesystem::path path_;
  std::vector<SuppressionEntry> entries_;
};

// Shell-style glob (fnmatch, `*` crosses `/`).
bool glob_matches(const std::string& pattern, std::string_view text);

// A stage's finding for one suppression problem: kind "stale-suppression" or "expired-suppression",
// placed at the file and line of the entry.
Finding suppression_finding(const SuppressionProblem& problem, std::string stage);
// What the kinds of suppression_finding mean ("stale-suppression", "expired-suppression").
std::optional<KindText> suppression_kind_text(std::string_view kind);

}  // namespace abicheck

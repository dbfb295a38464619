#include "core/suppression_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

bool is_known_day(int year, int month, int day) {
  return std::chrono::year_month_day(std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                     std::chrono::day(static_cast<unsigned>(day)))
      .ok();
}

std::optional<int> digits(std::string_view text) {
  int value = 0;
  if (text.empty() || !std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

const SuppressionTable* find_table(std::span<const SuppressionTable> tables, std::string_view name) {
  auto found = std::ranges::find(tables, name, &SuppressionTable::name);
  return found == tables.end() ? nullptr : &*found;
}

std::string table_list(std::span<const SuppressionTable> tables) {
  std::vector<std::string> names;
  for (const auto& table : tables) names.push_back(fmt::format("[[{}]]", table.name));
  return fmt::format("{}", fmt::join(names, " or "));
}

// `expires` as a TOML date (expires = 2026-12-31) or a string ("2026-12-31").
std::optional<CalendarDay> expiry_of(const toml::node& node) {
  if (const auto* date = node.as_date()) {
    const toml::date& value = date->get();
    CalendarDay day{value.year, value.month, value.day};
    return is_known_day(day.year, day.month, day.day) ? std::optional(day) : std::nullopt;
  }
  if (const auto* text = node.as_string()) return CalendarDay::parse(text->get());
  return std::nullopt;
}

SuppressionEntry read_entry(const std::filesystem::path& path, const SuppressionTable& table, const toml::table& entry,
                            int line, CalendarDay today) {
  auto fail = [&](std::string_view problem) {
    return ToolError(fmt::format("{}:{}: [[{}]]: {}", path.string(), line, table.name, problem));
  };
  SuppressionEntry result{.table = table.name, .line = line};
  for (auto&& [key, value] : entry) {
    std::string name(key.str());
    bool matching = std::ranges::count(table.required, name) + std::ranges::count(table.optional, name) > 0;
    if (name == "reason") {
      result.reason = value.value_or(std::string());
    } else if (name == "expires") {
      result.expires = expiry_of(value);
      if (!result.expires) throw fail("'expires' must be a day, YYYY-MM-DD");
    } else if (matching) {
      auto text = value.value<std::string>();
      if (!text || text->empty()) throw fail(fmt::format("'{}' must be a non-empty string", name));
      result.keys[name] = *text;
    } else {
      std::vector<std::string> known = table.required;
      known.insert(known.end(), table.optional.begin(), table.optional.end());
      throw fail(fmt::format("unknown key '{}' (expected {}, reason and expires)", name, fmt::join(known, ", ")));
    }
  }
  for (const auto& key : table.required) {
    if (!result.keys.contains(key)) throw fail(fmt::format("'{}' is missing", key));
  }
  if (result.reason.empty()) throw fail("needs a reason: say why it is accepted");
  result.expired = result.expires && *result.expires < today;
  return result;
}

}  // namespace

std::optional<CalendarDay> CalendarDay::parse(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto year = digits(text.substr(0, 4)), month = digits(text.substr(5, 2)), day = digits(text.substr(8, 2));
  if (!year || !month || !day || !is_known_day(*year, *month, *day)) return std::nullopt;
  return CalendarDay{*year, *month, *day};
}

std::string CalendarDay::to_string() const { return fmt::format("{:04}-{:02}-{:02}", year, month, day); }

CalendarDay suppression_today() {
  if (const char* fixed = std::getenv(kTodayVariable); fixed && *fixed) {
    if (auto day = CalendarDay::parse(fixed)) return *day;
    throw ToolError(fmt::format("{}='{}' is not a day (YYYY-MM-DD)", kTodayVariable, fixed));
  }
  std::chrono::year_month_day today(std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
  return {static_cast<int>(today.year()), static_cast<int>(static_cast<unsigned>(today.month())),
          static_cast<int>(static_cast<unsigned>(today.day()))};
}

std::optional<std::string> SuppressionEntry::key(const std::string& name) const {
  auto found = keys.find(name);
  return found == keys.end() ? std::nullopt : std::optional(found->second);
}

std::string SuppressionEntry::describe() const {
  std::vector<std::string> parts;
  for (const auto& [name, value] : keys) parts.push_back(fmt::format("{} = \"{}\"", name, value));
  return fmt::format("[[{}]] {}", table, fmt::join(parts, ", "));
}

std::string_view SuppressionProblem::kind_name() const { return kind == Kind::Stale ? "stale" : "expired"; }

std::string SuppressionProblem::message() const {
  if (kind == Kind::Expired) {
    return fmt::format("{} expired on {}: it suppresses nothing now; fix what it covered or renew it with a reason",
                       entry, expires ? expires->to_string() : "");
  }
  return fmt::format("{} matches nothing; remove it (reason given: {})", entry, reason);
}

SuppressionFile SuppressionFile::load(const std::filesystem::path& path, std::span<const SuppressionTable> tables,
                                      CalendarDay today) {
  toml::table document;
  try {
    document = toml::parse(read_file_text(path), path.string());
  } catch (const toml::parse_error& error) {
    throw ToolError(fmt::format("{}:{}: {}", path.string(), error.source().begin.line, error.description()));
  }
  SuppressionFile file;
  file.path_ = path;
  for (auto&& [key, value] : document) {
    const SuppressionTable* table = find_table(tables, key.str());
    int line = static_cast<int>(value.source().begin.line);
    if (!table) {
      throw ToolError(
          fmt::format("{}:{}: unknown table '{}' (expected {})", path.string(), line, key.str(), table_list(tables)));
    }
    const toml::array* entries = value.as_array();
    if (!entries) {
      throw ToolError(
          fmt::format("{}:{}: '{}' must be an array of tables ([[{}]])", path.string(), line, key.str(), key.str()));
    }
    for (const auto& element : *entries) {
      int entry_line = static_cast<int>(element.source().begin.line);
      const toml::table* entry = element.as_table();
      if (!entry) {
        throw ToolError(fmt::format("{}:{}: each [[{}]] entry must be a table", path.string(), entry_line, key.str()));
      }
      file.entries_.push_back(read_entry(path, *table, *entry, entry_line, today));
    }
  }
  std::ranges::sort(file.entries_, {}, &SuppressionEntry::line);
  return file;
}

std::vector<SuppressionProblem> SuppressionFile::problems() const {
  std::vector<SuppressionProblem> problems;
  for (const auto& entry : entries_) {
    if (!entry.expired && entry.matches > 0) continue;
    problems.push_back({.kind = entry.expired ? SuppressionProblem::Kind::Expired : SuppressionProblem::Kind::Stale,
                        .file = path_.string(),
                        .line = entry.line,
                        .entry = entry.describe(),
                        .reason = entry.reason,
                        .expires = entry.expires});
  }
  return problems;
}

bool glob_matches(const std::string& pattern, std::string_view text) {
  return ::fnmatch(pattern.c_str(), std::string(text).c_str(), 0) == 0;
}

Finding suppression_finding(const SuppressionProblem& problem, std::string stage) {
  return {.stage = std::move(stage),
          .kind = fmt::format("{}-suppression", problem.kind_name()),
          .where = fmt::format("{}:{}", problem.file, problem.line),
          .message = problem.message(),
          .file = problem.file,
          .line = problem.line};
}

// The kinds of suppression_finding, what each means and what to do.
constexpr KindRow kSuppressionKinds[] = {
    {"stale-suppression", "A suppression entry that matched nothing in this run: what it accepted is gone.",
     "Delete the entry from the suppression file."},
    {"expired-suppression", "A suppression entry whose `expires` day has passed: what it accepted counts again.",
     "Fix what it accepted, or renew `expires` with a reason that still holds."},
};

std::optional<KindText> suppression_kind_text(std::string_view kind) { return find_kind_text(kSuppressionKinds, kind); }

}  // namespace abicheck

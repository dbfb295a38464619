#include "audit/python_imports.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace abicheck {
namespace {

std::string_view trimmed(std::string_view text) {
  auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string> split_names(std::string_view list) {
  std::vector<std::string> names;
  std::string text(list);
  std::erase_if(text, [](char c) { return c == '(' || c == ')' || c == '\\'; });
  std::istringstream parts(text);
  for (std::string part; std::getline(parts, part, ',');) {
    std::string_view name = trimmed(part);
    if (auto as = name.find(" as "); as != std::string_view::npos) name = trimmed(name.substr(0, as));
    if (auto comment = name.find('#'); comment != std::string_view::npos) name = trimmed(name.substr(0, comment));
    if (!name.empty() && name != "*") names.emplace_back(name);
  }
  return names;
}

// Whether the line opens or closes a triple-quoted string (an odd count of one kind of quotes).
bool toggles_string(std::string_view line, std::string_view quotes) {
  int count = 0;
  for (auto at = line.find(quotes); at != std::string_view::npos; at = line.find(quotes, at + 3)) ++count;
  return count % 2 == 1;
}

// "pkg/sub/mod.py" -> "pkg.sub.mod"; "pkg/sub/__init__.py" -> "pkg.sub".
std::string module_of_file(std::string_view entry, bool& package) {
  std::string name(entry.substr(0, entry.size() - 3));
  package = name.ends_with("/__init__") || name == "__init__";
  if (package) name.resize(name.size() - std::string_view("/__init__").size());
  std::ranges::replace(name, '/', '.');
  return name;
}

std::string top_of(std::string_view module) { return std::string(module.substr(0, module.find('.'))); }

class ImportWalk {
 public:
  explicit ImportWalk(const std::map<std::string, std::vector<PythonImport>>& files) : files_(files) {
    for (const auto& [entry, imports] : files) {
      bool package = false;
      std::string module = module_of_file(entry, package);
      if (module.empty()) continue;
      modules_[module] = {&entry, package};
      own_.insert(top_of(module));
    }
  }

  void reach(const std::string& name, const std::string& by) {
    const std::string top = top_of(name);
    if (own_.contains(top)) {
      // Importing a.b.c runs a, a.b and a.b.c, each once.
      for (std::size_t end = 0;; ++end) {
        end = name.find('.', end);
        std::string prefix = name.substr(0, end);
        if (auto found = modules_.find(prefix); found != modules_.end() && visited_.insert(prefix).second) {
          visit(prefix, found->second);
        }
        if (end == std::string::npos) return;
      }
    }
    if (seen_external_.insert(top).second) reached_.push_back({top, by});
  }

  std::vector<ReachedModule> reached() const { return reached_; }

 private:
  struct ModuleFile {
    const std::string* entry;
    bool package;
  };

  void visit(const std::string& module, const ModuleFile& file) {
    for (const auto& import : files_.at(*file.entry)) {
      std::string base = import.module;
      if (import.level > 0) {
        auto last_dot = module.rfind('.');
        std::string anchor = file.package ? module : module.substr(0, last_dot == std::string::npos ? 0 : last_dot);
        for (int up = 1; up < import.level && !anchor.empty(); ++up) {
          auto dot = anchor.rfind('.');
          anchor = dot == std::string::npos ? "" : anchor.substr(0, dot);
        }
        if (anchor.empty()) continue;  // above the top of the package: Python refuses it, not a module
        base = import.module.empty() ? anchor : anchor + "." + import.module;
      }
      if (base.empty()) continue;
      reach(base, *file.entry);
      for (const auto& name : import.names) {
        if (own_.contains(top_of(base))) reach(base + "." + name, *file.entry);
      }
    }
  }

  const std::map<std::string, std::vector<PythonImport>>& files_;
  std::map<std::string, ModuleFile> modules_;
  std::set<std::string> own_;
  std::set<std::string> visited_;
  std::set<std::string> seen_external_;
  std::vector<ReachedModule> reached_;
};

}  // namespace

std::vector<PythonImport> module_level_imports(std::string_view source) {
  static const std::regex kFrom(R"(from\s+(\.*)([A-Za-z_][\w.]*)?\s+import\s+(.*))");
  static const std::regex kImport(R"(import\s+(.*))");
  std::vector<PythonImport> imports;
  bool in_double = false;
  bool in_single = false;
  std::istringstream lines{std::string(source)};
  for (std::string line; std::getline(lines, line);) {
    bool was_in_string = in_double || in_single;
    if (!in_single && toggles_string(line, "\"\"\"")) in_double = !in_double;
    if (!in_double && toggles_string(line, "'''")) in_single = !in_single;
    if (was_in_string || line.empty() || line[0] == ' ' || line[0] == '\t') continue;
    std::string statement = line;
    // Continued: a parenthesised list, or a backslash at the end.
    while ((std::ranges::count(statement, '(') > std::ranges::count(statement, ')') ||
            std::string_view(trimmed(statement)).ends_with('\\')) &&
           std::getline(lines, line)) {
      statement += " " + line;
    }
    if (auto comment = statement.find('#'); comment != std::string::npos) statement.resize(comment);
    std::smatch match;
    if (std::regex_match(statement, match, kFrom)) {
      imports.push_back({static_cast<int>(match.length(1)), match.str(2), split_names(match.str(3))});
    } else if (std::regex_match(statement, match, kImport)) {
      for (auto& name : split_names(match.str(1))) imports.push_back({0, name, {}});
    }
  }
  return imports;
}

std::vector<ReachedModule> modules_reached_at_import(const std::map<std::string, std::vector<PythonImport>>& files,
                                                     const std::vector<std::string>& imported) {
  ImportWalk walk(files);
  for (const auto& module : imported) walk.reach(module, "");
  return walk.reached();
}

std::string normalized_import_name(std::string_view name) {
  std::string normalized;
  for (char c : name) {
    if (c == '-' || c == '.' || c == '_') {
      if (normalized.empty() || normalized.back() != '_') normalized += '_';
    } else {
      normalized += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return normalized;
}

std::set<std::string> importable_names(const std::filesystem::path& folder) {
  std::set<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    std::string name = entry.path().filename().string();
    if (entry.is_directory(error)) {
      if (name.find('.') == std::string::npos && name != "__pycache__") names.insert(name);
    } else if (name.ends_with(".py")) {
      names.insert(name.substr(0, name.size() - 3));
    } else if (name.ends_with(".so") || name.find(".so.") != std::string::npos) {
      names.insert(name.substr(0, name.find('.')));
    }
  }
  return names;
}

std::string requirement_name(std::string_view requirement) {
  requirement = trimmed(requirement);
  return std::string(requirement.substr(
      0, requirement.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")));
}

std::vector<std::string> declared_requirements_of(const std::filesystem::path& dist_info) {
  std::vector<std::string> names;
  std::ifstream metadata(dist_info / "METADATA");
  constexpr std::string_view kField = "Requires-Dist:";
  for (std::string line; std::getline(metadata, line) && !trimmed(line).empty();) {
    if (line.starts_with(kField)) names.push_back(requirement_name(std::string_view(line).substr(kField.size())));
  }
  return names;
}

std::vector<ReachedModule> undeclared_modules(const std::vector<ReachedModule>& reached,
                                              const std::vector<std::string>& declared_requirements,
                                              const std::set<std::string>& available) {
  std::set<std::string> declared;
  for (const auto& requirement : declared_requirements) {
    std::string name = normalized_import_name(requirement);
    declared.insert(name);
    for (std::string_view affix : {"python_", "py"}) {
      if (name.starts_with(affix)) declared.insert(name.substr(affix.size()));
    }
    for (std::string_view affix : {"_python", "_py"}) {
      if (name.ends_with(affix)) declared.insert(name.substr(0, name.size() - affix.size()));
    }
  }
  std::vector<ReachedModule> undeclared;
  for (const auto& module : reached) {
    if (available.contains(module.name) || declared.contains(normalized_import_name(module.name))) continue;
    undeclared.push_back(module);
  }
  return undeclared;
}

}  // namespace abicheck

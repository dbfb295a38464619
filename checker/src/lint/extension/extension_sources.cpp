#include "lint/extension/extension_sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTargetMacro = "TORCH_TARGET_VERSION";

bool is_cuda_source(const fs::path& path) { return path.extension() == ".cu"; }

bool is_translation_unit(const fs::path& path) {
  static const std::vector<std::string> extensions = {".cpp", ".cc", ".cxx", ".c++", ".cu"};
  return std::ranges::find(extensions, path.extension().string()) != extensions.end();
}

// Build outputs, virtual environments and VCS data hold no sources of the project.
bool is_skipped_directory(const fs::path& path) {
  std::string name = path.filename().string();
  return name.starts_with(".") || name.starts_with("build") || name == "__pycache__" || name == "venv" ||
         name == "node_modules" || name == "dist" || name == "third_party";
}

// A directory named by an include flag that is torch's (…/torch/include or its csrc/api/include):
// those are replaced by the build torch's include dir.
bool is_torch_include_dir(const fs::path& directory) {
  std::string text = directory.lexically_normal().generic_string();
  while (text.ends_with("/")) text.pop_back();
  return text.ends_with("torch/include") || text.ends_with("torch/csrc/api/include") ||
         fs::exists(directory / "torch" / "csrc" / "stable");
}

std::vector<std::string> split_command(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < command.size()) word += command[++i];
      else word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Keeps what a front end needs from a compiler command line (gcc, clang or nvcc), with paths made
// absolute against the entry's directory, and pulls out -DTORCH_TARGET_VERSION=….
void keep_front_end_flags(const std::vector<std::string>& words, const fs::path& directory, UnitToParse& unit) {
  auto absolute = [&](const std::string& path) { return (directory / path).lexically_normal().string(); };
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    auto take_value = [&](std::string_view flag) -> std::optional<std::string> {
      if (word == flag) return i + 1 < words.size() ? std::optional(words[++i]) : std::nullopt;
      if (word.starts_with(flag)) return word.substr(flag.size());
      return std::nullopt;
    };
    if (auto dir = take_value("-isystem")) {
      if (!is_torch_include_dir(absolute(*dir)))
        unit.arguments.insert(unit.arguments.end(), {"-isystem", absolute(*dir)});
    } else if (auto quoted = take_value("-iquote")) {
      unit.arguments.insert(unit.arguments.end(), {"-iquote", absolute(*quoted)});
    } else if (auto include = take_value("-include")) {
      unit.arguments.insert(unit.arguments.end(), {"-include", absolute(*include)});
    } else if (auto dir = take_value("-I")) {
      if (!is_torch_include_dir(absolute(*dir))) unit.arguments.push_back("-I" + absolute(*dir));
    } else if (auto define = take_value("-D")) {
      if (define->starts_with(kTargetMacro)) {
        auto equals = define->find('=');
        std::string value = equals == std::string::npos ? "1" : define->substr(equals + 1);
        unit.command_line_targets.push_back(
            {{unit.source, 0, 0}, TargetDefinition::Origin::CommandLine, value, std::nullopt});
      }
      unit.arguments.push_back("-D" + *define);
    } else if (auto undefine = take_value("-U")) {
      unit.arguments.push_back("-U" + *undefine);
    } else if (word.starts_with("-std=")) {
      unit.arguments.push_back(word);
    }
  }
}

std::vector<UnitToParse> read_compile_commands(const fs::path& database) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(read_file_text(database));
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not valid JSON: {}", database.string(), error.what()));
  }
  if (!document.is_array())
    throw ToolError(fmt::format("{}: not a compilation database (expected an array)", database.string()));
  std::vector<UnitToParse> units;
  for (const auto& entry : document) {
    if (!entry.is_object() || !entry.contains("file") || !entry.contains("directory") ||
        !(entry.contains("command") || entry.contains("arguments"))) {
      throw ToolError(fmt::format("{}: an entry lacks file, directory or command", database.string()));
    }
    fs::path directory = entry["directory"].get<std::string>();
    UnitToParse unit;
    unit.source = (directory / entry["file"].get<std::string>()).lexically_normal();
    unit.language = is_cuda_source(unit.source) ? SourceLanguage::Cuda : SourceLanguage::Cxx;
    std::vector<std::string> words = entry.contains("arguments") ? entry["arguments"].get<std::vector<std::string>>()
                                                                 : split_command(entry["command"].get<std::string>());
    keep_front_end_flags(words, directory, unit);
    units.push_back(std::move(unit));
  }
  std::ranges::sort(units, {}, &UnitToParse::source);
  return units;
}

std::optional<fs::path> find_compile_commands(const fs::path& directory) {
  for (const auto& candidate : {directory / "compile_commands.json", directory / "build" / "compile_commands.json"}) {
    if (fs::is_regular_file(candidate)) return candidate;
  }
  return std::nullopt;
}

std::vector<fs::path> project_files(const fs::path& root, const std::function<bool(const fs::path&)>& wanted) {
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && is_skipped_directory(it->path())) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && wanted(it->path())) {
      files.push_back(it->path().lexically_normal());
    }
  }
  std::ranges::sort(files);
  return files;
}

bool is_build_file(const fs::path& path) {
  std::string name = path.filename().string();
  return name == "CMakeLists.txt" || path.extension() == ".cmake" || name == "setup.py" || name == "pyproject.toml" ||
         (name.starts_with("requirements") && path.extension() == ".txt");
}

// The line without its '#' comment (CMake, Python, TOML and requirements files share that syntax),
// leaving a '#' inside quotes alone.
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

// Calls visit(line without its comment, 1-based line number) for each line of a build file.
template <typename Visit>
void for_each_code_line(const std::string& text, Visit visit) {
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) visit(without_comment(line), number);
}

// TORCH_TARGET_VERSION=VALUE (CMake, -D strings in setup.py) or ("TORCH_TARGET_VERSION", "VALUE")
// (setuptools define_macros), one per match, with its line and column.
void scan_target_definitions(const fs::path& file, const std::string& text, std::vector<TargetDefinition>& out) {
  static const std::regex assignment(R"(TORCH_TARGET_VERSION\s*=\s*([^\s"';)\]]+))");
  static const std::regex macro_pair(R"(\(\s*["']TORCH_TARGET_VERSION["']\s*,\s*["']([^"']+)["']\s*\))");
  for_each_code_line(text, [&](const std::string& line, int number) {
    for (const auto* pattern : {&assignment, &macro_pair}) {
      for (std::sregex_iterator it(line.begin(), line.end(), *pattern), end; it != end; ++it) {
        out.push_back({{file, number, static_cast<int>(it->position(0)) + 1},
                       TargetDefinition::Origin::BuildFile,
                       (*it)[1].str(),
                       std::nullopt});
      }
    }
  });
}

// torch>=2.10 (also ~= and ==) as a whole requirement name: not torchvision, not pytorch-foo.
void scan_torch_requirements(const fs::path& file, const std::string& text, std::vector<TorchRequirement>& out) {
  static const std::regex requirement(R"((^|[^A-Za-z0-9_.\-])torch\s*(>=|~=|==)\s*([0-9]+(\.[0-9]+)*))");
  for_each_code_line(text, [&](const std::string& line, int number) {
    for (std::sregex_iterator it(line.begin(), line.end(), requirement), end; it != end; ++it) {
      std::string version_text = (*it)[3].str();
      auto version = TorchVersion::try_parse(version_text);
      if (!version) continue;
      int column = static_cast<int>(it->position(0) + (*it)[1].length()) + 1;
      out.push_back({{file, number, column}, fmt::format("torch{}{}", (*it)[2].str(), version_text), *version});
    }
  });
}

}  // namespace

void read_build_files(const fs::path& root, ExtensionSources& sources) {
  for (const auto& file : project_files(root, is_build_file)) {
    std::string text = read_file_text(file);
    std::string name = file.filename().string();
    if (name == "CMakeLists.txt" || file.extension() == ".cmake" || name == "setup.py") {
      scan_target_definitions(file, text, sources.build_file_targets);
    }
    if (name != "CMakeLists.txt" && file.extension() != ".cmake") {
      scan_torch_requirements(file, text, sources.torch_requirements);
    }
  }
}

ExtensionSources find_extension_sources(const fs::path& directory_or_database) {
  std::error_code error;
  fs::path given = fs::absolute(directory_or_database, error).lexically_normal();
  if (!fs::exists(given)) throw ToolError(fmt::format("{}: no such file or directory", directory_or_database.string()));
  ExtensionSources sources;
  std::optional<fs::path> database;
  if (fs::is_directory(given)) {
    sources.root = given;
    database = find_compile_commands(given);
  } else if (given.filename() == "compile_commands.json") {
    database = given;
    // A database in a build directory names the sources of the project above it.
    sources.root = given.parent_path().filename().string().starts_with("build") ? given.parent_path().parent_path()
                                                                                : given.parent_path();
  } else {
    throw ToolError(fmt::format("{}: expected a directory or a compile_commands.json", directory_or_database.string()));
  }
  read_build_files(sources.root, sources);
  if (database) {
    sources.units = read_compile_commands(*database);
    return sources;
  }
  for (const auto& source : project_files(sources.root, is_translation_unit)) {
    UnitToParse unit;
    unit.source = source;
    unit.language = is_cuda_source(source) ? SourceLanguage::Cuda : SourceLanguage::Cxx;
    unit.arguments.push_back("-I" + sources.root.string());
    sources.units.push_back(std::move(unit));
  }
  // Without a compile database, a project's include/ directories are the likely -I flags.
  std::vector<fs::path> include_dirs;
  for (auto it = fs::recursive_directory_iterator(sources.root); it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_directory()) continue;
    if (is_skipped_directory(it->path())) {
      it.disable_recursion_pending();
    } else if (it->path().filename() == "include") {
      include_dirs.push_back(it->path().lexically_normal());
    }
  }
  std::ranges::sort(include_dirs);
  for (auto& unit : sources.units) {
    for (const auto& include_dir : include_dirs) unit.arguments.push_back("-I" + include_dir.string());
    // The build files' target is what their compile commands would pass; the first one stands for
    // all (E006 reports when they disagree).
    if (!sources.build_file_targets.empty()) {
      const TargetDefinition& target = sources.build_file_targets.front();
      unit.arguments.push_back("-DTORCH_TARGET_VERSION=" + target.value_text);
      unit.command_line_targets.push_back(target);
    }
  }
  return sources;
}

}  // namespace abicheck

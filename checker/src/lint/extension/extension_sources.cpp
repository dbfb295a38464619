#include "lint/extension/extension_sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include "core/file_text.h"
#include "core/tool_error.h"
#include "lint/extension/build_description.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Build outputs, virtual environments and VCS data hold no sources of the project.
bool is_skipped_directory(const fs::path& path) {
  std::string name = path.filename().string();
  return name.starts_with(".") || name.starts_with("build") || name == "__pycache__" || name == "venv" ||
         name == "node_modules" || name == "dist" || name == "third_party";
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

namespace {

// Without a build description, every C++ and CUDA source under the directory, with the project's
// include/ directories as the likely -I flags and the build files' target as the likely -D.
std::vector<UnitToParse> units_of_the_source_tree(const ExtensionSources& sources) {
  std::vector<UnitToParse> units;
  for (const auto& source : project_files(sources.root, is_translation_unit)) {
    UnitToParse unit;
    unit.source = source;
    unit.language = source.extension() == ".cu" ? SourceLanguage::Cuda : SourceLanguage::Cxx;
    unit.arguments.push_back("-I" + sources.root.string());
    units.push_back(std::move(unit));
  }
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
  for (auto& unit : units) {
    for (const auto& include_dir : include_dirs) unit.arguments.push_back("-I" + include_dir.string());
    // The build files' target is what their compile commands would pass; the first one stands for
    // all (E006 reports when they disagree).
    if (!sources.build_file_targets.empty()) {
      const TargetDefinition& target = sources.build_file_targets.front();
      unit.arguments.push_back("-DTORCH_TARGET_VERSION=" + target.value_text);
      unit.command_line_targets.push_back(target);
    }
  }
  return units;
}

std::string source_count(std::size_t count) { return fmt::format("{} source{}", count, count == 1 ? "" : "s"); }

// The units the project's build compiles, asked of its own tooling; the source tree when it has no
// build description, no torch to run it with, or when the tooling cannot say (the note says which).
void find_units_of_the_build(const SourceDiscovery& discovery, ExtensionSources& sources) {
  std::optional<ProjectBuildKind> kind =
      discovery.build_kind ? discovery.build_kind : find_project_build_kind(sources.root);
  std::string fallback_reason = "the project has no compile_commands.json, CMakeLists.txt or setup.py";
  if (kind && !discovery.torch) {
    fallback_reason = fmt::format("there is no stored torch release to run its {} build with", build_kind_name(*kind));
  } else if (kind) {
    BuildDescriptionUnits found = *kind == ProjectBuildKind::CMake ? cmake_units(sources.root, *discovery.torch)
                                                                   : setup_py_units(sources.root, *discovery.torch);
    // A setup.py that compiles nothing itself usually drives CMake from a custom build_ext.
    if (found.problem.empty() && found.units.empty() && *kind == ProjectBuildKind::Setuptools &&
        fs::is_regular_file(sources.root / "CMakeLists.txt")) {
      found = cmake_units(sources.root, *discovery.torch);
    }
    if (found.problem.empty() && !found.units.empty()) {
      sources.units = std::move(found.units);
      sources.units_origin = UnitsOrigin::BuildDescription;
      sources.units_note =
          fmt::format("translation units: {}: {}", found.description, source_count(sources.units.size()));
      return;
    }
    fallback_reason =
        found.problem.empty() ? fmt::format("{} name no C++ or CUDA source", found.description) : found.problem;
  }
  sources.units = units_of_the_source_tree(sources);
  sources.units_origin = UnitsOrigin::SourceTree;
  sources.units_note = fmt::format("translation units: every C++ and CUDA source under the directory ({}), because {}",
                                   source_count(sources.units.size()), fallback_reason);
}

}  // namespace

ExtensionSources find_extension_sources(const fs::path& directory_or_database, const SourceDiscovery& discovery) {
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
    sources.units_origin = UnitsOrigin::CompileCommands;
    sources.units_note =
        fmt::format("translation units: {}: {}", database->string(), source_count(sources.units.size()));
  } else {
    find_units_of_the_build(discovery, sources);
  }
  // Nothing to lint is not a clean lint: the path is wrong, or the project is somewhere else.
  if (sources.units.empty()) {
    std::string because = sources.units_note.substr(sources.units_note.rfind("because ") + 8);
    throw ToolError(
        database ? fmt::format("{}: names no C++ or CUDA source", database->string())
                 : fmt::format("{}: no C++ or CUDA source under it, and {}", directory_or_database.string(), because));
  }
  return sources;
}

}  // namespace abicheck

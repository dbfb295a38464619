#include "lint/extension/compile_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTargetMacro = "TORCH_TARGET_VERSION";

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

}  // namespace

bool is_translation_unit(const fs::path& source) {
  static const std::vector<std::string> extensions = {".cpp", ".cc", ".cxx", ".c++", ".cu"};
  return std::ranges::find(extensions, source.extension().string()) != extensions.end();
}

UnitToParse unit_from_compiler_command(const fs::path& source, const std::vector<std::string>& words,
                                       const fs::path& directory) {
  UnitToParse unit;
  unit.source = source.lexically_normal();
  unit.language = unit.source.extension() == ".cu" ? SourceLanguage::Cuda : SourceLanguage::Cxx;
  keep_front_end_flags(words, directory, unit);
  return unit;
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
    // A relative working directory (hand-written databases) is taken from where the database is.
    fs::path directory = entry["directory"].get<std::string>();
    if (directory.is_relative()) directory = (fs::absolute(database).parent_path() / directory).lexically_normal();
    std::vector<std::string> words = entry.contains("arguments") ? entry["arguments"].get<std::vector<std::string>>()
                                                                 : split_command(entry["command"].get<std::string>());
    units.push_back(unit_from_compiler_command(directory / entry["file"].get<std::string>(), words, directory));
  }
  std::ranges::sort(units, {}, &UnitToParse::source);
  return units;
}
}  // namespace abicheck

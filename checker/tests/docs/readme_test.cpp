// README.md is the user's manual: short enough to read, its set-up is the two CI scripts, its command
// table names every command the CLI has, and its links (and those of CONTRIBUTING.md) lead somewhere.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/build_paths.h"
#include "support/cli.h"
#include "support/files.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

const fs::path project = fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path();

constexpr std::uintmax_t kReadmeMaxBytes = 15360;

using testing::read_text;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of the section that starts with `heading`, up to the next heading of the same level.
std::vector<std::string> section(const std::string& text, const std::string& heading) {
  std::vector<std::string> body;
  bool inside = false;
  for (const auto& line : lines_of(text)) {
    if (line == heading) {
      inside = true;
    } else if (inside && line.starts_with("## ")) {
      break;
    } else if (inside) {
      body.push_back(line);
    }
  }
  return body;
}

// The names a `--help` lists under "Subcommands:" (each on a line of its own, indented by two).
std::vector<std::string> subcommands_in_help(const std::string& help) {
  std::vector<std::string> names;
  bool inside = false;
  for (const auto& line : lines_of(help)) {
    if (line.starts_with("Subcommands:")) {
      inside = true;
    } else if (inside && line.empty()) {
      break;
    } else if (inside && line.size() > 2 && line.starts_with("  ") && line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

// The first cell of every row of the README's command table (the table whose header starts "| command |").
std::vector<std::string> command_table_first_cells(const std::string& readme) {
  std::vector<std::string> cells;
  bool inside = false;
  for (const auto& line : lines_of(readme)) {
    if (line.starts_with("| command |")) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (!line.starts_with("|")) break;
    const std::size_t end = line.find('|', 1);
    std::string cell = line.substr(1, end == std::string::npos ? std::string::npos : end - 1);
    cell.erase(0, cell.find_first_not_of(' '));
    cells.push_back(cell);
  }
  return cells;
}

// Whether a first cell names `command`: "`store install [VERSION...]`" names "store install".
bool names_command(const std::string& cell, const std::string& command) {
  const std::string start = "`" + command;
  if (!cell.starts_with(start)) return false;
  const char next = cell.size() > start.size() ? cell[start.size()] : '\0';
  return next == ' ' || next == '`';
}

// The targets of the Markdown links `[text](target)` outside fenced code.
std::vector<std::string> link_targets(const std::string& markdown) {
  static const std::regex link(R"(\]\(([^)\s]+)\))");
  std::vector<std::string> targets;
  bool in_code = false;
  for (const auto& line : lines_of(markdown)) {
    if (line.starts_with("```")) in_code = !in_code;
    if (in_code) continue;
    for (std::sregex_iterator match(line.begin(), line.end(), link), end; match != end; ++match) {
      targets.push_back((*match)[1].str());
    }
  }
  return targets;
}

bool is_relative_link(const std::string& target) {
  return target.find("://") == std::string::npos && !target.starts_with("mailto:") && !target.starts_with("#");
}

TEST(Readme, IsAtMost15KiB) {
  EXPECT_LE(fs::file_size(project / "README.md"), kReadmeMaxBytes)
      << "README.md is the user's manual; measurements go to bench/RESULTS.md, the code map to CONTRIBUTING.md";
}

TEST(Readme, SetUpIsExactlyTheTwoCiScripts) {
  std::vector<std::string> commands;
  for (const auto& line : section(read_text(project / "README.md"), "## Set-up on a fresh machine")) {
    if (line.starts_with("    ")) commands.push_back(line.substr(4));
  }
  EXPECT_EQ(commands, (std::vector<std::string>{"bash ci/main.sh", "bash ci/test.sh"}));
}

TEST(Readme, CommandTableNamesEverySubcommandOfTheCli) {
  const ProcessResult help = testing::run_cli({"--help"});
  ASSERT_EQ(help.exit_code, 0) << help.output;
  const std::vector<std::string> commands = subcommands_in_help(help.output);
  ASSERT_GE(commands.size(), 10u) << "could not read the subcommands of:\n" << help.output;

  // A command with subcommands of its own (store, lint) is named with each of them.
  std::vector<std::string> expected;
  for (const auto& command : commands) {
    const ProcessResult command_help = testing::run_cli({command, "--help"});
    ASSERT_EQ(command_help.exit_code, 0) << command << ": " << command_help.output;
    const std::vector<std::string> nested = subcommands_in_help(command_help.output);
    if (nested.empty()) expected.push_back(command);
    for (const auto& name : nested) expected.push_back(fmt::format("{} {}", command, name));
  }

  const std::vector<std::string> cells = command_table_first_cells(read_text(project / "README.md"));
  ASSERT_FALSE(cells.empty()) << "README.md has no table whose header starts with '| command |'";
  for (const auto& command : expected) {
    const bool listed =
        std::ranges::any_of(cells, [&](const std::string& cell) { return names_command(cell, command); });
    EXPECT_TRUE(listed) << "`torch-abi-check " << command << "` is missing from README.md's command table";
  }
}

TEST(Readme, RelativeLinksOfReadmeAndContributingPointToFiles) {
  for (const char* document : {"README.md", "CONTRIBUTING.md"}) {
    const fs::path path = project / document;
    ASSERT_TRUE(fs::exists(path)) << path;
    int relative_links = 0;
    for (std::string target : link_targets(read_text(path))) {
      if (!is_relative_link(target)) continue;
      target = target.substr(0, target.find('#'));
      ++relative_links;
      EXPECT_TRUE(fs::exists(path.parent_path() / target))
          << document << " links to " << target << ", which does not exist";
    }
    EXPECT_GT(relative_links, 0) << document << " has no relative link: the test found nothing to check";
  }
}

}  // namespace
}  // namespace abicheck

#include "core/log_progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

namespace abicheck {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> lines_of(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::vector<std::string> lines;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, file)) lines.emplace_back(buffer);
  return lines;
}

int count_containing(const std::vector<std::string>& lines, const std::string& text) {
  int count = 0;
  for (const auto& line : lines) count += line.find(text) != std::string::npos;
  return count;
}

TEST(LogProgress, BeatsWhileAStepRunsLongAndStopsWhenTheWorkEnds) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    LogProgress progress("matrix", out, /*minimum_gap=*/1h, /*heartbeat=*/40ms);
    progress.update(0, 3, "starting: 1 build, 2 cells");
    std::this_thread::sleep_for(200ms);             // one long build: only the heartbeat speaks
    progress.update(1, 3, "build cpu B2.15 T2.9");  // within the minimum gap of the last line: not printed
    progress.update(3, 3, "cell R2.15");            // the end is always printed
    std::this_thread::sleep_for(120ms);             // nothing after the end
  }
  auto lines = lines_of(out);
  std::fclose(out);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_NE(lines.front().find("matrix: [0/3] 0 s: starting: 1 build, 2 cells"), std::string::npos) << lines.front();
  EXPECT_GE(count_containing(lines, "working (last: starting: 1 build, 2 cells)"), 2);
  EXPECT_EQ(count_containing(lines, "build cpu B2.15 T2.9"), 0);
  EXPECT_NE(lines.back().find("matrix: [3/3]"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("cell R2.15"), std::string::npos);
  EXPECT_EQ(count_containing(lines, "[3/3]"), 1);
}

TEST(LogProgress, PrintsEveryStepOnceTheGapHasPassed) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    LogProgress progress("canary", out, /*minimum_gap=*/0ms, /*heartbeat=*/1h);
    progress.update(0, 2, "starting");
    progress.update(1, 2, "torch 2.9: 8 cells");
    progress.update(2, 2, "torch 2.10: 8 cells");
  }
  auto lines = lines_of(out);
  std::fclose(out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[1].find("canary: [1/2]"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("torch 2.10: 8 cells"), std::string::npos) << lines[2];
}

// check's first line ends its lint: the seconds it shows are the lint's, counted from the object's making.
TEST(LogProgress, CountsTheSecondsFromItsMakingNotFromItsFirstLine) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    LogProgress progress("check", out, /*minimum_gap=*/0ms, /*heartbeat=*/1h);
    std::this_thread::sleep_for(1100ms);  // the lint
    progress.update(1, 0, "lint: 3 diagnostics");
  }
  auto lines = lines_of(out);
  std::fclose(out);
  ASSERT_EQ(lines.size(), 1u);
  std::smatch seconds;
  ASSERT_TRUE(std::regex_search(lines[0], seconds, std::regex(R"(^check: \[1\] (\d+) s: lint: 3 diagnostics)")))
      << lines[0];
  EXPECT_GE(std::stoi(seconds[1]), 1) << lines[0];
}

}  // namespace
}  // namespace abicheck

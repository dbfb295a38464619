// The one suppression format of audit, diff and lint: keys per table, a required reason, an optional
// expiry, and the entries that need attention (stale, expired) with their file and line.
#include "core/suppression_file.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "support/scoped_today.h"

namespace abicheck {
namespace {

const SuppressionTable kTables[] = {{.name = "finding", .required = {"rule"}, .optional = {"file"}}};
constexpr CalendarDay kToday{2026, 6, 1};

class SuppressionFileTest : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& text) {
    auto path = work_.path() / "suppressions.toml";
    std::ofstream(path) << text;
    return path;
  }
  std::string load_error(const std::string& text) {
    try {
      SuppressionFile::load(write(text), kTables, kToday);
    } catch (const ToolError& error) {
      return error.what();
    }
    return "";
  }
  ScopedTempDir work_{"suppression-file"};
};

TEST(CalendarDay, ParsesOnlyRealDays) {
  EXPECT_EQ(CalendarDay::parse("2026-02-28"), (CalendarDay{2026, 2, 28}));
  EXPECT_EQ(CalendarDay::parse("2024-02-29"), (CalendarDay{2024, 2, 29}));
  for (const char* bad : {"2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026/01/01", "", "2026-01-01x"}) {
    EXPECT_EQ(CalendarDay::parse(bad), std::nullopt) << bad;
  }
  EXPECT_EQ((CalendarDay{2026, 3, 4}).to_string(), "2026-03-04");
}

TEST(CalendarDay, TodayComesFromTheEnvironmentWhenSet) {
  {
    testing::ScopedToday today("2031-07-09");
    EXPECT_EQ(suppression_today(), (CalendarDay{2031, 7, 9}));
  }
  testing::ScopedToday bad("tomorrow");
  EXPECT_THROW(suppression_today(), ToolError);
}

TEST_F(SuppressionFileTest, ReadsKeysReasonAndExpiryInEitherSpelling) {
  auto file = SuppressionFile::load(write(R"([[finding]]
rule = "E003"
file = "src/*.cpp"
reason = "ported next release"
expires = 2026-12-31

[[finding]]
rule = "E007"
reason = "kept on purpose"
expires = "2026-05-31"
)"),
                                    kTables, kToday);
  ASSERT_EQ(file.entries().size(), 2u);
  EXPECT_EQ(file.entries()[0].key("file"), "src/*.cpp");
  EXPECT_EQ(file.entries()[0].expires, (CalendarDay{2026, 12, 31}));
  EXPECT_FALSE(file.entries()[0].expired);
  EXPECT_EQ(file.entries()[1].line, 7);
  EXPECT_TRUE(file.entries()[1].expired);
  EXPECT_EQ(file.entries()[1].describe(), "[[finding]] rule = \"E007\"");
}

TEST_F(SuppressionFileTest, AnExpiredEntryMatchesNothingAndAnUnusedOneIsStale) {
  auto file = SuppressionFile::load(write(R"([[finding]]
rule = "E003"
reason = "used"

[[finding]]
rule = "E003"
reason = "expired on the last day of May"
expires = 2026-05-31

[[finding]]
rule = "E009"
reason = "nothing raises E009 any more"
expires = 2026-06-01
)"),
                                    kTables, kToday);
  auto is_e003 = [](const SuppressionEntry& entry) { return entry.key("rule") == "E003"; };
  ASSERT_NE(file.match("finding", is_e003), nullptr);
  EXPECT_EQ(file.match("finding", is_e003)->line, 1);
  auto problems = file.problems();
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].kind, SuppressionProblem::Kind::Expired);
  EXPECT_EQ(problems[0].line, 5);
  EXPECT_EQ(problems[1].kind, SuppressionProblem::Kind::Stale);  // expires today: still in force
  EXPECT_EQ(problems[1].line, 10);
  Finding finding = suppression_finding(problems[0], "lint");
  EXPECT_EQ(finding.kind, "expired-suppression");
  EXPECT_EQ(finding.line, 5);
  EXPECT_EQ(finding.file, file.path().string());
  EXPECT_NE(finding.message.find("expired on 2026-05-31"), std::string::npos) << finding.message;
}

TEST_F(SuppressionFileTest, MistakesAreOneLineNamingTheFileAndLine) {
  EXPECT_NE(load_error("[[finding]]\nrule = \"E003\"\n").find("suppressions.toml:1: [[finding]]: needs a reason"),
            std::string::npos);
  EXPECT_NE(load_error("[[finding]]\nreason = \"r\"\n").find(":1: [[finding]]: 'rule' is missing"), std::string::npos);
  EXPECT_NE(load_error("[[finding]]\nrule = \"E003\"\nreason = \"r\"\nowner = \"me\"\n").find("unknown key 'owner'"),
            std::string::npos);
  EXPECT_NE(load_error("[[finding]]\nrule = \"E003\"\nreason = \"r\"\nexpires = \"soon\"\n")
                .find("'expires' must be a day, YYYY-MM-DD"),
            std::string::npos);
  EXPECT_NE(
      load_error("[[symbol]]\nname = \"x\"\nreason = \"r\"\n").find("unknown table 'symbol' (expected [[finding]])"),
      std::string::npos);
  EXPECT_NE(load_error("[[finding]\n").find("suppressions.toml:1:"), std::string::npos);
}

}  // namespace
}  // namespace abicheck

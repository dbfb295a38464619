#include "report/junit.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(JUnit, CountsOutcomesAndEscapesText) {
  std::string xml =
      render_junit("matrix", {{"cpu", "ok", JUnitCase::Outcome::Passed, "", "", 1.5},
                              {"cpu", "a<b", JUnitCase::Outcome::Failed, "undefined symbol \"x\"", "log&\x01", 0},
                              {"cuda", "gpu", JUnitCase::Outcome::Skipped, "not run: no device", "", 0}});
  EXPECT_NE(xml.find(R"(tests="3" failures="1" errors="0" skipped="1")"), std::string::npos);
  EXPECT_NE(xml.find(R"(name="a&lt;b")"), std::string::npos);
  EXPECT_NE(xml.find(R"(<failure message="undefined symbol &quot;x&quot;"/>)"), std::string::npos);
  EXPECT_NE(xml.find("<system-out>log&amp;?</system-out>"), std::string::npos);
  EXPECT_NE(xml.find(R"(<skipped message="not run: no device"/>)"), std::string::npos);
}

}  // namespace
}  // namespace abicheck

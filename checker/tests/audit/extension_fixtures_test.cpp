// Every fixture extension under fixtures/audit/extensions/, compiled against real torch headers
// from the store and audited by the CLI: the verdict, minimum torch and declared target written in
// its `// expect:` comment must come out.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "audit/audit_fixture_support.h"

namespace abicheck::testing {
namespace {

class ExtensionFixtureAudit : public ::testing::TestWithParam<ExtensionFixture> {};

std::string json_version(const nlohmann::json& value) { return value.is_null() ? "-" : value.get<std::string>(); }

TEST_P(ExtensionFixtureAudit, MatchesItsExpectation) {
  const ExtensionFixture& fixture = GetParam();
  ASSERT_FALSE(fixture.expected_verdict.empty()) << fixture.source << " has no // expect: line";
  std::string why;
  auto object = build_extension_fixture(fixture, why);
  if (!object) GTEST_SKIP() << why;

  std::vector<std::string> arguments = {object->string()};
  arguments.insert(arguments.end(), fixture.audit_arguments.begin(), fixture.audit_arguments.end());
  AuditRun run = run_audit_json(arguments);
  ASSERT_TRUE(run.report.is_object()) << run.output;
  ASSERT_EQ(run.report["binaries"].size(), 1u) << run.output;
  const auto& binary = run.report["binaries"][0];
  EXPECT_EQ(binary["verdict"], fixture.expected_verdict) << run.output;
  EXPECT_EQ(json_version(binary["min_torch"]), fixture.expected_min_torch) << run.output;
  EXPECT_EQ(json_version(binary["declared_target"]), fixture.expected_declared) << run.output;
  bool findings = fixture.expected_verdict != "stable" || !fixture.expected_operator_breaks.empty();
  EXPECT_EQ(run.exit_code, findings ? 1 : 0) << run.output;

  std::vector<std::string> operators, breaks;
  for (const auto& use : binary["operators"]) {
    operators.push_back(use["name"].get<std::string>());
    for (const auto& broken : use["breaks"]) {
      breaks.push_back(fmt::format("{}@{}", use["name"].get<std::string>(), broken["release"].get<std::string>()));
    }
  }
  EXPECT_EQ(operators, fixture.expected_operators) << run.output;
  EXPECT_EQ(breaks, fixture.expected_operator_breaks) << run.output;
  const auto& findings_list = run.document["verdict"]["findings"];
  auto operator_findings = std::count_if(findings_list.begin(), findings_list.end(),
                                         [](const auto& finding) { return finding["kind"] == "dispatcher-operator"; });
  EXPECT_EQ(static_cast<std::size_t>(operator_findings), breaks.size()) << run.output;

  std::set<std::string> namespaces;
  for (const auto& symbol : binary["unstable_symbols"]) namespaces.insert(symbol["namespace"].get<std::string>());
  EXPECT_EQ(namespaces, std::set<std::string>(fixture.expected_unstable_namespaces.begin(),
                                              fixture.expected_unstable_namespaces.end()))
      << run.output;
  if (fixture.expected_dlsym) {
    bool found = std::any_of(binary["shim_symbols"].begin(), binary["shim_symbols"].end(), [&](const auto& shim) {
      return shim["name"] == *fixture.expected_dlsym && shim["use"] == "dlsym";
    });
    EXPECT_TRUE(found) << *fixture.expected_dlsym << " not reported as a dlsym use:\n" << run.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ExtensionFixtureAudit, ::testing::ValuesIn(extension_fixtures()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace abicheck::testing

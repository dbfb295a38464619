// The allowlist: accepted unstable symbols and objects need a reason, and an entry that matches
// nothing fails the audit so the list only shrinks.
#include <gtest/gtest.h>

#include <fstream>

#include "audit/audit_fixture_support.h"
#include "support/build_paths.h"
#include "support/scoped_today.h"

namespace abicheck::testing {
namespace {

std::filesystem::path write_allowlist(const std::string& name, const std::string& content) {
  auto path = audit_scratch_dir() / name;
  std::ofstream(path) << content;
  return path;
}

std::optional<std::filesystem::path> negative_control(std::string& why) {
  for (const auto& fixture : extension_fixtures()) {
    if (fixture.name == "unstable_aten") return build_extension_fixture(fixture, why);
  }
  return std::nullopt;
}

TEST(AuditAllowlist, AcceptedSymbolsMakeTheObjectStable) {
  std::string why;
  auto object = negative_control(why);
  if (!object) GTEST_SKIP() << why;
  auto allowlist = write_allowlist("allow_symbols.toml", R"([[symbol]]
name = "c10::detail::torch*Fail*"
reason = "TORCH_CHECK failure path, kept until the op moves to STD_TORCH_CHECK"

[[symbol]]
name = "_ZN2at4_ops*"
reason = "at::mul until the stable ops cover it"
)");
  AuditRun run = run_audit_json({object->string(), "--allowlist", allowlist.string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.report["binaries"][0]["verdict"], "stable") << run.output;
  EXPECT_EQ(run.report["binaries"][0]["allowed_symbols"].size(), 3u) << run.output;
}

TEST(AuditAllowlist, AnObjectEntryAcceptsEveryUnstableSymbolOfIt) {
  std::string why;
  auto object = negative_control(why);
  if (!object) GTEST_SKIP() << why;
  auto allowlist = write_allowlist("allow_object.toml",
                                   "[[object]]\npath = \"unstable_aten-*.so\"\nreason = \"the negative control\"\n");
  AuditRun run = run_audit_json({object->string(), "--allowlist", allowlist.string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.report["binaries"][0]["verdict"], "stable") << run.output;
}

TEST(AuditAllowlist, AStaleEntryFailsTheAudit) {
  std::string why;
  auto object = negative_control(why);
  if (!object) GTEST_SKIP() << why;
  auto allowlist = write_allowlist("allow_stale.toml", R"([[object]]
path = "unstable_aten-*.so"
reason = "the negative control"

[[symbol]]
name = "_ZN3c1010TensorImpl*"
reason = "was used by an op that has since been ported"
)");
  AuditRun run = run_audit_json({object->string(), "--allowlist", allowlist.string()});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ASSERT_EQ(run.report["suppression_problems"].size(), 1u) << run.output;
  EXPECT_EQ(run.report["suppression_problems"][0]["kind"], "stale");
  EXPECT_EQ(run.report["suppression_problems"][0]["entry"], "[[symbol]] name = \"_ZN3c1010TensorImpl*\"");
  EXPECT_EQ(run.report["suppression_problems"][0]["line"], 5);
  EXPECT_EQ(run.report["suppression_problems"][0]["file"], allowlist.string());
  // The stale entry is the audit's own finding, so `report` on the document exits 1 too (run_cli
  // runs it; the verdict says why).
  ASSERT_EQ(run.document["verdict"]["findings"].size(), 1u) << run.document.dump(2);
  EXPECT_EQ(run.document["verdict"]["findings"][0]["kind"], "stale-suppression");
  EXPECT_EQ(run.document["verdict"]["exit_code"], 1);
}

TEST(AuditAllowlist, AnExpiredEntryAcceptsNothingAndIsAFinding) {
  std::string why;
  auto object = negative_control(why);
  if (!object) GTEST_SKIP() << why;
  auto allowlist = write_allowlist("allow_expired.toml", R"([[object]]
path = "unstable_aten-*.so"
reason = "the negative control, until the port lands"
expires = 2026-01-31
)");
  ScopedToday today("2026-02-01");
  AuditRun run = run_audit_json({object->string(), "--allowlist", allowlist.string()});
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(run.report["binaries"][0]["verdict"], "unstable") << run.output;
  ASSERT_EQ(run.report["suppression_problems"].size(), 1u) << run.output;
  EXPECT_EQ(run.report["suppression_problems"][0]["kind"], "expired");
  EXPECT_EQ(run.report["suppression_problems"][0]["expires"], "2026-01-31");
  bool expired_finding = false;
  for (const auto& finding : run.document["verdict"]["findings"]) {
    expired_finding |= finding["kind"] == "expired-suppression" && finding["line"] == 1;
  }
  EXPECT_TRUE(expired_finding) << run.document.dump(2);
}

TEST(AuditAllowlist, AnEntryWithoutReasonIsAToolError) {
  auto allowlist = write_allowlist("allow_no_reason.toml", "[[symbol]]\nname = \"_ZN3c10*\"\n");
  AuditRun run = run_audit_json(
      {std::string(TORCH_ABI_CHECK_FIXTURES) + "/audit/bad/stripped.so", "--allowlist", allowlist.string()});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("needs a reason"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace abicheck::testing

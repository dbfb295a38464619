// The release gate's judgement and report from plain results: which stages fail, the verdict line,
// the document's sections and the JUnit cases, without running anything.
#include "report/gate_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gate/gate_judgement.h"
#include "report/report_document.h"
#include "report/report_formats.h"

namespace abicheck {
namespace {

ReleaseGateResult clean_result() {
  ReleaseGateResult result;
  result.candidate.release.version = {2, 16, 0};
  result.candidate.release.torch_dir = "/env/lib/python3.11/site-packages/torch";
  result.candidate.release.include_dir = "/env/lib/python3.11/site-packages/torch/include";
  result.last = {2, 15, 0};
  result.diff.old_release = {2, 15, 0};
  result.diff.new_release = {2, 16, 0};
  result.diff.changes = {{.name = "torch_new_shim", .kind = ChangeKind::Added, .detail = "guarded at 2.16"}};
  result.matrix.cells = {{.suite = "abiref",
                          .build = {2, 9, 0},
                          .target = {2, 9, 0},
                          .runtime = {2, 16, 0},
                          .expected = Expectation::Pass,
                          .outcome = CellOutcome::Pass}};
  return result;
}

TEST(GateReport, CleanCandidatePasses) {
  ReleaseGateResult result = clean_result();
  Judgement judgement = judge_release_gate(result);
  EXPECT_FALSE(judgement.has_findings());
  EXPECT_EQ(judgement.lines.back(), "release gate: torch 2.16.0 against 2.15: passes");
  nlohmann::json document = release_gate_document(result);
  EXPECT_EQ(document["gate"]["last"], "2.15");
  EXPECT_EQ(document["diffs"].size(), 1u);
  EXPECT_TRUE(document["lint"]["diagnostics"].empty());
  EXPECT_EQ(document["verdict"]["exit_code"], 0);
  std::string junit = render_report_junit(document);
  EXPECT_NE(junit.find(R"(classname="release-gate.diff" name="no finding")"), std::string::npos) << junit;
  EXPECT_NE(junit.find(R"(classname="release-gate.lint" name="no finding")"), std::string::npos) << junit;
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
}

TEST(GateReport, EachStageWithAFindingIsNamed) {
  ReleaseGateResult result = clean_result();
  result.diff.changes.push_back({.name = "aoti_torch_old", .kind = ChangeKind::FunctionRemoved, .detail = "gone"});
  result.lint.report.diagnostics.push_back(
      {.where = {"/env/lib/python3.11/site-packages/torch/include/torch/csrc/stable/c/shim.h", 7, 1},
       .rule = "H006",
       .severity = LintSeverity::Error,
       .message = "unguarded"});
  result.matrix.cells[0].outcome = CellOutcome::UnexpectedFail;
  Judgement judgement = judge_release_gate(result);
  EXPECT_TRUE(judgement.has_findings());
  EXPECT_EQ(judgement.lines.back(), "release gate: torch 2.16.0 against 2.15: fails (diff, lint, matrix)");
  ASSERT_EQ(judgement.findings.size(), 3u);
  EXPECT_EQ(judgement.findings[1].file, "torch/csrc/stable/c/shim.h") << "relative to the candidate's include dir";

  nlohmann::json document = release_gate_document(result);
  EXPECT_EQ(document["lint"]["diagnostics"][0]["file"], "torch/csrc/stable/c/shim.h")
      << "relative to the candidate's include dir";
  EXPECT_EQ(document["verdict"]["exit_code"], 1);
  EXPECT_EQ(judgement_of(document).findings.size(), 3u);
  std::string junit = render_report_junit(document);
  EXPECT_NE(junit.find(R"x(classname="release-gate.diff" name="aoti_torch_old (2.15 -&gt; 2.16)")x"), std::string::npos)
      << junit;
  EXPECT_NE(junit.find(R"(classname="release-gate.lint" name="torch/csrc/stable/c/shim.h:7:1")"), std::string::npos)
      << junit;
  EXPECT_NE(junit.find(R"(classname="matrix.abiref.cpu.B2.9.T2.9.R2.16" name="cell")"), std::string::npos) << junit;
}

TEST(GateReport, SuppressedBreakingChangeDoesNotFailTheGate) {
  ReleaseGateResult result = clean_result();
  result.diff.changes.push_back({.name = "torch_from_blob",
                                 .kind = ChangeKind::SignatureChanged,
                                 .detail = "parameter 2",
                                 .suppressed_because = "never shipped"});
  EXPECT_FALSE(judge_release_gate(result).has_findings());
  EXPECT_EQ(release_gate_document(result)["verdict"]["exit_code"], 0);
}

// The matrix's libraries are audited against the candidate with the audit's own rule: a CUDA 12
// build in a CUDA 13 candidate is a warning (the gate passes), a cuDNN major it lacks an error.
TEST(GateReport, DeviceRuntimeOfTheMatrixLibrariesIsJudgedByTheAuditsRule) {
  ReleaseGateResult result = clean_result();
  ObjectAudit cuda12{.path = "/cache/builds/k1/libabiref_cuda.so"};
  cuda12.loads = {{.release = {2, 16, 0},
                   .runtime = "CUDA 13.2",
                   .claimed = true,
                   .device_misfits = {{.need = "needs CUDA 12 runtime (libcudart.so.12)",
                                       .has = "CUDA 13 (libcudart.so.13)",
                                       .blocks_load = true,
                                       .other_build_may_fit = true}}}};
  result.audit.binaries = {cuda12};
  Judgement warned = judge_release_gate(result);
  EXPECT_FALSE(warned.has_findings());
  ASSERT_EQ(warned.findings.size(), 1u);
  EXPECT_EQ(warned.findings[0].kind, "device-runtime-mismatch");
  EXPECT_EQ(warned.findings[0].severity, FindingSeverity::Warning);
  EXPECT_EQ(release_gate_document(result)["audit"]["binaries"].size(), 1u);

  result.audit.binaries[0].loads[0].device_misfits = {
      {.need = "needs libcudnn.so.8", .has = "libcudnn.so.9", .blocks_load = true, .other_build_may_fit = false}};
  Judgement failed = judge_release_gate(result);
  EXPECT_TRUE(failed.has_findings());
  EXPECT_EQ(failed.lines.back(), "release gate: torch 2.16.0 against 2.15: fails (audit)");
}

}  // namespace
}  // namespace abicheck

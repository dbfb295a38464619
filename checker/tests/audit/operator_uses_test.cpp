// The operators an object names to the dispatcher (find_operator_uses) and the claimed releases on
// which they break (judge_operator_uses), on a small made-up history: which strings count, which
// overloads a bare name may call, and when a change is a break whatever torch the object was built with.
#include "audit/operator_uses.h"

#include <gtest/gtest.h>

#include "audit/audit_judgement.h"

namespace abicheck {
namespace {

OperatorSchemas release(const std::string& version, const std::string& lines) {
  return parse_operator_schemas("@release " + version + "\n" + lines, version);
}

// aten::triu changes in 2.10; aten::qr is gone in 2.11; aten::sum.dim changes in 2.11 while its default
// overload stays; aten::new_op comes in 2.10; aten::abs never changes.
OperatorHistory history() {
  const std::string kept =
      "aten::abs(Tensor self) -> Tensor\n"
      "aten::sum(Tensor self) -> Tensor\n";
  OperatorHistory releases;
  releases.emplace(TorchVersion{2, 9, 0}, release("2.9.0", kept + "aten::triu(Tensor self, int diagonal=0) -> Tensor\n"
                                                                  "aten::qr(Tensor self) -> (Tensor Q, Tensor R)\n"
                                                                  "aten::sum.dim(Tensor self, int dim) -> Tensor\n"));
  releases.emplace(TorchVersion{2, 10, 0},
                   release("2.10.0", kept + "aten::triu(Tensor self, SymInt diagonal=0) -> Tensor\n"
                                            "aten::qr(Tensor self) -> (Tensor Q, Tensor R)\n"
                                            "aten::sum.dim(Tensor self, int dim) -> Tensor\n"
                                            "aten::new_op(Tensor self) -> Tensor\n"));
  releases.emplace(TorchVersion{2, 11, 0},
                   release("2.11.0", kept + "aten::triu(Tensor self, SymInt diagonal=0) -> Tensor\n"
                                            "aten::sum.dim(Tensor self, SymInt dim) -> Tensor\n"
                                            "aten::new_op(Tensor self) -> Tensor\n"));
  return releases;
}

BinaryImports strings(std::vector<std::string> operators, std::vector<std::string> identifiers = {}) {
  BinaryImports imports;
  imports.operator_like_strings = std::move(operators);
  imports.identifier_strings = std::move(identifiers);
  return imports;
}

std::vector<std::string> break_list(const std::vector<OperatorUse>& uses) {
  std::vector<std::string> list;
  for (const auto& use : uses) {
    for (const auto& broken : use.breaks) list.push_back(use.name + "@" + broken.release.to_string());
  }
  return list;
}

TEST(OperatorUses, OnlyStringsThatNameARegisteredOperatorCount) {
  OperatorHistory releases = history();
  auto uses = find_operator_uses(
      strings({"aten::abs", "aten::no_such_op", "basic_string::_M_create", "myext::own_op", "aten::abs.nope"}),
      releases);
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].name, "aten::abs");
  EXPECT_EQ(uses[0].overloads, std::vector<std::string>{"aten::abs"});
  EXPECT_EQ(uses[0].introduced, (TorchVersion{2, 9, 0}));
}

TEST(OperatorUses, ABareNameMayCallTheDefaultOverloadOrOneWhoseNameIsAStringToo) {
  OperatorHistory releases = history();
  EXPECT_EQ(find_operator_uses(strings({"aten::sum"}), releases)[0].overloads, std::vector<std::string>{"aten::sum"});
  EXPECT_EQ(find_operator_uses(strings({"aten::sum"}, {"dim", "out"}), releases)[0].overloads,
            (std::vector<std::string>{"aten::sum", "aten::sum.dim"}));
  EXPECT_EQ(find_operator_uses(strings({"aten::sum.dim"}), releases)[0].overloads,
            std::vector<std::string>{"aten::sum.dim"});
}

TEST(OperatorUses, ASchemaThatDiffersBetweenClaimedReleasesOrIsGoneIsABreak) {
  OperatorHistory releases = history();
  auto uses = find_operator_uses(strings({"aten::abs", "aten::qr", "aten::triu"}), releases);
  judge_operator_uses(uses, releases, TorchVersion{2, 9, 0});
  EXPECT_EQ(break_list(uses), (std::vector<std::string>{"aten::qr@2.11", "aten::triu@2.10"}));
  EXPECT_NE(uses[2].breaks[0].problem.find("SymInt diagonal"), std::string::npos) << uses[2].breaks[0].problem;
  // Claimed from 2.10 on, aten::triu keeps the schema it has there.
  judge_operator_uses(uses, releases, TorchVersion{2, 10, 0});
  EXPECT_EQ(break_list(uses), std::vector<std::string>{"aten::qr@2.11"});
}

TEST(OperatorUses, AnOverloadThatKeepsWorkingMeansNoBreak) {
  OperatorHistory releases = history();
  auto uses = find_operator_uses(strings({"aten::sum"}, {"dim"}), releases);
  judge_operator_uses(uses, releases, TorchVersion{2, 9, 0});
  EXPECT_TRUE(break_list(uses).empty());
  uses = find_operator_uses(strings({"aten::sum.dim"}), releases);
  judge_operator_uses(uses, releases, TorchVersion{2, 9, 0});
  EXPECT_EQ(break_list(uses), std::vector<std::string>{"aten::sum.dim@2.11"});
}

TEST(OperatorUses, AnOperatorNewerThanTheClaimIsABreakOnTheClaimedReleaseAndRaisesTheMinimum) {
  OperatorHistory releases = history();
  auto uses = find_operator_uses(strings({"aten::new_op"}), releases);
  EXPECT_EQ(uses[0].introduced, (TorchVersion{2, 10, 0}));
  judge_operator_uses(uses, releases, TorchVersion{2, 9, 0});
  EXPECT_EQ(break_list(uses), std::vector<std::string>{"aten::new_op@2.9"});
  judge_operator_uses(uses, releases, std::nullopt);
  EXPECT_TRUE(break_list(uses).empty());
}

TEST(OperatorUses, AnAdapterForOlderCallersIsNoBreak) {
  OperatorHistory releases = history();
  // Registered in 2.10, and so still there in 2.11.
  for (TorchVersion adapting : {TorchVersion{2, 10, 0}, TorchVersion{2, 11, 0}}) {
    releases.at(adapting).adapters.push_back({"aten::triu", TorchVersion{2, 10, 0}});
  }
  auto uses = find_operator_uses(strings({"aten::triu"}), releases);
  judge_operator_uses(uses, releases, TorchVersion{2, 9, 0});
  EXPECT_TRUE(break_list(uses).empty());
}

// Each break is a finding of the audit; the release gate keeps those on its candidate.
TEST(OperatorUses, EachBreakIsAFindingAndTheGateKeepsThoseOnItsCandidate) {
  OperatorHistory releases = history();
  ObjectAudit object{.path = "ext.so"};
  object.operators = find_operator_uses(strings({"aten::new_op", "aten::qr"}), releases);
  judge_operator_uses(object.operators, releases, TorchVersion{2, 9, 0});
  std::vector<Finding> findings = operator_findings(object, "ext.so");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, "dispatcher-operator");
  EXPECT_EQ(findings[0].message.find("calls operator 'aten::new_op' through the dispatcher, which breaks on torch 2.9"),
            0u)
      << findings[0].message;
  std::vector<Finding> on_candidate = operator_findings(object, "ext.so", TorchVersion{2, 11, 0});
  ASSERT_EQ(on_candidate.size(), 1u);
  EXPECT_NE(on_candidate[0].message.find("'aten::qr'"), std::string::npos) << on_candidate[0].message;
  EXPECT_TRUE(judge_audit(AuditReport{.binaries = {object}}).has_findings());
}

TEST(ReadOnlyStrings, OperatorNamesAndIdentifiersAreWholeCStrings) {
  using namespace std::string_view_literals;
  ReadOnlyStrings found;
  scan_read_only_strings("\0aten::triu\0int\0\1aten::abs\0aten::sum.dim\0not an identifier\0aten::x.\0tail"sv, found);
  EXPECT_EQ(found.operator_names, (std::set<std::string>{"aten::sum.dim", "aten::triu"}));
  EXPECT_TRUE(found.identifiers.contains("int"));
  EXPECT_FALSE(found.identifiers.contains("tail")) << "not terminated inside the section";
}

}  // namespace
}  // namespace abicheck

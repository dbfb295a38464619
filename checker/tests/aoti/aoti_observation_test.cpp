// The judgement of one aoti cell's raw result, for what the loaders really said: the C++ loader's
// message for a package whose operator no loaded library registers was seen by running
// matrix/aoti_cpp_runner.cpp (built against torch 2.15.0) on a package of the custom_op model without
// the reference extension; the Python loader's 2.10.0 break is the one of docs/aoti.md. The call spec
// is what the runner built against torch 2.9.1 read of the `check MODEL.pt2` test's package
// (fixtures/check/pt2/compile_package.py: forward(x) returns a pair).
#include "aoti/aoti_observation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace abicheck {
namespace {

using nlohmann::json;

TEST(AotiObservation, AnOperatorNoLibraryRegistersIsNamedWithTheExtensionToLoadFirst) {
  const json result = {{"loader", "cpp"},
                       {"stage", "load"},
                       {"error", "Could not find schema for abiref::scaled_add."},
                       {"error_type", "c10::Error"},
                       {"seconds", 0.02}};
  const AotiObservation observed = judge_aoti_cell(result, TorchVersion::parse("2.15.0"), AotiLoader::Cpp);
  EXPECT_EQ(observed.outcome, AotiOutcome::LoadFailed);
  EXPECT_NE(observed.cause.find("calls the operator abiref::scaled_add (through the shim's proxy executor)"),
            std::string::npos)
      << observed.cause;
  EXPECT_NE(observed.workaround.find("load the extension that defines the operator"), std::string::npos);
  EXPECT_FALSE(observed.workaround_verified);
}

TEST(AotiObservation, AnUnknownLoadErrorNamesTheLoaderThatRaisedIt) {
  const json result = {{"stage", "load"}, {"error", "something else"}, {"error_type", "c10::Error"}};
  EXPECT_NE(judge_aoti_cell(result, TorchVersion::parse("2.12.1"), AotiLoader::Cpp)
                .cause.find("torch 2.12.1's torch::inductor::AOTIModelPackageLoader raised c10::Error"),
            std::string::npos);
  EXPECT_NE(judge_aoti_cell(result, TorchVersion::parse("2.12.1"))
                .cause.find("torch 2.12.1's torch._inductor.aoti_load_package raised c10::Error"),
            std::string::npos);
}

TEST(AotiObservation, ACellThatRanAndComparedMatchesOnlyWithOutputs) {
  EXPECT_EQ(judge_aoti_cell({{"stage", ""}, {"outputs", 2}}, TorchVersion::parse("2.9.1"), AotiLoader::Cpp).outcome,
            AotiOutcome::Matches);
  EXPECT_EQ(judge_aoti_cell({{"stage", ""}, {"outputs", 0}}, TorchVersion::parse("2.9.1"), AotiLoader::Cpp).outcome,
            AotiOutcome::Loaded);
}

// A package loaded but not run says what its call spec names, never that it matched.
TEST(AotiObservation, APackageLoadedButNotRunCountsWhatItsCallSpecTakesAndGives) {
  const json result = {
      {"loader", "cpp"},
      {"stage", ""},
      {"outputs", 0},
      {"call_spec",
       {R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", )"
        R"("context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}]}, )"
        R"({"type": "builtins.dict", "context": "[]", "children_spec": []}]}])",
        R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, )"
        R"("children_spec": []}, {"type": null, "context": null, "children_spec": []}]}])"}}};
  const AotiObservation observed = judge_aoti_cell(result, TorchVersion::parse("2.9.1"), AotiLoader::Cpp);
  EXPECT_EQ(observed.outcome, AotiOutcome::Loaded);
  EXPECT_EQ(observed.detail, "loaded, not run (no inputs); its call spec takes 1 input and gives 2 outputs");
  json unreadable = result;
  unreadable["call_spec"][0] = "not a tree";
  EXPECT_EQ(judge_aoti_cell(unreadable, TorchVersion::parse("2.9.1"), AotiLoader::Cpp).detail,
            "loaded, not run (no inputs); its call spec is not a tree the tool reads");
}

}  // namespace
}  // namespace abicheck

// The judgement of one aoti cell's raw result, for what the loaders really said: the C++ loader's
// message for a package whose operator no loaded library registers was seen by running
// matrix/aoti_cpp_runner.cpp (built against torch 2.15.0) on a package of the custom_op model without
// the reference extension; the Python loader's 2.10.0 break is the one of docs/aoti.md.
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

}  // namespace
}  // namespace abicheck

// Runs fixtures/canary/import_checks through `torch-abi-check canary` under the store's torch 2.14
// and 2.15: wheels made by the test (make_wheels.py) whose own Python decides at import which copy
// of a library to load (one per torch minor, none for 2.15), refuses a torch of another minor than
// its build's, or imports a module it does not declare. The prediction reads that from the wheel's
// Python, the observation loads them for real; both are held to expected.json beside the spec,
// established by loading.
#include <fstream>
#include <nlohmann/json.hpp>

#include "canary/canary_fixture.h"

namespace abicheck {
namespace {

using nlohmann::json;

class CanaryImportChecks : public testing::CanaryFixtureTest {
 protected:
  void SetUp() override { prepare("import_checks", "2.14", "2.15"); }
};

TEST_F(CanaryImportChecks, ACopyPerReleaseATorchVersionCheckAndAnUndeclaredImportArePredictedAsTheyLoad) {
  const json expected = json::parse(std::ifstream(fixture_ / "expected.json"));
  ProcessResult run;
  const json section = run_fixture(run)["canary"];
  EXPECT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(section["problems"].size(), 0U) << section["problems"].dump(1) << run.output;
  for_each_expected_cell(
      section, expected, run.output,
      [&](const std::string& name, const json& by_release, const std::string& release, const json& cell) {
        EXPECT_EQ(cell["predicted"], by_release[release][0])
            << name << " on " << release << ": " << cell["prediction_reason"];
        EXPECT_EQ(cell["observed"], by_release[release][1]) << name << " on " << release << ": " << cell["detail"];
        EXPECT_TRUE(cell["as_predicted"].get<bool>()) << name << " on " << release;
        if (cell["predicted"] == "refused") {
          EXPECT_NE(cell["prediction_reason"].get<std::string>().find(expected["reasons"][name].get<std::string>()),
                    std::string::npos)
              << cell["prediction_reason"];
        }
      });
}

}  // namespace
}  // namespace abicheck

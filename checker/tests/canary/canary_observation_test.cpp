// The canary's judgement of a cell, on results shaped as matrix/canary_cells.py writes them (the
// messages are the ones real packages gave under the store's releases, see docs/canary.md).
#include "canary/canary_observation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "canary/canary_packages.h"

namespace abicheck {
namespace {

using nlohmann::json;

const std::filesystem::path kPackage = "/cache/unpacked/abc";
const TorchVersion k215{2, 15, 0};

json library(const std::string& path, const std::string& error) {
  return {{"path", (kPackage / path).string()}, {"loaded", error.empty()}, {"error", error}, {"by", "dlopen"}};
}

json cell(json libraries, std::string stage = "", std::string error = "", std::string smoke = "none") {
  return {{"torch", "2.15.0"},           {"stage", stage}, {"error", error}, {"libraries", libraries},
          {"operators", json::object()}, {"smoke", smoke}, {"gpu", false},   {"seconds", 1.5}};
}

TEST(CanaryObservation, AnUndefinedSymbolBehindAFailedImportIsTheOutcome) {
  // torchvision 0.24.1 under 2.15: its Python says an operator does not exist; the cause is _C.so.
  json result = cell({library("torchvision/_C.so", (kPackage / "torchvision/_C.so").string() +
                                                       ": undefined symbol: _ZN3c1017RegisterOperatorsD1Ev")},
                     "import", "RuntimeError: operator torchvision::nms does not exist");
  Observation observation = judge_cell_result(result, k215, kPackage, true);
  EXPECT_EQ(observation.outcome, CanaryOutcome::UndefinedSymbol);
  EXPECT_EQ(observation.detail, "undefined symbol _ZN3c1017RegisterOperatorsD1Ev (torchvision/_C.so)");
  ASSERT_FALSE(observation.notes.empty());
  EXPECT_EQ(observation.notes[0], "the import failed: RuntimeError: operator torchvision::nms does not exist");
}

TEST(CanaryObservation, ADeviceRuntimeTheReleaseLacksIsAMissingLibrary) {
  json result = cell({library("xformers/_C.so", "libcudart.so.12: cannot open shared object file: No such file")});
  Observation observation = judge_cell_result(result, k215, kPackage, true);
  EXPECT_EQ(observation.outcome, CanaryOutcome::MissingLibrary);
  EXPECT_EQ(observation.detail, "xformers/_C.so needs libcudart.so.12, which torch 2.15 does not bring");
}

TEST(CanaryObservation, AnImportThatNeedsWhatTheMachineMustBringIsTheEnvironment) {
  // A vendor runtime no pip package brings (Ascend's), and no GPU driver: neither a break nor a pass.
  json vendor =
      cell({library("torch_npu/lib/libtorch_npu.so",
                    "libascendcl.so: cannot open shared object file: No such file or directory")},
           "import", "ImportError: libascendcl.so: cannot open shared object file: No such file or directory");
  Observation observation = judge_cell_result(vendor, k215, kPackage, false);
  EXPECT_EQ(observation.outcome, CanaryOutcome::Environment);
  EXPECT_EQ(observation.detail, "needs libascendcl.so from the machine (a driver or vendor runtime), absent here");
  EXPECT_FALSE(is_observable(observation.outcome));

  json driver =
      cell(json::array(), "import", "OSError: libcuda.so.1: cannot open shared object file: No such file or directory");
  EXPECT_EQ(judge_cell_result(driver, k215, kPackage, true).detail, "needs a GPU driver (libcuda.so.1), absent here");

  // One of the package's own libraries is not the machine's: that stays a refusal.
  json own = cell({library("pkg/libpkg_core.so", "libvendor.so.2: cannot open shared object file")}, "import",
                  "ImportError: libpkg_core.so: cannot open shared object file: No such file or directory");
  EXPECT_EQ(judge_cell_result(own, k215, kPackage, false).outcome, CanaryOutcome::Refused);
}

TEST(CanaryObservation, OptionalLibrariesNeedingSystemLibrariesAreNotesNotTheOutcome) {
  // torchcodec: one core library per FFmpeg major; this machine has no FFmpeg.
  json result = cell({library("torchcodec/libtorchcodec_core7.so",
                              "libavutil.so.59: cannot open shared object file: No such file or directory"),
                      library("torchcodec/libtorchcodec_custom_ops7.so",
                              "libtorchcodec_core7.so: cannot open shared object file: No such file or directory"),
                      library("torchcodec/libtorchcodec_image.so", "")});
  Observation observation = judge_cell_result(result, k215, kPackage, false);
  EXPECT_EQ(observation.outcome, CanaryOutcome::Loaded);
  ASSERT_EQ(observation.notes.size(), 2U);
  EXPECT_NE(observation.notes[0].find("optional, needs libavutil.so.59 from the system"), std::string::npos);
  EXPECT_NE(observation.notes[1].find("since libtorchcodec_core7.so of the package did not load"), std::string::npos);
}

TEST(CanaryObservation, AnImportThatRaisesIsARefusalWithThePackagesMessage) {
  std::string message =
      "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions";
  Observation observation = judge_cell_result(cell(json::array(), "import", message), k215, kPackage, true);
  EXPECT_EQ(observation.outcome, CanaryOutcome::Refused);
  EXPECT_EQ(observation.detail, message);
}

TEST(CanaryObservation, CrashesAndTimeoutsComeFirst) {
  json crash = {{"stage", "crash"}, {"signal", 11}, {"error", "signal 11 (Segmentation fault)"}, {"seconds", 0.2}};
  EXPECT_EQ(judge_cell_result(crash, k215, kPackage, false).outcome, CanaryOutcome::Crash);
  json timeout = {{"stage", "timeout"}, {"error", "timed out after 20 s"}, {"seconds", 20.0}};
  Observation observation = judge_cell_result(timeout, k215, kPackage, false);
  EXPECT_EQ(observation.outcome, CanaryOutcome::Timeout);
  EXPECT_EQ(observation.detail, "timed out after 20 s");
}

TEST(CanaryObservation, NothingExecutedWithoutAGpuIsNotALoad) {
  EXPECT_EQ(judge_cell_result(cell(json::array(), "", "", "skipped"), k215, kPackage, false).outcome,
            CanaryOutcome::LoadedNotExecuted);
  EXPECT_EQ(judge_cell_result(cell(json::array()), k215, kPackage, true).outcome, CanaryOutcome::LoadedNotExecuted);
  EXPECT_EQ(judge_cell_result(cell(json::array(), "", "", "ran"), k215, kPackage, true).outcome, CanaryOutcome::Loaded);
  EXPECT_EQ(
      judge_cell_result(cell(json::array(), "smoke", "AssertionError: wrong", "failed"), k215, kPackage, false).outcome,
      CanaryOutcome::SmokeFailed);
}

Observation loaded_with(TorchVersion release, std::set<std::string> operators) {
  return {.release = release,
          .outcome = CanaryOutcome::Loaded,
          .detail = "imported and loaded",
          .operators = std::move(operators)};
}

TEST(CanaryObservation, OperatorsAreHeldToThePinnedRelease) {
  std::vector<Observation> row = {loaded_with({2, 9, 1}, {"image::decode_png", "torchvision::nms"}),
                                  loaded_with({2, 10, 0}, {"image::decode_png"}),
                                  loaded_with({2, 11, 0}, {"image::decode_png", "torchvision::nms", "x::extra"})};
  auto reference = mark_missing_operators(row, TorchVersion{2, 9, 1});
  ASSERT_TRUE(reference);
  EXPECT_EQ(*reference, (TorchVersion{2, 9, 1}));
  EXPECT_EQ(row[0].outcome, CanaryOutcome::Loaded);
  EXPECT_EQ(row[1].outcome, CanaryOutcome::OperatorMissing);
  EXPECT_EQ(row[1].detail, "1 of the 2 operators it registers on torch 2.9 missing: torchvision::nms");
  EXPECT_EQ(row[2].outcome, CanaryOutcome::Loaded);  // more than the reference is no fault
}

TEST(CanaryObservation, WithoutAPinTheReleaseWithTheMostOperatorsIsTheReference) {
  std::vector<Observation> row = {loaded_with({2, 14, 0}, {}), loaded_with({2, 15, 0}, {"ns::op"})};
  EXPECT_EQ(mark_missing_operators(row, std::nullopt), (TorchVersion{2, 15, 0}));
  EXPECT_EQ(row[0].outcome, CanaryOutcome::OperatorMissing);
  std::vector<Observation> none = {loaded_with({2, 14, 0}, {})};
  EXPECT_FALSE(mark_missing_operators(none, std::nullopt));
}

TEST(CanaryPackages, APinIsAnExactTorchRequirement) {
  EXPECT_EQ(pinned_torch_release({"torch (==2.9.1)"}), (TorchVersion{2, 9, 1}));
  EXPECT_EQ(pinned_torch_release({"torch==2.11.0"}), (TorchVersion{2, 11, 0}));
  EXPECT_FALSE(pinned_torch_release({"torch>=2.10"}));
  EXPECT_FALSE(pinned_torch_release({}));
}

TEST(CanaryOutcome, APredictedLoadIsBorneOutByEitherKindOfLoad) {
  EXPECT_TRUE(bears_out(CanaryOutcome::Loaded, CanaryOutcome::LoadedNotExecuted));
  EXPECT_TRUE(bears_out(CanaryOutcome::UndefinedSymbol, CanaryOutcome::UndefinedSymbol));
  EXPECT_FALSE(bears_out(CanaryOutcome::Loaded, CanaryOutcome::Refused));
  EXPECT_FALSE(bears_out(CanaryOutcome::MissingLibrary, CanaryOutcome::Loaded));
  for (int i = 0; i <= static_cast<int>(kLastCanaryOutcome); ++i) {
    auto outcome = static_cast<CanaryOutcome>(i);
    EXPECT_EQ(canary_outcome_from_string(to_string(outcome)), outcome);
  }
}

}  // namespace
}  // namespace abicheck

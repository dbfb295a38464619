// The device runtime in the audit's verdict: small extensions linked against stub device libraries
// of two majors (built here from a C file with the right soname; no GPU, no CUDA toolkit), audited
// against a scratch store of two releases that bring CUDA 12 and CUDA 13.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "audit/audit_fixture_support.h"
#include "core/file_text.h"
#include "core/process.h"
#include "support/cli.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class DeviceRuntimeAudit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("device-runtime-audit-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    std::ofstream(scratch_ / "stub.c") << "int cudaRuntimeGetVersion(int* v) { *v = 0; return 0; }\n"
                                       << "int cudnnGetVersion(void) { return 0; }\n";
    std::ofstream(scratch_ / "extension.c") << "extern int cudaRuntimeGetVersion(int*);\n"
                                            << "extern int cudnnGetVersion(void);\n"
                                            << "int extension_versions(void) {\n"
                                            << "  int v = 0; cudaRuntimeGetVersion(&v); return v + cudnnGetVersion();\n"
                                            << "}\n";
    for (const char* soname : {"libcudart.so.12", "libcudart.so.13", "libcudnn.so.8", "libcudnn.so.9"}) {
      compile({"-shared", "-fPIC", "-Wl,-soname," + std::string(soname), (scratch_ / "stub.c").string(), "-o",
               (scratch_ / "stubs" / soname).string()});
    }
    link_extension("needs_cu12.so", {"libcudart.so.12", "libcudnn.so.9"});
    link_extension("needs_cu13.so", {"libcudart.so.13", "libcudnn.so.9"});
    link_extension("needs_cudnn8.so", {"libcudart.so.12", "libcudnn.so.8"});
    store_release("2.10.0", "12.8", {"cuda_runtime/lib/libcudart.so.12", "cudnn/lib/libcudnn.so.9"});
    store_release("2.11.0", "13.0", {"cu13/lib/libcudart.so.13", "cudnn/lib/libcudnn.so.9"});
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }

  static void compile(std::vector<std::string> arguments) {
    fs::create_directories(scratch_ / "stubs");
    arguments.insert(arguments.begin(), "cc");
    ProcessResult result = run_process({.argv = arguments, .timeout = std::chrono::minutes(2)});
    ASSERT_TRUE(result.succeeded()) << result.output;
  }

  static void link_extension(const std::string& name, const std::vector<std::string>& sonames) {
    // --no-as-needed: each stub defines every function, and a NEEDED entry must stay for each soname.
    std::vector<std::string> arguments = {"-shared", "-fPIC", (scratch_ / "extension.c").string(),
                                          "-L" + (scratch_ / "stubs").string(), "-Wl,--no-as-needed"};
    for (const auto& soname : sonames) arguments.push_back("-l:" + soname);
    arguments.insert(arguments.end(), {"-o", (scratch_ / name).string()});
    compile(arguments);
  }

  // A store release as torch_store.py leaves it, with its NVIDIA libraries beside torch (empty files:
  // the store reads only their names).
  static void store_release(const std::string& version, const std::string& cuda,
                            const std::vector<std::string>& nvidia_libraries) {
    fs::path root = scratch_ / "store" / "releases" / version;
    fs::path site = root / "venv" / "lib" / "python3.12" / "site-packages";
    fs::create_directories(site / "torch" / "include" / "torch");
    fs::create_directories(site / "torch" / "lib");
    for (const auto& library : nvidia_libraries) {
      fs::create_directories((site / "nvidia" / library).parent_path());
      std::ofstream(site / "nvidia" / library) << "";
    }
    nlohmann::json manifest = {{"version", version},
                               {"python", (root / "venv" / "bin" / "python3").string()},
                               {"torch_dir", (site / "torch").string()},
                               {"include_dir", (site / "torch" / "include").string()},
                               {"lib_dir", (site / "torch" / "lib").string()},
                               {"cuda_major", std::stoi(cuda)},
                               {"cuda_version", cuda},
                               {"disk_bytes", 1},
                               {"install_seconds", 1.0}};
    std::ofstream(root / "release.json") << manifest.dump();
  }

  struct Audit {
    ProcessResult process;
    nlohmann::json document;
  };
  static Audit audit(const std::vector<std::string>& inputs) {
    static int runs = 0;
    fs::path json = scratch_ / ("audit-" + std::to_string(++runs) + ".json");
    std::vector<std::string> arguments = {"--store", (scratch_ / "store").string(), "audit"};
    arguments.insert(arguments.end(), inputs.begin(), inputs.end());
    arguments.insert(arguments.end(), {"--json", json.string()});
    Audit result{run_cli(arguments), nullptr};
    if (fs::exists(json)) result.document = nlohmann::json::parse(std::ifstream(json));
    return result;
  }

  static nlohmann::json findings_of_kind(const nlohmann::json& document, const std::string& kind) {
    nlohmann::json found = nlohmann::json::array();
    for (const auto& finding : document.at("verdict").at("findings")) {
      if (finding.at("kind") == kind) found.push_back(finding);
    }
    return found;
  }

  static inline fs::path scratch_;
};

TEST_F(DeviceRuntimeAudit, StoreListShowsEachReleasesDeviceRuntime) {
  ProcessResult listed = run_cli({"--store", (scratch_ / "store").string(), "store", "list", "--json"});
  ASSERT_TRUE(listed.succeeded()) << listed.output;
  auto releases = nlohmann::json::parse(listed.output).at("releases");
  ASSERT_EQ(releases.size(), 2U);
  EXPECT_EQ(releases[0]["device_runtime"]["toolkit"], "CUDA");
  EXPECT_EQ(releases[0]["device_runtime"]["major"], 12);
  EXPECT_EQ(releases[1]["device_runtime"]["major"], 13);
  EXPECT_EQ(releases[1]["device_runtime"]["minor"], 0);
  std::vector<std::string> sonames;
  for (const auto& library : releases[1]["device_runtime"]["libraries"]) sonames.push_back(library["soname"]);
  EXPECT_EQ(sonames, (std::vector<std::string>{"libcudart.so.13", "libcudnn.so.9"}));

  ProcessResult text = run_cli({"--store", (scratch_ / "store").string(), "store", "list"});
  EXPECT_NE(text.output.find("CUDA 13.0"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("device   libcudart.so.13 libcudnn.so.9"), std::string::npos) << text.output;
}

TEST_F(DeviceRuntimeAudit, ACuda12BinaryLoadsOnlyIntoTheCuda12ReleaseAndIsWarnedNotFailed) {
  Audit run = audit({(scratch_ / "needs_cu12.so").string()});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  const auto& binary = run.document.at("audit").at("binaries").at(0);
  EXPECT_EQ(binary["device"]["toolkit"], "CUDA 12");
  ASSERT_EQ(binary["releases"].size(), 2U);
  EXPECT_TRUE(binary["releases"][0]["loads"]);
  EXPECT_FALSE(binary["releases"][1]["loads"]);
  EXPECT_TRUE(binary["releases"][1]["torch_symbols_fit"]);
  EXPECT_FALSE(binary["releases"][1]["device_runtime_fits"]);

  auto mismatches = findings_of_kind(run.document, "device-runtime-mismatch");
  ASSERT_EQ(mismatches.size(), 1U) << run.document.dump(2);
  EXPECT_EQ(mismatches[0]["severity"], "warning");
  std::string message = mismatches[0]["message"];
  EXPECT_NE(message.find("needs CUDA 12 runtime (libcudart.so.12); torch 2.11 in the store ships CUDA 13 "
                         "(libcudart.so.13)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("may exist on another index"), std::string::npos) << message;
  EXPECT_NE(run.process.output.find("2.11.0   CUDA 13.0  does not load"), std::string::npos) << run.process.output;
}

TEST_F(DeviceRuntimeAudit, ACuda13BinaryLoadsOnlyIntoTheCuda13Release) {
  Audit run = audit({(scratch_ / "needs_cu13.so").string()});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  const auto& releases = run.document.at("audit").at("binaries").at(0).at("releases");
  EXPECT_FALSE(releases[0]["loads"]);
  EXPECT_TRUE(releases[1]["loads"]);
  auto mismatches = findings_of_kind(run.document, "device-runtime-mismatch");
  ASSERT_EQ(mismatches.size(), 1U);
  EXPECT_NE(mismatches[0]["message"].get<std::string>().find("torch 2.10 in the store ships CUDA 12 (libcudart.so.12)"),
            std::string::npos);
}

TEST_F(DeviceRuntimeAudit, AnotherMajorOfASeparatelyVersionedLibraryIsAnError) {
  Audit run = audit({(scratch_ / "needs_cudnn8.so").string()});
  EXPECT_EQ(run.process.exit_code, 1) << run.process.output;
  auto errors = findings_of_kind(run.document, "device-library-mismatch");
  ASSERT_EQ(errors.size(), 1U) << run.document.dump(2);
  EXPECT_EQ(errors[0]["severity"], "error");
  EXPECT_NE(errors[0]["message"].get<std::string>().find(
                "needs libcudnn.so.8; torch 2.10, 2.11 in the store ship libcudnn.so.9: it does not load"),
            std::string::npos)
      << errors[0]["message"];
}

TEST_F(DeviceRuntimeAudit, ARecordedToolkitOfAnInstalledPackageCountsWhenNoSonamePinsIt) {
  // A package that links its CUDA runtime statically records it only in its version.py.
  fs::path package = scratch_ / "site" / "statically_linked";
  fs::create_directories(package);
  compile({"-shared", "-fPIC", "-Wl,-soname,libc10_cuda.so", (scratch_ / "stub.c").string(), "-o",
           (scratch_ / "stubs" / "libc10_cuda.so").string()});
  compile({"-shared", "-fPIC", (scratch_ / "stub.c").string(), "-L" + (scratch_ / "stubs").string(),
           "-Wl,--no-as-needed", "-l:libc10_cuda.so", "-o", (package / "_C.so").string()});
  compile({"-shared", "-fPIC", (scratch_ / "stub.c").string(), "-o", (package / "libvendored.so").string()});
  std::ofstream(package / "version.py") << "__version__ = '0.1.0+cu126'\n";
  Audit run = audit({package.string()});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  const auto& binaries = run.document.at("audit").at("binaries");
  ASSERT_EQ(binaries.size(), 2U);
  const auto& binary = binaries.at(0);  // _C.so; sorted by path
  EXPECT_EQ(binary["device"]["recorded"]["version"], "CUDA 12.6");
  // The vendored library beside it uses no device: what the package records is not about it.
  EXPECT_TRUE(binaries.at(1)["device"]["recorded"].is_null());
  EXPECT_TRUE(binaries.at(1)["releases"][1]["loads"]);
  EXPECT_TRUE(binary["releases"][0]["loads"]);
  EXPECT_FALSE(binary["releases"][1]["loads"]);
  auto minors = findings_of_kind(run.document, "device-toolkit-minor");
  ASSERT_EQ(minors.size(), 1U) << run.document.dump(2);
  EXPECT_NE(minors[0]["message"].get<std::string>().find("built for CUDA 12.6"), std::string::npos);
}

TEST_F(DeviceRuntimeAudit, WithoutAStoreTheAuditStillNamesTheDeviceRuntime) {
  fs::path json = scratch_ / "no-store.json";
  ProcessResult run = run_cli({"--store", (scratch_ / "empty").string(), "audit", (scratch_ / "needs_cu12.so").string(),
                               "--json", json.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto binary = nlohmann::json::parse(std::ifstream(json)).at("audit").at("binaries").at(0);
  EXPECT_TRUE(binary["releases"].empty());
  EXPECT_NE(run.output.find("device runtime: CUDA 12 (libcudart.so.12, libcudnn.so.9)"), std::string::npos)
      << run.output;
}

// A wheel whose own Python compares its build's CUDA major.minor with torch's at import (torchaudio's
// shape): under a release of the same major and another minor it loads, and the audit says that the
// package's import refuses it; a check of the major only (torchvision's) changes nothing.
TEST_F(DeviceRuntimeAudit, APackagesOwnCudaMinorCheckIsFoundAndSaysItsImportRefusesAnotherMinor) {
  std::string check =
      "import torch\n"
      "def _check_cuda_version(version):\n"
      "    t_version = torch.version.cuda.split('.')\n"
      "    if version != f'{t_version[0]}.{t_version[1]}':\n"
      "        raise RuntimeError('Detected that PyTorch and pkg were compiled with different CUDA versions.')\n";
  auto audit_wheel = [&](const std::string& name, const std::string& check_source) {
    fs::path wheel = scratch_ / (name + "-1.0-cp311-cp311-linux_x86_64.whl");
    testing::write_zip(wheel, {{name + "/_C.so", read_file_text(scratch_ / "needs_cu12.so")},
                               {name + "/version.py", "__version__ = '1.0'\ncuda = '12.6'\n"},
                               {name + "/_extension/utils.py", check_source},
                               {name + "-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: " + name + "\n"}});
    return audit({wheel.string()});
  };
  Audit minor_checked = audit_wheel("minorpkg", check);
  ASSERT_EQ(minor_checked.process.exit_code, 0) << minor_checked.process.output;
  const auto& on_2_10 = minor_checked.document.at("audit").at("binaries").at(0).at("releases").at(0);
  EXPECT_TRUE(on_2_10["loads"]);
  ASSERT_EQ(on_2_10["device_misfits"].size(), 1U) << on_2_10.dump(2);
  EXPECT_EQ(on_2_10["device_misfits"][0]["need"],
            "built for CUDA 12.6 (minorpkg/version.py: cuda = '12.6'), and minorpkg/_extension/utils.py refuses "
            "another CUDA minor at import");

  std::string major_only = check;
  major_only.replace(major_only.find("if version != f'{t_version[0]}.{t_version[1]}'"),
                     std::string("if version != f'{t_version[0]}.{t_version[1]}'").size(),
                     "if version_major != t_version[0]");
  major_only.replace(major_only.find("different CUDA versions"), std::string("different CUDA versions").size(),
                     "different CUDA major versions");
  Audit major_checked = audit_wheel("majorpkg", major_only);
  ASSERT_EQ(major_checked.process.exit_code, 0) << major_checked.process.output;
  const auto& major_2_10 = major_checked.document.at("audit").at("binaries").at(0).at("releases").at(0);
  ASSERT_EQ(major_2_10["device_misfits"].size(), 1U);
  EXPECT_EQ(major_2_10["device_misfits"][0]["need"], "built for CUDA 12.6 (majorpkg/version.py: cuda = '12.6')");
}

}  // namespace
}  // namespace abicheck

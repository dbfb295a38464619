// ReleaseStore::resolve, the one way a command's release text becomes files, on a scratch store
// and scratch torch directories (no real torch needed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/tool_error.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

class ReleaseResolve : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / ("release-resolve-test-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_ / "store");
  }
  void TearDown() override { fs::remove_all(scratch_); }

  // A store release as torch_store.py commits it: releases/<version>/release.json.
  void store_release(const std::string& version) {
    fs::path root = scratch_ / "store" / "releases" / version;
    fs::path torch_dir = root / "venv" / "lib" / "python3.11" / "site-packages" / "torch";
    fs::create_directories(torch_dir / "include" / "torch");
    nlohmann::json manifest = {{"version", version},
                               {"python", (root / "venv" / "bin" / "python3").string()},
                               {"torch_dir", torch_dir.string()},
                               {"include_dir", (torch_dir / "include").string()},
                               {"lib_dir", (torch_dir / "lib").string()},
                               {"cuda_major", 12},
                               {"cuda_version", "12.8"},
                               {"disk_bytes", 1},
                               {"install_seconds", 1.0}};
    std::ofstream(root / "release.json") << manifest.dump();
  }

  // A torch package directory in an environment: <env>/lib/python3.12/site-packages/torch.
  fs::path torch_package(bool with_python) {
    fs::path env = scratch_ / "env";
    fs::path torch_dir = env / "lib" / "python3.12" / "site-packages" / "torch";
    fs::create_directories(torch_dir / "include" / "torch");
    fs::create_directories(torch_dir / "lib");
    std::ofstream(torch_dir / "version.py") << "__version__ = '2.16.0a0+git0123abc'\ncuda: Optional[str] = '13.0'\n";
    if (with_python) {
      fs::create_directories(env / "bin");
      std::ofstream(env / "bin" / "python3") << "";
    }
    return torch_dir;
  }

  std::string error_of(const std::string& text) const {
    try {
      ReleaseStore(scratch_ / "store").resolve(text);
    } catch (const ToolError& error) {
      return error.what();
    }
    return "";
  }

  fs::path scratch_;
};

TEST_F(ReleaseResolve, AVersionIsTheStoreReleaseWithEverythingABuildNeeds) {
  store_release("2.10.0");
  store_release("2.10.1");
  store_release("2.11.0");
  ReleaseStore store(scratch_ / "store");
  ResolvedRelease minor = store.resolve("2.10");
  EXPECT_EQ(minor.origin, ReleaseOrigin::Store);
  EXPECT_EQ(minor.version, (TorchVersion{2, 10, 1}));
  EXPECT_EQ(minor.root, scratch_ / "store" / "releases" / "2.10.1");
  ASSERT_TRUE(minor.installed);
  EXPECT_EQ(minor.include_dir, minor.installed->include_dir);
  EXPECT_EQ(minor.lib_dir, minor.installed->lib_dir);
  EXPECT_EQ(minor.installed->cuda_major, 12);
  EXPECT_EQ(store.resolve("2.10.0").version, (TorchVersion{2, 10, 0}));
  EXPECT_EQ(store.resolve("newest").version, (TorchVersion{2, 11, 0}));
}

TEST_F(ReleaseResolve, AMissingReleaseSaysHowToInstallIt) {
  EXPECT_NE(error_of("2.12").find("torch 2.12 is not installed in the store"), std::string::npos) << error_of("2.12");
  EXPECT_NE(error_of("2.12").find("run: torch-abi-check store install 2.12"), std::string::npos);
  EXPECT_NE(error_of("newest").find("no torch release installed (run: torch-abi-check store install)"),
            std::string::npos);
  EXPECT_NE(error_of("2.8").find("older than 2.9"), std::string::npos) << error_of("2.8");
  EXPECT_EQ(error_of("no/such/torch"),
            "no/such/torch: neither a torch version (2.10, 2.10.1, newest) nor an existing torch directory");
}

TEST_F(ReleaseResolve, ATorchPackageInAnEnvironmentIsInstalled) {
  fs::path torch_dir = torch_package(true);
  ResolvedRelease package = ReleaseStore(scratch_ / "store").resolve(torch_dir.string());
  EXPECT_EQ(package.origin, ReleaseOrigin::TorchPackage);
  EXPECT_EQ(package.version, (TorchVersion{2, 16, 0}));
  EXPECT_EQ(package.include_dir, torch_dir / "include");
  EXPECT_EQ(package.lib_dir, torch_dir / "lib");
  const StoredRelease& installed = package.require_installed();
  EXPECT_EQ(installed.python, scratch_ / "env" / "bin" / "python3");
  EXPECT_EQ(installed.torch_dir, torch_dir);
  EXPECT_EQ(installed.cuda_major, 13);
}

TEST_F(ReleaseResolve, ATorchPackageWithoutPythonHasItsFilesButCannotRun) {
  fs::path torch_dir = torch_package(false);
  ResolvedRelease package = resolve_torch_directory(torch_dir);
  EXPECT_EQ(package.version, (TorchVersion{2, 16, 0}));
  EXPECT_FALSE(package.installed);
  EXPECT_THROW(
      {
        try {
          package.require_installed();
        } catch (const ToolError& error) {
          EXPECT_NE(std::string(error.what()).find("no python for this torch"), std::string::npos) << error.what();
          throw;
        }
      },
      ToolError);
}

TEST_F(ReleaseResolve, AHeaderTreeLeavesItsVersionToItsHeaders) {
  fs::create_directories(scratch_ / "headers" / "torch");
  ResolvedRelease tree = resolve_torch_directory(scratch_ / "headers");
  EXPECT_EQ(tree.origin, ReleaseOrigin::HeaderTree);
  EXPECT_FALSE(tree.version);
  EXPECT_EQ(tree.include_dir, scratch_ / "headers");
  EXPECT_FALSE(tree.lib_dir);
  EXPECT_THROW(tree.require_installed(), ToolError);
}

}  // namespace
}  // namespace abicheck

// Whether an object loads into a release, from every symbol it imports resolved the way the dynamic
// loader resolves it (audit/loader_scope.h): against torch's libraries, the libraries they and the
// object NEED, and the system's. Two scratch releases whose lib/ holds a small libc10 and a
// libtorch_python built here with g++; the objects are built here too. What each release really does
// with an object comes from loading it there (the dynamic loader, LD_LIBRARY_PATH on the release's
// lib/), never from the tool.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "audit_fixture_support.h"
#include "core/file_text.h"
#include "core/process.h"
#include "support/cli.h"
#include "support/scratch_release_store.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

constexpr std::string_view kReleases[] = {"2.10.0", "2.11.0"};

class LoaderSymbolResolution : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("loader-symbol-resolution-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    for (std::string_view version : kReleases) store_release(std::string(version));
    // (a) torch's check-failure function, which every release defines, and a function nobody defines.
    write(scratch_ / "undefined.cpp",
          "#include <cstdint>\n"
          "namespace c10::detail {\n"
          "[[noreturn]] void torchCheckFail(const char*, const char*, std::uint32_t, const char*);\n"
          "}\n"
          "extern \"C\" void nobody_defines_this();\n"
          "extern \"C\" void entry(int x) {\n"
          "  if (x) c10::detail::torchCheckFail(\"f\", \"file\", 1, \"message\");\n"
          "  nobody_defines_this();\n"
          "}\n");
    testing::compile_cxx({"-shared", "-fPIC", (scratch_ / "undefined.cpp").string(), "-L" + lib_dir("2.10.0").string(),
                          "-Wl,--no-as-needed", "-lc10", "-o", (scratch_ / "undefined.so").string()});
    // (b) shm_open and shm_unlink left unversioned (linked without libc or librt, as an object built
    // for glibc before 2.34 without -lrt has them), in an object linked against libtorch_python: the
    // audit once took such plain C names for libtorch_python's. A torch symbol torch defines beside them.
    write(scratch_ / "shm.cpp",
          "#include <cstdint>\n"
          "namespace c10::detail {\n"
          "[[noreturn]] void torchCheckFail(const char*, const char*, std::uint32_t, const char*);\n"
          "}\n"
          "extern \"C\" int shm_open(const char*, int, unsigned);\n"
          "extern \"C\" int shm_unlink(const char*);\n"
          "extern \"C\" int entry(int x) {\n"
          "  if (x) c10::detail::torchCheckFail(\"f\", \"file\", 1, \"message\");\n"
          "  return shm_open(\"/none\", 0, 0) + shm_unlink(\"/none\");\n"
          "}\n");
    testing::compile_cxx({"-shared", "-fPIC", "-nostdlib", (scratch_ / "shm.cpp").string(),
                          "-L" + lib_dir("2.10.0").string(), "-Wl,--no-as-needed", "-ltorch_python", "-lc10", "-o",
                          (scratch_ / "shm.so").string()});
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }

  // A wheel whose extension gen/_ext.so NEEDs its own library gen.libs/libown.so.1 through RUNPATH
  // $ORIGIN/../gen.libs (auditwheel's layout) and calls `called` there; the library shipped defines
  // only own_defined. Written as a wheel and extracted beside it (the truth: the extracted object's load).
  static fs::path wheel_with_own_library(const std::string& name, const std::string& called) {
    const fs::path work = scratch_ / name;
    fs::create_directories(work / "link");
    fs::create_directories(work / "extracted" / "gen");
    fs::create_directories(work / "extracted" / "gen.libs");
    // Linked against a library that has both functions, shipped with the one that has only own_defined.
    write(work / "link" / "own.cpp",
          "extern \"C\" int own_defined() { return 1; }\nextern \"C\" int own_missing() { return 2; }\n");
    testing::compile_cxx({"-shared", "-fPIC", (work / "link" / "own.cpp").string(), "-Wl,-soname,libown.so.1", "-o",
                          (work / "link" / "libown.so.1").string()});
    write(work / "own.cpp", "extern \"C\" int own_defined() { return 1; }\n");
    testing::compile_cxx({"-shared", "-fPIC", (work / "own.cpp").string(), "-Wl,-soname,libown.so.1", "-o",
                          (work / "extracted" / "gen.libs" / "libown.so.1").string()});
    write(work / "ext.cpp",
          "#include <cstdint>\n"
          "namespace c10::detail {\n"
          "[[noreturn]] void torchCheckFail(const char*, const char*, std::uint32_t, const char*);\n"
          "}\n"
          "extern \"C\" int " +
              called +
              "();\n"
              "extern \"C\" int entry(int x) {\n"
              "  if (x) c10::detail::torchCheckFail(\"f\", \"file\", 1, \"message\");\n"
              "  return " +
              called +
              "();\n"
              "}\n");
    testing::compile_cxx({"-shared", "-fPIC", (work / "ext.cpp").string(), "-L" + lib_dir("2.10.0").string(),
                          "-L" + (work / "link").string(), "-Wl,--no-as-needed", "-lc10", "-l:libown.so.1",
                          "-Wl,-rpath,$ORIGIN/../gen.libs", "-o", (work / "extracted" / "gen" / "_ext.so").string()});
    fs::path wheel = work / (name + "-1.0-cp311-cp311-linux_x86_64.whl");
    testing::write_zip(wheel,
                       {{"gen/_ext.so", read_file_text(work / "extracted" / "gen" / "_ext.so")},
                        {"gen.libs/libown.so.1", read_file_text(work / "extracted" / "gen.libs" / "libown.so.1")},
                        {name + "-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: " + name + "\n"}});
    return wheel;
  }

  static void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

  static testing::ScratchReleaseStore store() { return testing::ScratchReleaseStore(scratch_ / "store"); }
  static fs::path lib_dir(const std::string& version) { return store().lib_dir(version); }
  static std::string load_error(const std::string& version, const fs::path& object) {
    return store().load_error(version, object);
  }

  // A CPU release as torch_store.py leaves it: a libc10 defining torchCheckFail, and a libtorch_python
  // that NEEDs it.
  static void store_release(const std::string& version) {
    store().add_release(version,
                        {{"libc10.so",
                          "#include <cstdint>\n#include <stdexcept>\n"
                          "namespace c10::detail {\n"
                          "[[noreturn]] void torchCheckFail(const char*, const char*, std::uint32_t, "
                          "const char* m) {\n"
                          "  throw std::runtime_error(m);\n"
                          "}\n"
                          "}\n",
                          {}},
                         {"libtorch_python.so", "extern \"C\" int torch_python_entry() { return 1; }", {"-lc10"}}});
  }

  // The audit's JSON document of `object` against the scratch store.
  static nlohmann::json audit(const fs::path& object, int expected_exit) {
    fs::path json = scratch_ / (object.stem().string() + ".json");
    ProcessResult run =
        run_cli({"--store", (scratch_ / "store").string(), "audit", object.string(), "--json", json.string()});
    EXPECT_EQ(run.exit_code, expected_exit) << run.output;
    return nlohmann::json::parse(std::ifstream(json));
  }

  static inline fs::path scratch_;
};

TEST_F(LoaderSymbolResolution, ASymbolNoLibraryDefinesKeepsTheObjectFromLoadingIntoEveryRelease) {
  const fs::path object = scratch_ / "undefined.so";
  for (std::string_view version : kReleases) {
    EXPECT_NE(load_error(std::string(version), object).find("undefined symbol: nobody_defines_this"), std::string::npos)
        << version;
  }
  const nlohmann::json document = audit(object, 1);
  const nlohmann::json& binary = document.at("audit").at("binaries").at(0);
  ASSERT_EQ(binary["releases"].size(), std::size(kReleases));
  for (const auto& load : binary["releases"]) {
    EXPECT_FALSE(load["loads"]) << load.dump(2);
    bool named = false;
    for (const auto& misfit : load["torch_misfits"]) {
      std::string text = misfit.get<std::string>();
      named = named || text.starts_with("undefined symbol nobody_defines_this (defined by none of: libc10.so, ");
      // torch's own symbol is defined, so it is no reason.
      EXPECT_EQ(text.find("torchCheckFail"), std::string::npos) << text;
    }
    EXPECT_TRUE(named) << load.dump(2);
  }
  std::vector<nlohmann::json> undefined;
  for (const auto& finding : document.at("verdict").at("findings")) {
    if (finding.at("kind") == "undefined-symbol") undefined.push_back(finding);
  }
  ASSERT_EQ(undefined.size(), 1U) << document.at("verdict").dump(2);
  EXPECT_TRUE(undefined[0]["message"].get<std::string>().starts_with(
      "does not load into torch 2.10, 2.11: undefined symbol nobody_defines_this (defined by none of: "))
      << undefined[0].dump(2);
}

TEST_F(LoaderSymbolResolution, ASystemLibrarysSymbolIsNeverTorchsAndTheObjectLoads) {
  const fs::path object = scratch_ / "shm.so";
  for (std::string_view version : kReleases) EXPECT_EQ(load_error(std::string(version), object), "") << version;
  const nlohmann::json document = audit(object, 1);  // unstable: it imports c10's C++ ABI
  const nlohmann::json& binary = document.at("audit").at("binaries").at(0);
  EXPECT_EQ(binary["imports"]["system"], nlohmann::json::array({"shm_open", "shm_unlink"})) << binary.dump(2);
  for (const auto& symbol : binary["unstable_symbols"])
    EXPECT_EQ(symbol.dump().find("shm_"), std::string::npos) << symbol;
  ASSERT_EQ(binary["releases"].size(), std::size(kReleases));
  for (const auto& load : binary["releases"]) {
    EXPECT_TRUE(load["loads"]) << load.dump(2);
    EXPECT_EQ(load["torch_misfits"], nlohmann::json::array()) << load.dump(2);
  }
  for (const auto& finding : document.at("verdict").at("findings")) {
    EXPECT_EQ(finding.at("message").get<std::string>().find("shm_"), std::string::npos) << finding.dump(2);
  }
}

TEST_F(LoaderSymbolResolution, AWheelsOwnLibraryIsFoundThroughItsRunpathAndWhatItLacksIsUndefined) {
  for (const auto& [name, called] : {std::pair<std::string, std::string>{"ownfound", "own_defined"},
                                     std::pair<std::string, std::string>{"ownlacks", "own_missing"}}) {
    const fs::path wheel = wheel_with_own_library(name, called);
    const fs::path extracted = wheel.parent_path() / "extracted" / "gen" / "_ext.so";
    const nlohmann::json document = audit(wheel, 1);  // unstable: it imports c10's C++ ABI
    const nlohmann::json* binary = nullptr;
    for (const auto& candidate : document.at("audit").at("binaries")) {
      if (candidate.at("path").get<std::string>().ends_with("!gen/_ext.so")) binary = &candidate;
    }
    ASSERT_NE(binary, nullptr) << document.dump(2);
    ASSERT_EQ((*binary)["releases"].size(), std::size(kReleases));
    for (std::size_t i = 0; i < std::size(kReleases); ++i) {
      const std::string error = load_error(std::string(kReleases[i]), extracted);
      // The case is what it was made to be: the loader finds libown.so.1 and binds own_defined only.
      EXPECT_EQ(error.empty(), called == "own_defined") << error;
      const nlohmann::json& load = (*binary)["releases"][i];
      EXPECT_EQ(load["loads"].get<bool>(), error.empty()) << name << " " << kReleases[i] << ": " << error << "\n"
                                                          << load.dump(2);
      if (!error.empty()) {
        EXPECT_NE(error.find("undefined symbol: " + called), std::string::npos) << error;
        ASSERT_EQ(load["torch_misfits"].size(), 1U) << load.dump(2);
        EXPECT_TRUE(load["torch_misfits"][0].get<std::string>().starts_with(
            "undefined symbol " + called + " (defined by none of: libc10.so, libown.so.1"))
            << load.dump(2);
      }
    }
    bool undefined_finding = false;
    for (const auto& finding : document.at("verdict").at("findings")) {
      undefined_finding = undefined_finding || finding.at("kind") == "undefined-symbol";
    }
    EXPECT_EQ(undefined_finding, called == "own_missing") << document.at("verdict").dump(2);
  }
}

}  // namespace
}  // namespace abicheck

// An unstable binary's load prediction, per release, from the C++ symbols that release's libraries
// export (baseline/torch_symbol_exports.h): two scratch releases whose lib/ holds small libtorch_cpu
// and libc10 built here with g++ (2.11's lost one function of 2.10's), an extension built against
// 2.10's importing three C++ functions of them. What each release really does with the extension
// comes from loading it there (the dynamic loader, LD_LIBRARY_PATH on the release's lib/), never
// from the tool.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "audit/audit_fixture_support.h"
#include "baseline/torch_symbol_exports.h"
#include "core/file_text.h"
#include "core/process.h"
#include "support/cli.h"
#include "support/scratch_release_store.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;

class TorchCxxExports : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("torch-cxx-exports-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    store_release("2.10.0",
                  {{"libtorch_cpu.so", "namespace at { int first() { return 1; } }"},
                   {"libc10.so", "namespace c10 { int second(int x) { return x; } int kept() { return 3; } }"}});
    // 2.11 dropped c10::second(int); a third-party library bundled beside torch's defines it, but
    // nothing NEEDs that one, so the loader does not look there (and neither must the audit).
    store_release("2.11.0", {{"libtorch_cpu.so", "namespace at { int first() { return 2; } }"},
                             {"libc10.so", "namespace c10 { int kept() { return 4; } }"},
                             {"libvendored.so", "namespace c10 { int second(int x) { return -x; } }"}});
    std::ofstream(scratch_ / "extension.cpp")
        << "namespace at { int first(); }\n"
        << "namespace c10 { int second(int); int kept(); __attribute__((weak)) int optional_hook(); }\n"
        << "extern \"C\" int extension_entry() {\n"
        << "  return at::first() + c10::second(1) + c10::kept() + (c10::optional_hook ? c10::optional_hook() : 0);\n"
        << "}\n";
    compile({"-shared", "-fPIC", (scratch_ / "extension.cpp").string(), "-L" + lib_dir("2.10.0").string(),
             "-Wl,--no-as-needed", "-ltorch_cpu", "-lc10", "-o", extension().string()});
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }

  static testing::ScratchReleaseStore store(const std::string& name = "store") {
    return testing::ScratchReleaseStore(scratch_ / name);
  }
  static fs::path lib_dir(const std::string& version, const std::string& name = "store") {
    return store(name).lib_dir(version);
  }
  static fs::path extension() { return scratch_ / "extension.so"; }
  static void compile(const std::vector<std::string>& arguments) { testing::compile_cxx(arguments); }

  // A CPU release as torch_store.py leaves it; its lib/ holds the given libraries, built here.
  static void store_release(const std::string& version,
                            const std::vector<std::pair<std::string, std::string>>& libraries,
                            const std::string& name = "store") {
    std::vector<testing::ScratchReleaseStore::Library> built;
    for (const auto& [file, source] : libraries) built.push_back({file, source, {}});
    store(name).add_release(version, built);
  }

  // What the dynamic loader does with `object` under a release: "" when it loads, else its error.
  static std::string load_error(const std::string& version, const fs::path& object = extension(),
                                const std::string& name = "store") {
    return store(name).load_error(version, object);
  }

  static nlohmann::json audit_json() {
    fs::path json = scratch_ / "audit.json";
    ProcessResult run =
        run_cli({"--store", (scratch_ / "store").string(), "audit", extension().string(), "--json", json.string()});
    EXPECT_EQ(run.exit_code, 1) << run.output;  // unstable: a finding
    text_ = run.output;
    return nlohmann::json::parse(std::ifstream(json));
  }

  static inline fs::path scratch_;
  static inline std::string text_;
};

TEST_F(TorchCxxExports, AnUnstableBinaryLoadsExactlyWhereEverySymbolItImportsIsExported) {
  std::string on_2_10 = load_error("2.10.0");
  std::string on_2_11 = load_error("2.11.0");
  ASSERT_EQ(on_2_10, "");
  ASSERT_NE(on_2_11.find("undefined symbol: _ZN3c106secondEi"), std::string::npos) << on_2_11;

  nlohmann::json document = audit_json();
  const auto& binary = document.at("audit").at("binaries").at(0);
  EXPECT_EQ(binary["verdict"], "unstable");
  ASSERT_EQ(binary["releases"].size(), 2U);
  EXPECT_TRUE(binary["releases"][0]["loads"]) << binary.dump(2);
  EXPECT_FALSE(binary["releases"][1]["loads"]);
  EXPECT_FALSE(binary["releases"][1]["torch_symbols_fit"]);
  // The weak import is no requirement: three symbols are, and 2.11 lacks one of them.
  EXPECT_EQ(binary["releases"][1]["torch_misfits"],
            nlohmann::json::array({"torch 2.11.0 does not export 1 of the 3 libtorch C++ symbols it imports: "
                                   "c10::second(int)"}));
  std::string unstable_finding;
  for (const auto& finding : document.at("verdict").at("findings")) {
    if (finding.at("kind") == "unstable") unstable_finding = finding.at("message");
  }
  EXPECT_NE(unstable_finding.find("every libtorch C++ symbol it imports (3) is exported by torch 2.10.0 in the store"),
            std::string::npos)
      << unstable_finding;
  EXPECT_NE(text_.find("2.10.0   CPU        loads: imports libtorch's C++ ABI; every symbol of it that it imports "
                       "(3) is exported by torch 2.10.0"),
            std::string::npos)
      << text_;
}

TEST_F(TorchCxxExports, OnlyTorchsOwnLibrariesAreReadAndTheirExportsAreCachedByContent) {
  std::vector<std::string> names;
  for (const auto& library : TorchSymbolExports::torch_libraries(lib_dir("2.11.0"))) {
    names.push_back(library.filename().string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"libc10.so", "libtorch_cpu.so"}));

  fs::path cache = scratch_ / "unit-cache";
  auto exports = torch_symbol_exports(lib_dir("2.10.0"), cache);
  EXPECT_TRUE(exports->exports("_ZN2at5firstEv"));
  EXPECT_TRUE(exports->exports("_ZN3c106secondEi"));
  EXPECT_FALSE(exports->exports("_ZN3c1013optional_hookEv"));
  fs::path cached = cache / (torch_exports_key(lib_dir("2.10.0")) + ".exports");
  ASSERT_TRUE(fs::exists(cached));
  auto from_cache = TorchSymbolExports::deserialize(read_file_text(cached));
  ASSERT_TRUE(from_cache);
  EXPECT_EQ(from_cache->libraries(), exports->libraries());
  EXPECT_EQ(from_cache->symbol_count(), exports->symbol_count());
  EXPECT_TRUE(from_cache->exports("_ZN3c106secondEi"));
  EXPECT_FALSE(TorchSymbolExports::deserialize(read_file_text(cached).substr(0, 60)));
  // Another release's libraries are other content: another key.
  EXPECT_NE(torch_exports_key(lib_dir("2.10.0")), torch_exports_key(lib_dir("2.11.0")));
}

// torch-harmonics' shape: an OpenMP extension imports GOMP_barrier unversioned, naming neither
// libgomp nor any library that defines it; the loader binds it in the libgomp that libtorch_cpu NEEDs
// (torch bundles one in its lib/). Here 2.10's libtorch_cpu NEEDs a bundled library defining the name,
// 2.11's does not (its copy lies unNEEDed beside it).
TEST_F(TorchCxxExports, ACNameBoundInALibraryThatTorchNeedsLoadsWhereTorchNeedsIt) {
  const std::string store = "store-bundled";
  const std::string bundled = "extern \"C\" int bundled_barrier() { return 7; }";
  const std::string python = "extern \"C\" int initModule() { return 0; }";
  for (const std::string version : {"2.10.0", "2.11.0"}) {
    store_release(version, {{"libbundled.so", bundled}, {"libtorch_python.so", python}}, store);
    std::ofstream(scratch_ / "cpu.cpp") << "namespace at { int first() { return 1; } }\n";
    std::vector<std::string> link = {"-shared",
                                     "-fPIC",
                                     "-Wl,-soname,libtorch_cpu.so",
                                     (scratch_ / "cpu.cpp").string(),
                                     "-L" + lib_dir(version, store).string(),
                                     "-Wl,--no-as-needed"};
    if (version == "2.10.0") link.emplace_back("-lbundled");
    link.insert(link.end(), {"-o", (lib_dir(version, store) / "libtorch_cpu.so").string()});
    compile(link);
  }
  std::ofstream(scratch_ / "omp_like.cpp") << "extern \"C\" int bundled_barrier();\n"
                                           << "extern \"C\" int initModule();\n"
                                           << "extern \"C\" int entry() { return bundled_barrier() + initModule(); }\n";
  const fs::path object = scratch_ / "omp_like" / "omp_like.so";
  fs::create_directories(object.parent_path());
  compile({"-shared", "-fPIC", (scratch_ / "omp_like.cpp").string(), "-L" + lib_dir("2.10.0", store).string(),
           "-Wl,--no-as-needed", "-ltorch_python", "-ltorch_cpu", "-o", object.string()});
  ASSERT_EQ(load_error("2.10.0", object, store), "");
  ASSERT_NE(load_error("2.11.0", object, store).find("undefined symbol: bundled_barrier"), std::string::npos);

  fs::path json = scratch_ / "omp_like.json";
  ProcessResult run =
      run_cli({"--store", (scratch_ / store).string(), "audit", object.string(), "--json", json.string()});
  ASSERT_EQ(run.exit_code, 1) << run.output;  // unstable: it links libtorch_python
  const nlohmann::json document = nlohmann::json::parse(std::ifstream(json));
  const auto& binary = document.at("audit").at("binaries").at(0);
  ASSERT_EQ(binary["releases"].size(), 2U);
  EXPECT_TRUE(binary["releases"][0]["loads"]) << binary.dump(2);
  EXPECT_FALSE(binary["releases"][1]["loads"]) << binary.dump(2);
}

// intel-extension-for-pytorch's shape: the Python module imports nothing of torch's C++ ABI but
// NEEDs a library of the same wheel that does; where that one does not load, neither does the module.
TEST_F(TorchCxxExports, AnObjectNeedingABundledLibraryDoesNotLoadWhereThatLibraryDoesNot) {
  fs::path package = scratch_ / "bundled" / "pkg";
  fs::create_directories(package / "lib");
  compile({"-shared", "-fPIC", "-Wl,-soname,libpkg_core.so", (scratch_ / "extension.cpp").string(),
           "-L" + lib_dir("2.10.0").string(), "-Wl,--no-as-needed", "-ltorch_cpu", "-lc10", "-o",
           (package / "lib" / "libpkg_core.so").string()});
  std::ofstream(scratch_ / "module.cpp") << "extern \"C\" int extension_entry();\n"
                                         << "extern \"C\" int module_entry() { return extension_entry(); }\n";
  compile({"-shared", "-fPIC", (scratch_ / "module.cpp").string(), "-L" + (package / "lib").string(),
           "-Wl,--no-as-needed", "-lpkg_core", "-o", (package / "lib" / "_C.so").string()});
  // Loaded the way its package would: its own lib/ on the search path, beside the release's.
  ASSERT_EQ(load_error("2.10.0", package / "lib" / "_C.so"), "");
  ASSERT_NE(load_error("2.11.0", package / "lib" / "_C.so").find("undefined symbol: _ZN3c106secondEi"),
            std::string::npos);

  fs::path wheel = scratch_ / "pkg-1.0-cp311-cp311-linux_x86_64.whl";
  testing::write_zip(wheel, {{"pkg/_C.so", read_file_text(package / "lib" / "_C.so")},
                             {"pkg/lib/libpkg_core.so", read_file_text(package / "lib" / "libpkg_core.so")},
                             {"pkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: pkg\n"},
                             {"pkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp311-cp311-linux_x86_64\n"}});
  fs::path json = scratch_ / "bundled.json";
  ProcessResult run =
      run_cli({"--store", (scratch_ / "store").string(), "audit", wheel.string(), "--json", json.string()});
  ASSERT_EQ(run.exit_code, 1) << run.output;
  nlohmann::json binaries = nlohmann::json::parse(std::ifstream(json)).at("audit").at("binaries");
  ASSERT_EQ(binaries.size(), 2U);
  const auto& module = binaries.at(0);  // sorted by path: pkg/_C.so first
  ASSERT_TRUE(module["path"].get<std::string>().ends_with("!pkg/_C.so"));
  EXPECT_EQ(module["verdict"], "stable");
  EXPECT_TRUE(module["releases"][0]["loads"]) << module.dump(2);
  EXPECT_FALSE(module["releases"][1]["loads"]);
  EXPECT_EQ(module["releases"][1]["torch_misfits"],
            nlohmann::json::array({"needs libpkg_core.so of its package, which does not load: torch 2.11.0 does not "
                                   "export 1 of the 3 libtorch C++ symbols it imports: c10::second(int)"}));
}

}  // namespace
}  // namespace abicheck

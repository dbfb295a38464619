// A wheel's manylinux tags against what its objects need (audit/platform_policy.h), judged against
// the reference: `auditwheel show` on the same wheels (bench/platform_tag_agreement.py reads its
// verdict on each tag). The objects are compiled here, each needing what this machine's glibc and
// libstdc++ give it for one call: printf (GLIBC_2.2.5), shm_open (GLIBC_2.34 since glibc 2.34),
// std::__throw_bad_array_new_length (GLIBCXX_3.4.29), a library of their own that the wheel ships
// (RUNPATH $ORIGIN/../gen.libs) or does not. Each goes into wheels tagged for older and newer systems.
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "audit_fixture_support.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "support/build_paths.h"
#include "support/cli.h"
#include "support/scratch_release_store.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

struct GeneratedObject {
  std::string module;  // the extension's name: gen/<module>.so exports PyInit_<module>
  std::string source;  // its body's C++
  std::vector<std::string> link_arguments;
  bool ships_helper = false;  // the wheel carries gen.libs/libhelper.so.1, which it NEEDs
};

class PlatformTags : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("platform-tags-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }

  static fs::path compile(const GeneratedObject& object) {
    const fs::path source = scratch_ / (object.module + ".cpp");
    std::ofstream(source) << object.source << "\nextern \"C\" void* PyInit_" << object.module
                          << "() { call(); return nullptr; }\n";
    fs::path built = scratch_ / (object.module + ".so");
    std::vector<std::string> arguments{"-shared", "-fPIC", source.string(), "-o", built.string()};
    arguments.insert(arguments.end(), object.link_arguments.begin(), object.link_arguments.end());
    testing::compile_cxx(arguments);
    return built;
  }

  // A wheel as pip and auditwheel read it: the objects, and a dist-info whose RECORD lists them.
  static fs::path write_wheel(const GeneratedObject& object, const fs::path& built, const std::string& platform) {
    const std::string distribution = "gen_" + object.module;
    const std::string dist_info = distribution + "-1.0.dist-info";
    std::vector<std::pair<std::string, std::string>> entries{{"gen/" + object.module + ".so", read_file_text(built)}};
    if (object.ships_helper)
      entries.emplace_back("gen.libs/libhelper.so.1", read_file_text(scratch_ / "libhelper.so.1"));
    entries.emplace_back(dist_info + "/WHEEL",
                         "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp311-cp311-" + platform + "\n");
    entries.emplace_back(dist_info + "/METADATA", "Metadata-Version: 2.1\nName: " + distribution + "\nVersion: 1.0\n");
    std::string record;
    for (const auto& [name, content] : entries) record += name + ",,\n";
    entries.emplace_back(dist_info + "/RECORD", record + dist_info + "/RECORD,,\n");
    fs::path wheel = scratch_ / "wheels" / (distribution + "-1.0-cp311-cp311-" + platform + ".whl");
    fs::create_directories(wheel.parent_path());
    testing::write_zip(wheel, entries);
    return wheel;
  }

  static inline fs::path scratch_;
};

TEST_F(PlatformTags, VerdictOnEveryTagAgreesWithAuditwheel) {
  utsname host{};
  uname(&host);
  if (std::string(host.machine) != "x86_64") GTEST_SKIP() << "the generated wheels are tagged for x86_64";
  const fs::path auditwheel = testing::tools_python().parent_path() / "auditwheel";
  if (!fs::exists(auditwheel)) GTEST_SKIP() << "auditwheel, the reference, is not installed (ci/setup.sh)";

  const fs::path helper_source = scratch_ / "helper.cpp";
  std::ofstream(helper_source) << "extern \"C\" int helper_answer() { return 42; }\n";
  testing::compile_cxx({"-shared", "-fPIC", helper_source.string(), "-Wl,-soname,libhelper.so.1", "-o",
                        (scratch_ / "libhelper.so.1").string()});
  const std::string helper_declaration = "extern \"C\" int helper_answer();\nstatic void call() { helper_answer(); }";
  const std::vector<std::string> link_helper{"-L" + scratch_.string(), "-l:libhelper.so.1",
                                             "-Wl,-rpath,$ORIGIN/../gen.libs"};
  const std::vector<GeneratedObject> objects{
      {"printf_mod", "extern \"C\" int printf(const char*, ...);\nstatic void call() { printf(\"x\"); }", {}},
      {"shm_mod",
       "extern \"C\" int shm_open(const char*, int, unsigned);\nstatic void call() { shm_open(\"/x\", 0, 0); }",
       {}},
      {"new_array_mod",
       "namespace std { [[noreturn]] void __throw_bad_array_new_length(); }\n"
       "static void call() { std::__throw_bad_array_new_length(); }",
       {}},
      {"needs_helper_mod", helper_declaration, link_helper, false},
      {"ships_helper_mod", helper_declaration, link_helper, true},
  };
  const std::vector<std::string> platforms{"manylinux_2_17_x86_64.manylinux2014_x86_64", "manylinux_2_28_x86_64",
                                           "manylinux_2_35_x86_64", "manylinux1_x86_64"};
  std::vector<std::string> argv{testing::tools_python().string(),
                                (project_root() / "bench" / "platform_tag_agreement.py").string(),
                                "--tool",
                                testing::built_cli_path(),
                                "--auditwheel",
                                auditwheel.string(),
                                "--json",
                                (scratch_ / "agreement.json").string()};
  for (const auto& object : objects) {
    const fs::path built = compile(object);
    for (const auto& platform : platforms) argv.push_back(write_wheel(object, built, platform).string());
  }
  ProcessResult agreement = run_process({.argv = argv, .timeout = std::chrono::minutes(5)});
  EXPECT_EQ(agreement.exit_code, 0) << agreement.output;
  const auto rows = nlohmann::json::parse(read_file_text(scratch_ / "agreement.json"));
  std::size_t judged = 0;
  std::size_t unmet = 0;
  for (const auto& row : rows) {
    ASSERT_FALSE(row["tag"].is_null()) << row.dump();  // every wheel judged, none skipped
    ++judged;
    EXPECT_TRUE(row["agree"].get<bool>()) << row.dump();
    if (!row["auditwheel_unmet"].empty()) ++unmet;
  }
  // Five tags per object (the first platform field holds two), and both verdicts among them.
  EXPECT_EQ(judged, objects.size() * 5);
  EXPECT_GT(unmet, 0u);
  EXPECT_LT(unmet, judged);
}

}  // namespace
}  // namespace abicheck

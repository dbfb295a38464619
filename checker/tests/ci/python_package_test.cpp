// The Python package as a user gets it: ci/build_wheel.sh builds the CLI's wheel and makes it
// manylinux; the wheel is installed into a fresh venv, without an index, and its torch-abi-check
// runs an audit and a check from there, with every shared library it links (libabigail, libelf,
// libzip, ...) taken from the wheel, not from Debian's packages; and it audits its own wheel, whose
// platform tag its objects must meet.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

using namespace std::chrono_literals;

TEST(PythonPackage, WheelInstalledInAFreshVenvRunsAuditAndCheckWithItsOwnLibraries) {
  ScopedTempDir work("python-package");
  auto built =
      run_process({.argv = {"bash", (project_root() / "ci/build_wheel.sh").string(), (work.path() / "dist").string()},
                   .timeout = 40min});
  ASSERT_TRUE(built.succeeded()) << built.output;
  fs::path wheel = built.tail(1);
  EXPECT_TRUE(wheel.filename().string().starts_with("torch_abi_check-")) << wheel;
  EXPECT_NE(wheel.filename().string().find("-py3-none-manylinux_"), std::string::npos) << wheel;

  fs::path venv = work.path() / "venv";
  ASSERT_TRUE(run_process({.argv = {"python3", "-m", "venv", venv.string()}}).succeeded());
  auto installed =
      run_process({.argv = {(venv / "bin/pip").string(), "install", "--no-index", wheel.string()}, .timeout = 5min});
  ASSERT_TRUE(installed.succeeded()) << installed.output;
  const std::string cli = (venv / "bin/torch-abi-check").string();

  auto libraries =
      run_process({.argv = {"bash", "-c",
                            "ldd \"$(dirname \"$(readlink -f " + cli +
                                ")\")\"/../lib/python3*/site-packages/torch_abi_check/bin/torch-abi-check"}});
  ASSERT_TRUE(libraries.succeeded()) << libraries.output;
  EXPECT_NE(libraries.output.find("torch_abi_check.libs/libabigail-"), std::string::npos) << libraries.output;
  EXPECT_EQ(libraries.output.find("/usr/lib/x86_64-linux-gnu/libabigail"), std::string::npos) << libraries.output;
  EXPECT_EQ(libraries.output.find("not found"), std::string::npos) << libraries.output;

  // An audit: a small object that imports one shim of 2.9, read against the package's baselines.
  fs::path source = work.path() / "probe.c";
  fs::path library = work.path() / "libprobe.so";
  ASSERT_TRUE(run_process({.argv = {"bash", "-c",
                                    "printf 'extern int aoti_torch_get_device_type(void*, int*);\\n"
                                    "int probe(void* t) { int d; return aoti_torch_get_device_type(t, &d); }\\n' > " +
                                        source.string()}})
                  .succeeded());
  ASSERT_TRUE(run_process({.argv = {"cc", "-shared", "-fPIC", "-o", library.string(), source.string()}}).succeeded());
  auto audit = run_process({.argv = {cli, "audit", library.string(), "--target", "2.9"}, .timeout = 2min});
  EXPECT_EQ(audit.exit_code, 0) << audit.output;
  EXPECT_NE(audit.output.find("libprobe.so: stable"), std::string::npos) << audit.output;

  // The tool's own wheel meets the platform tag auditwheel gave it, by its own audit's platform check.
  fs::path own_report = work.path() / "own-wheel.json";
  auto own = run_process({.argv = {cli, "audit", wheel.string(), "--json", own_report.string()}, .timeout = 2min});
  EXPECT_EQ(own.exit_code, 0) << own.output;
  auto own_document = nlohmann::json::parse(read_file_text(own_report));
  EXPECT_TRUE(own_document.at("verdict").at("findings").empty()) << own_document.at("verdict").dump(2);

  // A check: the lint (libclang from the machine) and the store (the default one) explain a target typo.
  fs::path report = work.path() / "check.json";
  auto check = run_process({.argv = {cli, "check", (fs::path(TORCH_ABI_CHECK_FIXTURES) / "check/target_typo").string(),
                                     "--json", report.string()},
                            .timeout = 5min});
  EXPECT_EQ(check.exit_code, 1) << check.output;
  auto document = nlohmann::json::parse(read_file_text(report));
  // One typo, one finding: E005, with what the typo causes (E004, a target no release has) as its notes.
  const auto& findings = document.at("verdict").at("findings");
  ASSERT_EQ(findings.size(), 1u) << document.dump(2);
  EXPECT_EQ(findings[0].at("kind"), "E005") << document.dump(2);
  EXPECT_EQ(findings[0].at("notes").size(), 2u) << document.dump(2);
}

}  // namespace
}  // namespace abicheck

// The audit of macOS (Mach-O, thin and universal) and Windows (PE) extension binaries, built at test
// time from fixtures/audit/macho_pe/ with clang-14 and lld: the same imports, verdict and minimum
// torch as the ELF build of the same source, each import with the library it is bound to.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "audit/audit_fixture_support.h"
#include "audit/binary_audit.h"
#include "audit/mapped_file.h"
#include "baseline/release_history.h"
#include "core/process.h"
#include "core/scoped_temp_dir.h"
#include "support/build_paths.h"
#include "support/build_step.h"

namespace abicheck::testing {
namespace {

using testing::run_build_step;

namespace fs = std::filesystem;

const fs::path kSources = fs::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "macho_pe";

// A shim that one platform's torch does not export: oneDNN's is missing on macOS, MPS's on Linux.
const std::map<std::string, std::string> kBackendShims = {{"onednn", "aoti_torch_cpu_mkldnn_rnn_layer"},
                                                          {"mps", "aoti_torch_mps__cdist_forward"}};

// The binaries every test audits, built once for the suite.
struct PlatformBuilds {
  std::unique_ptr<ScopedTempDir> work;
  std::string failure;  // the build step that failed, with its output
  fs::path elf_stable, macho_stable_universal, macho_unstable, pe_stable, pe_unstable, wheel;
  // Built with -DBACKEND_SHIM: by platform ("linux", "macos"), by the shim's backend ("onednn", "mps").
  std::map<std::string, std::map<std::string, fs::path>> backend_shim;
};

PlatformBuilds build_platforms() {
  PlatformBuilds builds;
  builds.work = std::make_unique<ScopedTempDir>("macho-pe");
  const fs::path dir = builds.work->path();
  std::string& failure = builds.failure;
  auto source = [](const char* name) { return (kSources / name).string(); };
  auto out = [&](const std::string& name) { return (dir / name).string(); };

  builds.elf_stable = dir / "extension.so";
  run_build_step({"clang-14", "-shared", "-fPIC", "-O1", source("extension.cpp"), "-o", builds.elf_stable.string()},
                 failure);

  // macOS: stand-in dylibs, then the extension as a bundle bound to them, per architecture.
  for (const std::string arch : {"arm64", "x86_64"}) {
    std::string target = arch + "-apple-macos11";
    std::vector<std::string> link = {"ld64.lld-14", "-arch", arch, "-platform_version", "macos", "11.0", "11.0"};
    auto dylib = [&](const char* file, const std::string& name, const std::string& install_name) {
      run_build_step({"clang-14", "--target=" + target, "-c", source(file), "-o", out(name + "-" + arch + ".o")},
                     failure);
      std::vector<std::string> argv = link;
      argv.insert(argv.end(), {"-dylib", "-install_name", install_name, out(name + "-" + arch + ".o")});
      if (name != "libSystem") argv.push_back(out("libSystem-" + arch + ".dylib"));
      argv.insert(argv.end(), {"-o", out(name + "-" + arch + ".dylib")});
      run_build_step(argv, failure);
    };
    dylib("libsystem.c", "libSystem", "/usr/lib/libSystem.B.dylib");
    dylib("torch_cpu.c", "libtorch_cpu", "@rpath/libtorch_cpu.dylib");
    dylib("c10.cpp", "libc10", "@rpath/libc10.dylib");
    for (const bool unstable : {false, true}) {
      std::string name = std::string(unstable ? "unstable" : "stable") + "-" + arch;
      std::vector<std::string> compile = {"clang-14", "--target=" + target, "-O1", "-c", source("extension.cpp"),
                                          "-o",       out(name + ".o")};
      if (unstable) compile.push_back("-DUSES_UNSTABLE_C10");
      run_build_step(compile, failure);
      std::vector<std::string> argv = link;
      argv.insert(argv.end(),
                  {"-bundle", out(name + ".o"), out("libtorch_cpu-" + arch + ".dylib"),
                   out("libc10-" + arch + ".dylib"), out("libSystem-" + arch + ".dylib"), "-o", out(name + ".so")});
      run_build_step(argv, failure);
    }
  }
  for (const auto& [backend, shim] : kBackendShims) {
    std::string define = "-DBACKEND_SHIM=" + shim;
    builds.backend_shim["linux"][backend] = dir / (backend + ".so");
    run_build_step({"clang-14", "-shared", "-fPIC", "-O1", define, source("extension.cpp"), "-o",
                    builds.backend_shim["linux"][backend].string()},
                   failure);
    builds.backend_shim["macos"][backend] = dir / (backend + "-arm64.so");
    run_build_step({"clang-14", "--target=arm64-apple-macos11", "-O1", define, "-c", source("extension.cpp"), "-o",
                    out(backend + "-arm64.o")},
                   failure);
    run_build_step({"ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-bundle",
                    "-undefined", "dynamic_lookup", out(backend + "-arm64.o"), out("libtorch_cpu-arm64.dylib"),
                    out("libSystem-arm64.dylib"), "-o", builds.backend_shim["macos"][backend].string()},
                   failure);
  }

  builds.macho_stable_universal = dir / "extension.cpython-312-darwin.so";
  run_build_step({"llvm-lipo-14", "-create", out("stable-arm64.so"), out("stable-x86_64.so"), "-output",
                  builds.macho_stable_universal.string()},
                 failure);
  builds.macho_unstable = dir / "unstable-arm64.so";

  // Windows: import libraries from the .def files, then the extension as a DLL importing from them.
  for (const char* library : {"torch_cpu", "c10"}) {
    run_build_step({"llvm-dlltool-14", "-m", "i386:x86-64", "-d", (kSources / (std::string(library) + ".def")).string(),
                    "-l", out(std::string(library) + ".lib")},
                   failure);
  }
  for (const bool unstable : {false, true}) {
    std::string name = unstable ? "unstable" : "stable";
    std::vector<std::string> compile = {
        "clang-14", "--target=x86_64-pc-windows-msvc", "-O1", "-c", source("extension.cpp"), "-o", out(name + ".obj")};
    if (unstable) compile.push_back("-DUSES_UNSTABLE_C10");
    run_build_step(compile, failure);
    run_build_step({"lld-link-14", "/dll", "/noentry", "/nodefaultlib", "/out:" + out(name + ".pyd"),
                    out(name + ".obj"), out("torch_cpu.lib"), out("c10.lib")},
                   failure);
  }
  builds.pe_stable = dir / "stable.pyd";
  builds.pe_unstable = dir / "unstable.pyd";

  // One wheel holding every platform's build (as a fat source distribution of binaries would).
  builds.wheel = dir / "multi-0.1-py3-none-any.whl";
  run_build_step({"python3", "-c",
                  "import sys, zipfile\n"
                  "with zipfile.ZipFile(sys.argv[1], 'w') as w:\n"
                  "    w.write(sys.argv[2], 'multi/_C.so'); w.write(sys.argv[3], 'multi/_C.pyd'); w.write(sys.argv[4], "
                  "'multi/_C.abi3.so')\n"
                  "    w.writestr('multi-0.1.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: multi\\nVersion: "
                  "0.1\\nRequires-Dist: torch>=2.10\\n')\n",
                  builds.wheel.string(), builds.macho_stable_universal.string(), builds.pe_stable.string(),
                  builds.elf_stable.string()},
                 failure);
  return builds;
}

class PlatformAudit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { builds_ = new PlatformBuilds(build_platforms()); }
  static void TearDownTestSuite() {
    delete builds_;
    builds_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(builds_->failure.empty()) << builds_->failure; }
  static PlatformBuilds* builds_;
};
PlatformBuilds* PlatformAudit::builds_ = nullptr;

std::map<std::string, std::string> shim_libraries(const nlohmann::json& binary) {
  std::map<std::string, std::string> libraries;
  for (const auto& shim : binary["shim_symbols"]) libraries[shim["name"]] = shim["library"];
  return libraries;
}

TEST_F(PlatformAudit, MachOAndPeAgreeWithElfOnVerdictAndMinimumTorch) {
  AuditRun elf = run_audit_json({builds_->elf_stable.string()});
  AuditRun macho = run_audit_json({builds_->macho_stable_universal.string()});
  AuditRun pe = run_audit_json({builds_->pe_stable.string()});
  ASSERT_EQ(elf.report["binaries"].size(), 1u) << elf.output;
  EXPECT_EQ(elf.report["binaries"][0]["verdict"], "stable");
  EXPECT_EQ(elf.report["binaries"][0]["min_torch"], "2.10");
  // The universal binary is one object per architecture.
  ASSERT_EQ(macho.report["binaries"].size(), 2u) << macho.output;
  std::set<std::string> machines;
  for (const auto& binary : macho.report["binaries"]) {
    machines.insert(binary["machine"]);
    EXPECT_EQ(binary["format"], "mach-o");
    EXPECT_EQ(binary["platform"], "macos");
    EXPECT_EQ(binary["verdict"], "stable") << macho.output;
    EXPECT_EQ(binary["min_torch"], "2.10");
    EXPECT_EQ(shim_libraries(binary),
              (std::map<std::string, std::string>{{"aoti_torch_empty_strided", "libtorch_cpu.dylib"},
                                                  {"torch_call_dispatcher", "libtorch_cpu.dylib"}}));
  }
  EXPECT_EQ(machines, (std::set<std::string>{"AArch64", "x86-64"}));
  EXPECT_TRUE(macho.report["binaries"][0]["path"].get<std::string>().ends_with("[arm64]"));
  ASSERT_EQ(pe.report["binaries"].size(), 1u) << pe.output;
  const auto& windows = pe.report["binaries"][0];
  EXPECT_EQ(windows["platform"], "windows");
  EXPECT_EQ(windows["machine"], "x86-64");
  EXPECT_EQ(windows["verdict"], "stable") << pe.output;
  EXPECT_EQ(windows["min_torch"], "2.10");
  EXPECT_EQ(windows["needed"], nlohmann::json::array({"torch_cpu.dll"}));  // the linker drops the unused c10.dll
  EXPECT_EQ(shim_libraries(windows), (std::map<std::string, std::string>{{"aoti_torch_empty_strided", "torch_cpu.dll"},
                                                                         {"torch_call_dispatcher", "torch_cpu.dll"}}));
}

TEST_F(PlatformAudit, UnstableCxxImportsAreFoundByDylibOrdinalAndByDll) {
  AuditRun macho = run_audit_json({builds_->macho_unstable.string()});
  EXPECT_EQ(macho.exit_code, 1) << macho.output;
  const auto& mac = macho.report["binaries"][0];
  EXPECT_EQ(mac["verdict"], "unstable");
  ASSERT_EQ(mac["unstable_symbols"].size(), 1u) << macho.output;
  EXPECT_EQ(mac["unstable_symbols"][0]["name"], "_ZN3c106detail14torchCheckFailEPKcS2_jS2_");
  EXPECT_EQ(mac["unstable_symbols"][0]["namespace"], "c10");
  EXPECT_EQ(mac["unstable_symbols"][0]["library"], "libc10.dylib");

  AuditRun pe = run_audit_json({builds_->pe_unstable.string()});
  EXPECT_EQ(pe.exit_code, 1) << pe.output;
  const auto& windows = pe.report["binaries"][0];
  EXPECT_EQ(windows["verdict"], "unstable");
  ASSERT_EQ(windows["unstable_symbols"].size(), 1u) << pe.output;
  EXPECT_EQ(windows["unstable_symbols"][0]["name"], "?torchCheckFail@detail@c10@@YAXPEBD0I0@Z");
  EXPECT_EQ(windows["unstable_symbols"][0]["demangled"],
            "c10::detail::torchCheckFail(char const *, char const *, unsigned int, char const *)");
  EXPECT_EQ(windows["unstable_symbols"][0]["namespace"], "c10");
  EXPECT_EQ(windows["unstable_symbols"][0]["library"], "c10.dll");
}

TEST_F(PlatformAudit, AWheelWithSeveralPlatformsReportsEach) {
  AuditRun run = run_audit_json({builds_->wheel.string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::multiset<std::string> platforms;
  for (const auto& binary : run.report["binaries"]) {
    platforms.insert(binary["platform"]);
    EXPECT_EQ(binary["verdict"], "stable") << binary.dump(2);
    EXPECT_EQ(binary["declared_target"], "2.10");
  }
  EXPECT_EQ(platforms, (std::multiset<std::string>{"linux", "macos", "macos", "windows"}));
  ASSERT_EQ(run.report["wheels"].size(), 1u);
  EXPECT_EQ(run.report["wheels"][0]["objects"], 4);
  EXPECT_EQ(run.report["wheels"][0]["min_torch"], "2.10");
}

// Each platform's torch exports its own shims (shim_decls/<release>/exports.macos.json beside Linux's
// exports.json): an object importing one its platform's torch lacks loads into no release of that
// platform, while the same import loads on the platform that has it.
TEST_F(PlatformAudit, AShimThePlatformsTorchDoesNotExportBlocksLoadingThere) {
  ShimCatalog catalog = ShimCatalog::load_directory(project_baselines_dir());
  const std::map<std::string, std::string> refused_on = {{"onednn", "macos"}, {"mps", "linux"}};
  for (const auto& [platform, builds] : builds_->backend_shim) {
    for (const auto& [backend, binary] : builds) {
      SCOPED_TRACE(platform + " / " + backend);
      MappedFile file(binary);
      std::vector<ObjectAudit> objects = audit_binary_image(file.bytes(), binary.string(), catalog, {}, false);
      ASSERT_EQ(objects.size(), 1u);
      EXPECT_EQ(objects[0].verdict, AuditVerdict::Stable);
      for (const std::string release : {"2.10", "2.15"}) {
        ReleaseLoad load = assess_release_load(objects[0], StoredRelease{.version = TorchVersion::parse(release)});
        std::string refusal = fmt::format("torch {} for {} does not export {}", release,
                                          platform == "macos" ? "macOS" : "Linux", kBackendShims.at(backend));
        bool refused = refused_on.at(backend) == platform;
        EXPECT_EQ(load.loads(), !refused) << fmt::format("{}", fmt::join(load.torch_misfits, "; "));
        EXPECT_EQ(std::ranges::count(load.torch_misfits, refusal), refused ? 1 : 0)
            << fmt::format("{}", fmt::join(load.torch_misfits, "; "));
      }
    }
  }
}

}  // namespace
}  // namespace abicheck::testing

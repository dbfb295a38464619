// The project's reference kernels (kernels/), built for real by the matrix's own KernelBuilder from
// matrix/default.toml against the torch store at every target 2.9 ... 2.15, and audited by the CLI:
// each build is stable, needs exactly its target group to load, and declares that target through
// its embedded marker (kernels/include/abiref/target_marker.h). The negative control must come out
// unstable with its c10 and at imports. Builds share the matrix integration tests' cache in the
// build tree (same keys), so a re-run audits without compiling.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "audit/audit_fixture_support.h"
#include "core/project_paths.h"
#include "matrix/kernel_build.h"
#include "matrix/matrix_spec.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kBuildCache = fs::path(TORCH_ABI_CHECK_CLI).parent_path() / "matrix-test-cache";

struct ReferenceBuild {
  Backend backend;
  std::string build;   // a store version, or "newest"
  std::string target;  // "2.9" ... "2.15"
};

std::string build_name(const ReferenceBuild& build) {
  std::string name = fmt::format("{}_build_{}_target_{}", backend_name(build.backend), build.build, build.target);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

void PrintTo(const ReferenceBuild& build, std::ostream* stream) { *stream << build_name(build); }

const SuiteSpec& suite_named(const MatrixSpec& spec, const std::string& name) {
  for (const auto& suite : spec.suites) {
    if (suite.name == name) return suite;
  }
  throw std::runtime_error("matrix/default.toml has no suite " + name);
}

// Builds one library of `suite` with the default matrix's settings; skips the test when the store
// lacks the release or the backend's compiler is missing.
fs::path build_library(const std::string& suite_name, Backend backend, const std::string& build_version,
                       const std::string& target) {
  static const MatrixSpec spec = load_matrix_spec(project_root() / "matrix" / "default.toml");
  ReleaseStore store(ReleaseStore::default_root());
  if (store.releases().empty()) return {};
  auto release = build_version == "newest" ? std::optional(store.releases().back()) : store.find(build_version);
  if (!release) return {};
  const TorchVersion target_version = TorchVersion::parse(target);
  if (target_version > release->version.minor_release()) return {};
  KernelBuilder builder(testing::with_shared_builds(kBuildCache), spec, false);
  BuildRecord record = builder.build({&suite_named(spec, suite_name), backend, *release, target_version});
  if (record.status.kind == BuildStatus::Kind::Unavailable) return {};
  EXPECT_EQ(record.status.kind, BuildStatus::Kind::Built) << record.status.detail << "\n" << record.log;
  return record.library;
}

class ReferenceKernelAudit : public ::testing::TestWithParam<ReferenceBuild> {};

TEST_P(ReferenceKernelAudit, IsStableAndNeedsExactlyItsTarget) {
  const ReferenceBuild& build = GetParam();
  fs::path library = build_library("abiref", build.backend, build.build, build.target);
  if (library.empty()) GTEST_SKIP() << "store release, target or compiler not available for " << build_name(build);
  ASSERT_TRUE(fs::exists(library));

  AuditRun run = run_audit_json({library.string()});
  ASSERT_TRUE(run.report.is_object()) << run.output;
  ASSERT_EQ(run.report["binaries"].size(), 1u) << run.output;
  const auto& binary = run.report["binaries"][0];
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(binary["verdict"], "stable") << run.output;
  EXPECT_TRUE(binary["unstable_symbols"].empty()) << run.output;
  EXPECT_EQ(binary["min_torch_to_load"], build.target) << run.output;
  EXPECT_EQ(binary["declared_target"], build.target) << run.output;
  EXPECT_TRUE(binary["declared_target_source"].get<std::string>().starts_with("marker torch-abi-check:target="))
      << run.output;
}

// Every target 2.9 ... 2.15 built with the newest headers, 2.9 also with its own headers (which
// know no TORCH_TARGET_VERSION: the marker header's fallback), and the GPU
// backends (CUDA with nvcc, ROCm with hipcc) at both ends.
INSTANTIATE_TEST_SUITE_P(
    Targets, ReferenceKernelAudit,
    ::testing::Values(ReferenceBuild{Backend::Cpu, "2.9", "2.9"}, ReferenceBuild{Backend::Cpu, "newest", "2.9"},
                      ReferenceBuild{Backend::Cpu, "newest", "2.10"}, ReferenceBuild{Backend::Cpu, "newest", "2.11"},
                      ReferenceBuild{Backend::Cpu, "newest", "2.12"}, ReferenceBuild{Backend::Cpu, "newest", "2.13"},
                      ReferenceBuild{Backend::Cpu, "newest", "2.14"}, ReferenceBuild{Backend::Cpu, "newest", "2.15"},
                      ReferenceBuild{Backend::Cuda, "newest", "2.9"}, ReferenceBuild{Backend::Cuda, "newest", "2.15"},
                      ReferenceBuild{Backend::Rocm, "newest", "2.9"}, ReferenceBuild{Backend::Rocm, "newest", "2.15"}),
    [](const auto& info) { return build_name(info.param); });

TEST(ReferenceKernelAudit, NegativeControlIsUnstableWithItsC10AndAtImports) {
  fs::path library = build_library("negative-control", Backend::Cpu, "2.9", "2.9");
  if (library.empty()) GTEST_SKIP() << "torch 2.9 is not in the store";
  ASSERT_TRUE(fs::exists(library));

  AuditRun run = run_audit_json({library.string()});
  ASSERT_TRUE(run.report.is_object()) << run.output;
  const auto& binary = run.report["binaries"][0];
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(binary["verdict"], "unstable") << run.output;
  std::set<std::string> namespaces;
  for (const auto& symbol : binary["unstable_symbols"]) namespaces.insert(symbol["namespace"].get<std::string>());
  EXPECT_TRUE(namespaces.contains("c10")) << run.output;
  EXPECT_TRUE(namespaces.contains("at")) << run.output;
}

}  // namespace
}  // namespace abicheck::testing

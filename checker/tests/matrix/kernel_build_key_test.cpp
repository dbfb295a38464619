// A kernel build's cache key names what the build depends on, not where the checkout lies: two
// checkouts of the same tree in different folders (a developer's and CI's clone) get the same key and
// share their builds; a file the build does not read changes nothing; a changed source gives another
// key.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "core/scoped_temp_dir.h"
#include "matrix/kernel_build.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Points project_root() (TORCH_ABI_CHECK_HOME) at a checkout while it lives.
class ScopedCheckout {
 public:
  explicit ScopedCheckout(const fs::path& root) {
    if (const char* before = std::getenv("TORCH_ABI_CHECK_HOME")) previous_ = before;
    ::setenv("TORCH_ABI_CHECK_HOME", root.c_str(), 1);
  }
  ~ScopedCheckout() {
    if (previous_) ::setenv("TORCH_ABI_CHECK_HOME", previous_->c_str(), 1);
    else ::unsetenv("TORCH_ABI_CHECK_HOME");
  }
  ScopedCheckout(const ScopedCheckout&) = delete;
  ScopedCheckout& operator=(const ScopedCheckout&) = delete;

 private:
  std::optional<std::string> previous_;
};

// The key of the reference suite's CPU build at 2.15 for target 2.9, in a copy of the project's
// kernels/ at `checkout`.
std::string key_in(const fs::path& checkout, const fs::path& headers) {
  ScopedCheckout scoped(checkout);
  MatrixSpec spec;
  spec.suites.push_back({.name = "abiref", .sources = checkout / "kernels", .backends = {Backend::Cpu}});
  StoredRelease release{.version = TorchVersion::parse("2.15.0"), .include_dir = headers};
  KernelBuilder builder(checkout / "cache", spec, false);
  return builder.key({&spec.suites.front(), Backend::Cpu, release, TorchVersion::parse("2.9")});
}

TEST(KernelBuildKey, IsTheSameForAnIdenticalCheckoutElsewhereAndChangesWithASource) {
  ScopedTempDir scratch("kernel-build-key");
  const fs::path headers = scratch.path() / "include";
  fs::create_directories(headers);
  const fs::path kernels = fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path() / "kernels";
  for (const char* checkout : {"mine", "ci-clone"}) {
    fs::create_directories(scratch.path() / checkout);
    fs::copy(kernels, scratch.path() / checkout / "kernels", fs::copy_options::recursive);
  }
  const std::string mine = key_in(scratch.path() / "mine", headers);
  EXPECT_EQ(key_in(scratch.path() / "ci-clone", headers), mine);

  // What the build does not read: the suite's tests and the AOTInductor models beside it.
  std::ofstream(scratch.path() / "ci-clone" / "kernels" / "tests" / "test_added.py") << "\n";
  fs::create_directories(scratch.path() / "ci-clone" / "kernels" / "aoti");
  std::ofstream(scratch.path() / "ci-clone" / "kernels" / "aoti" / "added_model.py") << "\n";
  EXPECT_EQ(key_in(scratch.path() / "ci-clone", headers), mine);

  // One byte more in a shared header of the clone: another build.
  std::ofstream(scratch.path() / "ci-clone" / "kernels" / "include" / "abiref" / "added.h") << "\n";
  EXPECT_NE(key_in(scratch.path() / "ci-clone", headers), mine);
}

}  // namespace
}  // namespace abicheck

// What a package's own Python decides at import (audit/import_time_checks.h), on the shapes real
// wheels use: featomic-torch 0.7.6's copy per torch minor, zentorch 2.14.0.1's torch version check
// (abridged from their files).
#include "audit/import_time_checks.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(ImportTimeChecks, ACopyIsForTheReleaseItsDirectoryNames) {
  EXPECT_EQ(release_of_copy("featomic/torch/torch-2.10/lib/libfeatomic_torch.so"), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(release_of_copy("torch-2.3/lib/libx.so"), (TorchVersion{2, 3, 0}));
  EXPECT_EQ(release_of_copy("featomic/torch/lib/libfeatomic_torch.so"), std::nullopt);
  EXPECT_EQ(release_of_copy("pkg/mytorch-2.10/lib.so"), std::nullopt);
  EXPECT_EQ(release_of_copy("pkg/torch-2.10.so"), std::nullopt);
  EXPECT_EQ(copy_family("featomic/torch/torch-2.10/lib/libfeatomic_torch.so"),
            "featomic/torch/torch-*/lib/libfeatomic_torch.so");
  EXPECT_EQ(copy_family("featomic/torch/torch-2.3/lib/libfeatomic_torch.so"),
            copy_family("featomic/torch/torch-2.14/lib/libfeatomic_torch.so"));
}

TEST(ImportTimeChecks, APackageThatFormatsTheDirectoryOfTheRunningTorchPicksACopy) {
  EXPECT_TRUE(picks_copy_per_release(R"(
def _lib_path():
    torch_version = parse_version(torch.__version__)
    install_prefix = os.path.join(
        _HERE, f"torch-{torch_version.major}.{torch_version.minor}"
    )
)"));
  EXPECT_TRUE(picks_copy_per_release("prefix = 'torch-' + '.'.join(torch.__version__.split('.')[:2])\n"));
  EXPECT_TRUE(picks_copy_per_release("prefix = \"torch-{}\".format(minor)\n"));
  EXPECT_FALSE(picks_copy_per_release("import torch\nlib = os.path.join(_HERE, 'lib', 'libx.so')\n"));
  EXPECT_FALSE(picks_copy_per_release("# see https://example.org/torch-2.10/notes\n"));
}

TEST(ImportTimeChecks, TheTorchABuildRecordsIsReadFromALiteral) {
  auto recorded = torch_build_recorded_in(
      "# Auto-generated build information - DO NOT EDIT\n__version__ = \"2.14.0.1\"\n"
      "__torchversion__ = \"2.14.0+cpu\"\n");
  ASSERT_TRUE(recorded);
  EXPECT_EQ(recorded->version, (TorchVersion{2, 14, 0}));
  EXPECT_EQ(recorded->line, "__torchversion__ = \"2.14.0+cpu\"");
  EXPECT_EQ(torch_build_recorded_in("TORCH_VERSION = '2.9'\n")->version, (TorchVersion{2, 9, 0}));
  EXPECT_EQ(torch_build_recorded_in("torch_version = parse_version(torch.__version__)\n"), std::nullopt);
  EXPECT_EQ(torch_build_recorded_in("    __torchversion__ = '2.14.0'\n"), std::nullopt) << "indented: not a record";
  EXPECT_EQ(torch_build_recorded_in("BUILD_FEATOMIC_VERSION = '0.6.7'\n"), std::nullopt);
}

TEST(ImportTimeChecks, APackageThatRefusesAnotherTorchVersionIsFound) {
  EXPECT_TRUE(refuses_other_torch_version(R"(
from ._build_info import __torchversion__ as buildtime_torchversion
from torch.torch_version import __version__ as runtime_torchversion
if not __stable_abi_only__:
    ctypes.CDLL(_lib_path, mode=os.RTLD_GLOBAL | os.RTLD_NOW)
else:
    raise ImportError(
        f"Incompatible PyTorch version {runtime_torchversion} detected. "
        f"The installed zentorch binary is only compatible "
        f"with PyTorch versions {_buildtime_minor}.x"
    )
)"));
  // A message about something else, or no reading of the running torch's version: no check.
  EXPECT_FALSE(refuses_other_torch_version(R"(
torch_version = parse_version(torch.__version__)
raise ImportError(f"Trying to load featomic-torch with featomic v{featomic.__version__}, which is not ABI compatible")
)"));
  EXPECT_FALSE(refuses_other_torch_version("raise ImportError('Incompatible PyTorch version')\n"));
}

}  // namespace
}  // namespace abicheck

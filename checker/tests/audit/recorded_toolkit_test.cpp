// Where a wheel records the toolkit it was built with (audit/recorded_toolkit.h), on the shapes real
// wheels use: torchvision's and torchaudio's version.py, xformers' cpp_lib.json, torch's own version.py.
#include "audit/recorded_toolkit.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(RecordedToolkit, ReadsTheLocalLabelOfAVersionPy) {
  auto recorded = toolkit_recorded_in("torchvision/version.py",
                                      "__version__ = '0.29.2+cu132'\nfrom torchvision.extension import "
                                      "_check_cuda_version\nif _check_cuda_version() > 0:\n    cuda = "
                                      "_check_cuda_version()\n");
  ASSERT_TRUE(recorded);
  EXPECT_EQ(recorded->version.to_string(), "CUDA 13.2");
  EXPECT_EQ(recorded->source, "torchvision/version.py: __version__ = '0.29.2+cu132'");
}

TEST(RecordedToolkit, PrefersALiteralCudaAssignment) {
  auto recorded = toolkit_recorded_in("torch/version.py", "__version__ = '2.9.1'\ncuda: Optional[str] = '12.8'\n");
  ASSERT_TRUE(recorded);
  EXPECT_EQ(recorded->version.to_string(), "CUDA 12.8");
  auto hip = toolkit_recorded_in("torch/version.py", "cuda: Optional[str] = None\nhip = '6.4.43482-0f2d60242'\n");
  ASSERT_TRUE(hip);
  EXPECT_EQ(hip->version.to_string(), "ROCm 6.4");
}

TEST(RecordedToolkit, ReadsANumericCudaVersionFromBuildInfoJson) {
  auto recorded = toolkit_recorded_in("xformers/cpp_lib.json", R"({"version": {"cuda": 1208, "hip": null}})");
  ASSERT_TRUE(recorded);
  EXPECT_EQ(recorded->version.to_string(), "CUDA 12.8");
  EXPECT_EQ(toolkit_recorded_in("x/cpp_lib.json", R"({"version": {"cuda": 13020}})")->version.to_string(), "CUDA 13.2");
}

TEST(RecordedToolkit, NothingForACpuPackage) {
  EXPECT_EQ(toolkit_recorded_in("pkg/version.py", "__version__ = '1.0.0+cpu'\n"), std::nullopt);
  EXPECT_EQ(toolkit_recorded_in("pkg/version.py", "__version__ = '1.0.0'\n"), std::nullopt);
}

TEST(RecordedToolkit, ReadsTheMajorOfAnNvidiaRuntimeRequirement) {
  auto required = toolkit_required_by("nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\"");
  ASSERT_TRUE(required);
  EXPECT_EQ(required->version.to_string(), "CUDA 12");
  EXPECT_EQ(toolkit_required_by("numpy>=1.0"), std::nullopt);
}

TEST(RecordedToolkit, OnlyTopLevelVersionFilesAreRead) {
  EXPECT_TRUE(may_record_toolkit("torchvision/version.py"));
  EXPECT_TRUE(may_record_toolkit("xformers/cpp_lib.json"));
  EXPECT_FALSE(may_record_toolkit("torchvision/io/version.py"));
  EXPECT_FALSE(may_record_toolkit("version.py"));
}

// The two shapes of a package's own CUDA check at import, as torchaudio 2.11 and torchvision 0.24 write
// them (abridged): one compares major.minor strings, the other majors only.
TEST(RecordedToolkit, APackagesImportCheckOfTheCudaMinorIsFoundInItsSource) {
  EXPECT_TRUE(refuses_other_cuda_minor(R"(
def _check_cuda_version():
    version = torch.ops._torchaudio.cuda_version()
    if version is not None and torch.version.cuda is not None:
        version_str = str(version)
        ta_version = f"{version_str[:-3]}.{version_str[-2]}"
        t_version = torch.version.cuda.split(".")
        t_version = f"{t_version[0]}.{t_version[1]}"
        if ta_version != t_version:
            raise RuntimeError(
                "Detected that PyTorch and TorchAudio were compiled with different CUDA versions. "
            )
)"));
  EXPECT_FALSE(refuses_other_cuda_minor(R"(
    from torch.version import cuda as torch_version_cuda
    if _version != -1 and torch_version_cuda is not None:
        t_version = torch_version_cuda.split(".")
        t_major = int(t_version[0])
        t_minor = int(t_version[1])
        if t_major != tv_major:
            raise RuntimeError(
                "Detected that PyTorch and torchvision were compiled with different CUDA major versions. "
            )
)"));
  // A message alone, without reading torch's CUDA version, is no check.
  EXPECT_FALSE(refuses_other_cuda_minor("raise RuntimeError('compiled with different CUDA versions')\n"));
}

}  // namespace
}  // namespace abicheck

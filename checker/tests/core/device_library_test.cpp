// Sonames and toolkit versions as the store and the audit both read them (core/device_library.h).
#include "core/device_library.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(DeviceLibrary, ReadsFamilyToolkitAndMajorFromASoname) {
  auto cudart = parse_device_library("libcudart.so.12");
  ASSERT_TRUE(cudart);
  EXPECT_EQ(cudart->family, "cudart");
  EXPECT_EQ(cudart->toolkit, DeviceToolkit::Cuda);
  EXPECT_EQ(cudart->major, 12);
  EXPECT_TRUE(cudart->tracks_toolkit_major);
  EXPECT_FALSE(cudart->bundled_copy);

  auto cudnn = parse_device_library("libcudnn_graph.so.9");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->family, "cudnn");
  EXPECT_FALSE(cudnn->tracks_toolkit_major);

  auto hip = parse_device_library("libamdhip64.so.6");
  ASSERT_TRUE(hip);
  EXPECT_EQ(hip->toolkit, DeviceToolkit::Rocm);
  EXPECT_EQ(hip->major, 6);

  EXPECT_EQ(parse_device_library("libnvrtc-builtins.so.13.0"), std::nullopt);
  EXPECT_EQ(parse_device_library("libcublasLt.so.13")->family, "cublasLt");
  EXPECT_EQ(parse_device_library("libnccl.so.2.27.3")->major, 2);
  EXPECT_EQ(parse_device_library("libamdhip64.so")->major, std::nullopt);
}

TEST(DeviceLibrary, AnAuditwheelCopyIsMarkedBundled) {
  // torchvision's wheel carries torchvision.libs/libcudart.e8e8b82a.so.12 and NEEDs it by that name.
  auto copy = parse_device_library("libcudart.e8e8b82a.so.12");
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->family, "cudart");
  EXPECT_EQ(copy->major, 12);
  EXPECT_TRUE(copy->bundled_copy);
}

TEST(DeviceLibrary, LeavesOutTheDriverTorchAndOtherLibraries) {
  for (const char* soname : {"libcuda.so.1", "libc10_cuda.so", "libtorch_cuda.so", "libc.so.6", "libjpeg.so.8"}) {
    EXPECT_EQ(parse_device_library(soname), std::nullopt) << soname;
  }
}

TEST(DeviceToolkitVersion, ReadsLocalVersionLabels) {
  EXPECT_EQ(toolkit_of_local_version("0.29.2+cu132"), (DeviceToolkitVersion{DeviceToolkit::Cuda, 13, 2}));
  EXPECT_EQ(toolkit_of_local_version("2.9.1+cu128"), (DeviceToolkitVersion{DeviceToolkit::Cuda, 12, 8}));
  EXPECT_EQ(toolkit_of_local_version("2.9.1+rocm6.4"), (DeviceToolkitVersion{DeviceToolkit::Rocm, 6, 4}));
  EXPECT_EQ(toolkit_of_local_version("2.9.1+cpu"), std::nullopt);
  EXPECT_EQ(toolkit_of_local_version("2.9.1"), std::nullopt);
  EXPECT_EQ(parse_toolkit_version(DeviceToolkit::Cuda, "13.0")->to_string(), "CUDA 13.0");
  EXPECT_EQ(parse_toolkit_version(DeviceToolkit::Cuda, "None"), std::nullopt);
}

}  // namespace
}  // namespace abicheck

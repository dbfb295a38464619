#include "core/wheel_file_name.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(WheelFileName, ReadsTheFiveFieldsAndKeepsTheLocalVersion) {
  EXPECT_EQ(parse_wheel_file_name("torch-2.11.0+cu130-cp311-cp311-manylinux_2_28_x86_64.whl"),
            (WheelFileName{.distribution = "torch",
                           .version = "2.11.0+cu130",
                           .python = "cp311",
                           .abi = "cp311",
                           .platform = "manylinux_2_28_x86_64"}));
}

TEST(WheelFileName, ABuildTagSitsBetweenVersionAndPython) {
  EXPECT_EQ(parse_wheel_file_name("xformers-0.0.35-1-cp39-abi3-macosx_11_0_arm64.whl"),
            (WheelFileName{.distribution = "xformers",
                           .version = "0.0.35",
                           .python = "cp39",
                           .abi = "abi3",
                           .platform = "macosx_11_0_arm64"}));
}

TEST(WheelFileName, OtherNamesAreNotWheels) {
  EXPECT_FALSE(parse_wheel_file_name("torch-2.11.0-cp311-cp311-linux_x86_64.zip"));
  EXPECT_FALSE(parse_wheel_file_name("torch-2.11.0-linux_x86_64.whl"));
  EXPECT_FALSE(parse_wheel_file_name("a-b-c-d-e-f-g.whl"));
  EXPECT_FALSE(parse_wheel_file_name(".whl"));
}

}  // namespace
}  // namespace abicheck

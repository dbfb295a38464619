#include "core/torch_version.h"

#include <gtest/gtest.h>

#include "core/tool_error.h"

namespace abicheck {
namespace {

TEST(TorchVersion, AcceptsTheThreeSpellings) {
  EXPECT_EQ(TorchVersion::parse("2.10"), (TorchVersion{2, 10, 0}));
  EXPECT_EQ(TorchVersion::parse("2.10.1"), (TorchVersion{2, 10, 1}));
  EXPECT_EQ(TorchVersion::parse("0x020A000000000000"), (TorchVersion{2, 10, 0}));
}

TEST(TorchVersion, EachComponentIsOneHexByte) {
  // The pitfall the primer warns about: 0x0210... is 2.16, not 2.10.
  EXPECT_EQ(TorchVersion::parse("0x0210000000000000").to_string(), "2.16");
  EXPECT_EQ(TorchVersion::parse("2.9").abi_value(), 0x0209000000000000ULL);
  EXPECT_EQ(TorchVersion::parse("2.15").to_abi_hex(), "0x020F000000000000");
}

TEST(TorchVersion, PrintsMajorMinorByDefault) {
  EXPECT_EQ(TorchVersion::parse("2.12.1").to_string(), "2.12");
  EXPECT_EQ(TorchVersion::parse("2.12.1").to_full_string(), "2.12.1");
}

TEST(TorchVersion, OrdersNumericallyNotLexically) {
  EXPECT_LT(TorchVersion::parse("2.9"), TorchVersion::parse("2.10"));
  EXPECT_LT(TorchVersion::parse("2.10.0"), TorchVersion::parse("2.10.1"));
}

TEST(TorchVersion, RejectsMalformedText) {
  for (const char* text : {"", "2", "2.", "2.x", "2.10.0.1", "v2.10", "0x", "0xZZ", "0x0209000000000001", "2.300"}) {
    EXPECT_FALSE(TorchVersion::try_parse(text).has_value()) << text;
  }
  EXPECT_THROW(TorchVersion::parse("ten"), ToolError);
}

}  // namespace
}  // namespace abicheck

#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace abicheck {

// A torch release version as the stable ABI encodes it: TORCH_ABI_VERSION and TORCH_TARGET_VERSION
// are major<<56 | minor<<48 | patch<<40 | a 40-bit tag that is always 0.
struct TorchVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  // Accepts "2.10", "2.10.0" and "0x020A000000000000"; throws ToolError naming the text otherwise.
  static TorchVersion parse(std::string_view text);
  static std::optional<TorchVersion> try_parse(std::string_view text);
  // Decodes an ABI value; the tag bits must be zero.
  static std::optional<TorchVersion> from_abi_value(std::uint64_t value);

  std::uint64_t abi_value() const;
  // "2.10": how versions are always printed, since the stable ABI is versioned per minor release.
  std::string to_string() const;
  // "2.10.1": for naming an exact PyPI release.
  std::string to_full_string() const;
  // "0x020A000000000000": for -DTORCH_TARGET_VERSION=.
  std::string to_abi_hex() const;
  TorchVersion minor_release() const { return {major, minor, 0}; }

  auto operator<=>(const TorchVersion&) const = default;
};

// The oldest release whose headers this project understands (torch/headeronly and the generated
// shim arrived in 2.9), and the first that knows TORCH_TARGET_VERSION.
inline constexpr TorchVersion kOldestStableRelease{2, 9, 0};
inline constexpr TorchVersion kFirstTargetableRelease{2, 10, 0};

}  // namespace abicheck

#include "core/torch_version.h"

#include <fmt/format.h>

#include <charconv>

#include "core/tool_error.h"

namespace abicheck {
namespace {

std::optional<int> parse_component(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value > 255) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<TorchVersion> TorchVersion::from_abi_value(std::uint64_t value) {
  if ((value & 0xFF'FFFF'FFFFULL) != 0) return std::nullopt;
  return TorchVersion{static_cast<int>(value >> 56), static_cast<int>((value >> 48) & 0xFF),
                      static_cast<int>((value >> 40) & 0xFF)};
}

std::optional<TorchVersion> TorchVersion::try_parse(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("0X")) {
    std::string_view digits = text.substr(2);
    std::uint64_t value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
    if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
    return from_abi_value(value);
  }
  std::optional<int> parts[3];
  int count = 0;
  while (count < 3) {
    auto dot = text.find('.');
    parts[count++] = parse_component(text.substr(0, dot));
    if (!parts[count - 1]) return std::nullopt;
    if (dot == std::string_view::npos) break;
    text.remove_prefix(dot + 1);
    if (count == 3) return std::nullopt;
  }
  if (count < 2) return std::nullopt;
  return TorchVersion{*parts[0], *parts[1], count == 3 ? *parts[2] : 0};
}

TorchVersion TorchVersion::parse(std::string_view text) {
  if (auto version = try_parse(text)) return *version;
  throw ToolError(fmt::format("'{}' is not a torch version (expected 2.10, 2.10.0 or 0x020A000000000000)", text));
}

std::uint64_t TorchVersion::abi_value() const {
  return static_cast<std::uint64_t>(major) << 56 | static_cast<std::uint64_t>(minor) << 48 |
         static_cast<std::uint64_t>(patch) << 40;
}

std::string TorchVersion::to_string() const { return fmt::format("{}.{}", major, minor); }

std::string TorchVersion::to_full_string() const { return fmt::format("{}.{}.{}", major, minor, patch); }

std::string TorchVersion::to_abi_hex() const { return fmt::format("0x{:016X}", abi_value()); }

}  // namespace abicheck

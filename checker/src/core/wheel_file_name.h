#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace abicheck {

// The fields of a wheel's file name, `name-version[-build]-python-abi-platform.whl` (PEP 427), as
// the audit (abi3, the CUDA of a `+cu130` local version) and `baseline --platform-wheel` (torch's
// release and platform) read them.
struct WheelFileName {
  std::string distribution;
  std::string version;  // as spelled, local part included ("2.11.0+cu130")
  std::string python;
  std::string abi;
  std::string platform;

  bool operator==(const WheelFileName&) const = default;
};

// None when `file_name` (no directory) is not `.whl` with five or six dash-separated fields.
std::optional<WheelFileName> parse_wheel_file_name(std::string_view file_name);

}  // namespace abicheck

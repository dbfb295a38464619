#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "baseline/library_exports.h"
#include "core/torch_version.h"

namespace abicheck {

// What torch for another platform exports of the C shim. The committed baselines record Linux's
// exports (exports.json); a platform whose published torch wheel exports other shims gets its own
// list beside them, exports.<platform>.json. Measured on every stored release: macOS's
// libtorch_cpu.dylib adds the MPS shims and lacks twelve oneDNN ones; Windows's torch_cpu.dll is
// identical to Linux's libtorch_cpu.so, so Windows has no file (docs/platforms.md).
// The platforms torch publishes wheels for, by the names the audit gives objects (audit/binary_imports.h).
inline constexpr std::string_view kPlatforms[] = {"linux", "macos", "windows"};

struct PlatformExports {
  std::string platform;  // "macos", "windows"
  TorchVersion release;  // from the wheel's file name
  std::string wheel;     // the wheel's file name, recorded as the list's source
  ShimExports exports;   // by library file name: "libtorch_cpu.dylib", "torch_cpu.dll"
};

// The file a platform's list is kept in: "exports.macos.json".
std::string platform_exports_file(std::string_view platform);

// Reads the shim libraries of a published torch wheel for macOS (torch/lib/libtorch_cpu.dylib,
// Mach-O) or Windows (torch/lib/torch_cpu.dll, PE) with LLVM's Object library. Throws ToolError
// naming the wheel when it is not a torch wheel for one of those platforms or its library is unreadable.
PlatformExports read_platform_wheel_exports(const std::filesystem::path& wheel);

// Whether the platform's CPU library exports the same shims as Linux's libtorch_cpu.so (library names
// aside). A platform whose list is the same needs no file: the audit reads exports.json for it.
bool same_as_linux_cpu(const ShimExports& platform, const ShimExports& linux_exports);

std::string platform_exports_to_json(const PlatformExports& exports);

}  // namespace abicheck

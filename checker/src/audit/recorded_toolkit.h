#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/device_library.h"

namespace abicheck {

// A toolkit version a package records about its own build, and where: the version a package can
// insist on at import (torchvision compares its CUDA with torch's), which its sonames may not show
// (a statically linked cudart leaves no NEEDED entry).
struct RecordedToolkit {
  DeviceToolkitVersion version;
  std::string source;  // "torchvision/version.py: __version__ = '0.29.2+cu132'"
  // The package's own Python file that refuses, at import, a torch whose CUDA major.minor differs from
  // the one it was built with ("torchaudio/_extension/utils.py"); "" when none was found.
  std::string minor_checked_by;
};

// From a package's version.py (`cuda = '12.8'`, `hip = '6.4…'`, or a local label in
// `__version__ = '0.29.2+cu132'`) or a build-info JSON such as xformers' cpp_lib.json
// (`"cuda": 1208`). `path` names the file for the source; nothing when the text records no toolkit.
std::optional<RecordedToolkit> toolkit_recorded_in(std::string_view path, std::string_view text);

// Whether a wheel entry is one of the files toolkit_recorded_in reads: <package>/version.py or
// <package>/cpp_lib.json, at the package's top level.
bool may_record_toolkit(std::string_view entry_name);

// Whether a package's Python source refuses, at import, a torch whose CUDA major.minor differs from
// its build's: it reads torch's CUDA version (`torch.version.cuda`, `from torch.version import
// cuda`) and raises an error saying it was "compiled with different CUDA versions", and the `if`
// guarding that raise does not compare majors only (torchvision's `if t_major != tv_major:` with
// "different CUDA major versions" does; torchaudio's `if ta_version != t_version:` compares
// "13.0" with "13.2"). Read from the source, never from a list of package names.
bool refuses_other_cuda_minor(std::string_view python_source);

// From a Requires-Dist line on an NVIDIA runtime wheel of one CUDA major (`nvidia-cuda-runtime-cu12`).
std::optional<RecordedToolkit> toolkit_required_by(std::string_view requirement);

}  // namespace abicheck

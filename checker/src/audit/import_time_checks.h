#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/python_imports.h"
#include "core/torch_version.h"

namespace abicheck {

// What a package's own Python decides about torch when it is imported, read from its source (never
// from a list of package names): which of several per-release copies of a library it loads, and
// whether it refuses a torch of another minor than the one it was built with. The CUDA minor check is
// recorded_toolkit.h's (refuses_other_cuda_minor).

// The torch major.minor a copy of a library is for, from a directory of its path named for it:
// "featomic/torch/torch-2.10/lib/libfeatomic_torch.so" -> 2.10. Nothing for a path without one.
std::optional<TorchVersion> release_of_copy(std::string_view path);

// The path with that directory's version replaced ("featomic/torch/torch-*/lib/libfeatomic_torch.so"):
// the copies of one library share it.
std::string copy_family(std::string_view path);

// Whether the source builds such a directory's name from the running torch's version, to load the
// copy for it: `f"torch-{torch_version.major}.{torch_version.minor}"`, `"torch-" + minor`,
// `"torch-{}".format(...)`, `"torch-%s" % ...`.
bool picks_copy_per_release(std::string_view python_source);

// The torch version a package's Python file records about its build: a literal assigned at the start
// of a line to a name that says torch and version (`__torchversion__ = "2.14.0+cpu"`,
// `TORCH_VERSION = '2.9.1'`, `built_torch_version = "2.10"`), as the source of a finding names it.
struct RecordedTorchBuild {
  TorchVersion version;
  std::string line;  // the assignment as written (shortened)
};
std::optional<RecordedTorchBuild> torch_build_recorded_in(std::string_view python_source);

// Whether the source refuses, at import, a running torch of another version: it reads the running
// torch's version (`torch.__version__`, `from torch.torch_version import __version__`,
// `torch.version.__version__`) and raises an error whose message says the "PyTorch version" or
// "torch version" is incompatible ("Incompatible PyTorch version 2.13.0 detected", "only compatible
// with torch version 2.14"). With the build's version it records (torch_build_recorded_in), the
// package refuses every release of another major.minor.
bool refuses_other_torch_version(std::string_view python_source);

// What a wheel's Python files decide at import, from the functions above: the first file of each.
struct ImportTimeChecks {
  // The file that loads, of several copies of a library in directories named for torch versions, the
  // one of the running torch (picks_copy_per_release); "" when none does.
  std::string release_copy_picked_by;
  // The torch version a file records about the build, and where ("zentorch/_build_info.py:
  // __torchversion__ = \"2.14.0+cpu\"").
  std::optional<TorchVersion> torch_built_with;
  std::string torch_built_with_source;
  // The file that refuses, at import, a torch of another version (refuses_other_torch_version).
  std::string torch_version_checked_by;
  // Each Python file's module-level imports (entry name -> module_level_imports), and the names of the
  // requirements the wheel declares (Requires-Dist, extras too: an extra is declared): what its import
  // reaches that nothing provides (python_imports.h).
  std::map<std::string, std::vector<PythonImport>> python_imports;
  std::vector<std::string> declared_requirements;

  // The torch major.minor the package insists on at import: its build's, where a file refuses others.
  std::optional<TorchVersion> insisted_minor() const {
    if (torch_version_checked_by.empty() || !torch_built_with) return std::nullopt;
    return torch_built_with->minor_release();
  }
};

}  // namespace abicheck

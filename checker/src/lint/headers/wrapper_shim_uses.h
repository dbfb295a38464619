#pragma once

#include <compare>
#include <filesystem>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "lint/lint_rule.h"

namespace abicheck {

// One use of a stable declaration by code of the header-only wrappers (torch/csrc/stable outside
// its C shim c/, torch/headeronly), as the front end saw it when the headers were compiled at one
// target: either it resolved to a C shim function, or the name was reported undeclared.
struct WrapperShimUse {
  std::string name;      // "torch_library_impl"; for an undeclared member, the member's name
  SourcePosition where;  // the use, in the tree's include dir
  TorchVersion target;
  bool with_backends = false;  // compiled with every backend define (kBackendDefines)
  bool declared = true;        // false: "use of undeclared identifier" (or another not-declared error)
  // The name is a token of a macro's body defined at this target: no compiler resolves it until an
  // extension expands the macro, so whether it names a shim (and is declared here) is the inventory's to say.
  bool in_macro = false;

  auto operator<=>(const WrapperShimUse&) const = default;
};

// Compiles one source that includes every stable header, function bodies included, at each target
// 2.9 … release (nothing before 2.10: those headers know no target), without and with the backend
// defines, and lists what the wrappers' code uses: calls and references that resolve to extern "C"
// functions of the stable trees, and not-declared errors located in the wrappers. Sorted, unique.
// The front end decides which code is active, so `&&` guards, nesting and #ifdef USE_CUDA count as
// the compiler counts them. A macro defined in a stable header at a target counts the identifiers
// of its body as uses there (`in_macro`), whether or not anything expands it.
std::vector<WrapperShimUse> collect_wrapper_shim_uses(const std::filesystem::path& include_dir, TorchVersion release,
                                                      unsigned jobs = 0);

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <set>

#include "lint/headers/header_rules.h"

namespace abicheck {

// Where the headers of a release are (its include dir in the store), or nothing when they are not at hand.
using ReleaseHeaderLocator = std::function<std::optional<std::filesystem::path>(TorchVersion)>;

// The C++ declarations (namespaced names: header-only enums, their constants, structs, aliases) that
// look new to the rules — first in a baseline newer than the oldest, or in no baseline — but that
// the release before already declared outside the stable trees: moved in, not added (2.10 moved
// c10::DeviceType, Layout and MemoryFormat from c10/core/ into torch/headeronly/core/). Where they
// came from is read off the candidate tree: the headers outside the stable trees that include the
// declaration's new header (c10/core/DeviceType.h now includes torch/headeronly/core/DeviceType.h);
// the same headers of the release before are parsed with libclang and searched for the name and kind.
std::set<DeclarationKey> find_moved_declarations(const HeaderLintInput& input,
                                                 const ReleaseHeaderLocator& headers_of_release);

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "diff/abi_change.h"

namespace abicheck {

// A known change accepted on purpose. The file is TOML:
//
//   [[suppress]]
//   name = "torch_from_blob"            # the declaration, exactly as the diff names it
//   kind = "signature-changed"          # optional: only this kind of change (default: any)
//   reason = "changed during 2.11 development, before any release shipped it"   # required
struct Suppression {
  std::string name;
  std::optional<ChangeKind> kind;
  std::string reason;
};

// Throws ToolError naming the file (and the entry) on bad TOML, a missing reason or an unknown kind.
std::vector<Suppression> load_suppressions(const std::filesystem::path& path);

// Marks each change a suppression matches with its reason, and adds one StaleSuppression change per
// suppression that matched nothing: an accepted change that no longer happens should be removed.
void apply_suppressions(const std::vector<Suppression>& suppressions, std::vector<AbiChange>& changes);

}  // namespace abicheck

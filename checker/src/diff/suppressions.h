#pragma once

#include <filesystem>
#include <vector>

#include "core/suppression_file.h"
#include "diff/abi_change.h"

namespace abicheck {

// Known changes accepted on purpose, in the one suppression format (docs/suppressions.md):
//
//   [[suppress]]
//   name = "torch_from_blob"            # the declaration, exactly as the diff names it
//   kind = "signature-changed"          # optional: only this kind of change (default: any)
//   reason = "changed during 2.11 development, before any release shipped it"   # required
//   expires = 2026-12-31                # optional: after this day it accepts nothing and is a finding
//
// Throws ToolError naming the file and line on bad TOML, a missing reason or an unknown kind.
SuppressionFile load_suppressions(const std::filesystem::path& path, CalendarDay today);

// Marks each change an unexpired suppression matches with its reason (and counts the match). The file's
// problems() then name the suppressions that matched nothing or expired.
void apply_suppressions(SuppressionFile& suppressions, std::vector<AbiChange>& changes);

}  // namespace abicheck

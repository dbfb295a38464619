#pragma once

#include <map>
#include <vector>

#include "baseline/release_baseline.h"
#include "diff/abi_change.h"
#include "inventory/declaration_pairing.h"

namespace abicheck {

// What the inventories and export lists of two baselines say changed: removals, additions (and
// whether an addition has the guard of its release), guard and backend moves, type and enum
// changes, exports that went away, and declarations NEW's libraries do not export. Signature
// changes of functions are compare_abi_models's (parameter names do not matter there). `first_shipped`: the
// release history's first release of each declaration (empty: unknown).
std::vector<AbiChange> compare_inventories(const ReleaseBaseline& old_baseline, const ReleaseBaseline& new_baseline,
                                           const std::map<DeclarationKey, TorchVersion>& first_shipped = {});

}  // namespace abicheck

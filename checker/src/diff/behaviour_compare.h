#pragma once

#include <vector>

#include "baseline/conversion_behaviour.h"
#include "diff/abi_change.h"

namespace abicheck {

// The changes of the boxed calling convention's inline conversions from `old_behaviour` to
// `new_behaviour`, named "from(<type> <value>)": the same value encoded into other bits or decoded into
// another value (conversion-changed), a value no longer converted (conversion-removed: gone from the
// probe, or refused now), a value newly converted (conversion-added); and each symbol of torch's
// namespaces the new probe extension exports and the old did not (wrapper-exported, named by its
// mangled name).
std::vector<AbiChange> compare_behaviour(const BehaviourBaseline& old_behaviour,
                                         const BehaviourBaseline& new_behaviour);

}  // namespace abicheck

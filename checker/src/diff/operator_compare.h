#pragma once

#include <vector>

#include "baseline/operator_schemas.h"
#include "diff/abi_change.h"

namespace abicheck {

// The operator schema changes from `old_schemas` to `new_schemas`, named by the operator
// (`aten::add.Tensor`; `aten::foo` when every overload went): removed operators and overloads
// (a removed overload whose schema reappears under another overload name is a rename), arguments
// added, removed or changed, returns and alias annotations changed, and additions. A breaking change
// to an operator for which the new release registers a schema adapter covering callers built against
// the old release is marked as accepted by that adapter (`suppressed_because`).
std::vector<AbiChange> compare_operator_schemas(const OperatorSchemas& old_schemas, const OperatorSchemas& new_schemas);

}  // namespace abicheck

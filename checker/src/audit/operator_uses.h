#pragma once

#include <optional>
#include <vector>

#include "audit/binary_audit.h"
#include "audit/binary_imports.h"
#include "baseline/operator_calls.h"
#include "core/torch_version.h"

namespace abicheck {

// Whether an object can hand an operator's name to the dispatcher: it imports, or looks up by name,
// the C shim's torch_call_dispatcher (aoti_torch_call_dispatcher), or imports a by-name lookup of
// libtorch's dispatcher (c10::Dispatcher::findSchema, findSchemaOrThrow, findOp). Without one, its
// operator-shaped strings go somewhere the dispatcher's baselines do not date: TorchScript's own
// operator registry (which has aten::dim and aten::numel on 2.9, the dispatcher only from 2.12), a
// graph pattern, a message. Such an object names no operator to the dispatcher (docs/operator-schemas.md).
bool reaches_dispatcher_by_name(const BinaryImports& imports);

// The operators an object names to the dispatcher: its read-only strings shaped like operator names
// that a release of `history` registers, each with the overloads it may call and the oldest release
// registering one of them. Sorted by name; breaks are left to judge_operator_uses.
std::vector<OperatorUse> find_operator_uses(const BinaryImports& imports, const OperatorHistory& history);

// Fills each use's breaks: the releases of `history` that the object claims (from `claimed_from`, the
// oldest release it claims; without one, from the oldest release registering the operator) on which the call fails
// whatever overload it is. Whatever torch it was built with, a schema that differs between two
// claimed releases, without an adapter, fails on one of them; the later one is named.
void judge_operator_uses(std::vector<OperatorUse>& uses, const OperatorHistory& history,
                         std::optional<TorchVersion> claimed_from);

}  // namespace abicheck

#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "baseline/operator_schemas.h"
#include "core/torch_version.h"

namespace abicheck {

// The operator baselines of the release history, by minor release (ReleaseHistory::operator_schemas).
using OperatorHistory = std::map<TorchVersion, OperatorSchemas>;

// What the history says about an operator called through the dispatcher by an extension built with
// one release: the judgement the extension lint (E011) and the audit share.

// `aten::foo` of `aten::foo.out`.
std::string operator_of(std::string_view qualified_name);

// Whether torch registers any operator in the namespace of `op` (`aten::` of `aten::foo`) in
// `release`: an operator of the extension's own namespace, or another library's, is not torch's to check.
bool registers_namespace(const OperatorSchemas& release, std::string_view op);

// Whether `release` registers a schema adapter for `op` that covers callers built with `built_with`.
bool adapter_covers(const OperatorSchemas& release, std::string_view op, TorchVersion built_with);

// The oldest release of the history that registers `qualified_name` at all.
std::optional<TorchVersion> first_registering_release(const OperatorHistory& history, std::string_view qualified_name);

// The oldest release from which every release up to `built_with` has the schema that `built_with`
// has: the minimum torch of a call built there. `built_with` when it does not register the operator.
TorchVersion schema_holds_since(const OperatorHistory& history, TorchVersion built_with,
                                std::string_view qualified_name);

// A release after the build on which a call's stack no longer fits.
struct OperatorBreak {
  TorchVersion release;
  const OperatorSchema* schema = nullptr;  // its schema there; null when it is not registered there

  std::string describe() const;  // "'aten::foo(Tensor self) -> Tensor'" or "not registered"
};

// The first release after `built_with` whose schema of `qualified_name` differs from the one at
// `built_with` (or that does not register it), and that registers no adapter covering callers built
// with `built_with`. Nullopt when every later release fits, or when `built_with` is not in the history.
std::optional<OperatorBreak> first_operator_break(const OperatorHistory& history, TorchVersion built_with,
                                                  std::string_view qualified_name);

}  // namespace abicheck

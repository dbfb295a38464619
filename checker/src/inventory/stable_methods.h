#pragma once

#include <clang-c/Index.h>

#include <optional>
#include <string>

#include "inventory/clang_translation_unit.h"
#include "inventory/shim_inventory.h"

namespace abicheck {

// "torch::stable::Tensor": the enclosing namespaces and classes of a declaration, outermost first.
std::string qualified_name(CXCursor cursor);

// The C++ that an extension calls in the stable headers themselves, as one Method declaration: a
// public member function, constructor or conversion of a class in a `torch::` namespace (torch::stable,
// its detail classes such as StableLibrary, whose def/impl the registration macros call, and
// torch::headeronly), or a free function of those namespaces outside `detail`; templates included.
// Deleted members, out-of-line definitions (the in-class declaration stands for them) and anything
// outside the stable trees are none (nullopt). `since` and `backend` are left to the caller.
//
// The name holds the parameters' types (canonical, top-level `const` dropped) and the method's
// qualifiers, so that overloads are separate declarations and a parameter renamed is no change:
// "torch::stable::Tensor::size(long) const", "torch::stable::Tensor::mutable_data_ptr<typename>() const".
// The ABI type is the result's canonical type with the same parameters, so a changed result is a
// changed signature of the same declaration; a changed parameter type is another declaration.
std::optional<ShimDeclaration> stable_method(const ClangTranslationUnit& unit, CXCursor cursor);

}  // namespace abicheck

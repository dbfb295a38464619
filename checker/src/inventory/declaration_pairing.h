#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inventory/shim_inventory.h"

namespace abicheck {

// One declaration across releases: the same name and kind (its header, line, guard and backend
// label may move, e.g. when 2.10 wrapped ATen/Config.h).
using DeclarationKey = std::pair<std::string, DeclarationKind>;
DeclarationKey key_of(const ShimDeclaration& declaration);

// Whether a declaration is part of the targeted surface: those only a build without any target sees
// (kUntargetedOnly) are not.
bool is_targeted(const ShimDeclaration& declaration);

// A signature with its whitespace made canonical, so that re-wrapping a declaration is not a change.
std::string normal_signature(std::string_view signature);

// Whether two declarations of one key have the same signature: for functions that both recorded,
// their ABI types (a renamed parameter, or int64_t written `long`, is no change); else the signatures
// up to whitespace.
bool same_signature(const ShimDeclaration& before, const ShimDeclaration& after);

// A function's parameter names by position, from its signature ("" for an unnamed parameter); empty
// for other kinds. What names a parameter is the header's own word for what it means: same-type
// parameters that swapped their names swapped their meanings for every caller built before.
std::vector<std::string> parameter_names(const ShimDeclaration& declaration);

// The declarations of two inventories paired by key: the one comparison of releases that the diff
// and the header rules share. Where an inventory holds a key twice (one per backend), its first
// declaration stands for it.
struct DeclarationPairing {
  std::vector<const ShimDeclaration*> removed;                                  // only in `before`
  std::vector<const ShimDeclaration*> added;                                    // only in `after`
  std::vector<std::pair<const ShimDeclaration*, const ShimDeclaration*>> kept;  // (before, after)
  // A method of `before` that is gone while `after` added an overload in its place (see
  // replacing_overload): (the one gone, the one added). Not in `removed`; the added one is in `added`.
  std::vector<std::pair<const ShimDeclaration*, const ShimDeclaration*>> replaced;
};

// The overload that took the place of a method that is gone: among `added`, a method of the same name
// (its key up to the parameter list) with as many parameters and the same result type, visible
// wherever the one gone was (its `since` no later, the same backend). The stable headers' C++ is
// compiled into the extension, so a binary built before keeps its own copy of the old overload; a
// source's call still compiles where its arguments convert to the new parameter types (2.10 replaced
// `std::vector<int64_t>` parameters of `amax`, `new_empty`, `new_zeros` and `pad` by
// `HeaderOnlyArrayRef<int64_t>`, which a vector and a braced list convert to); taking the old overload's
// address does not. Whether the arguments convert is not in an inventory: only a compile tells.
const ShimDeclaration* replacing_overload(const ShimDeclaration& removed,
                                          const std::vector<const ShimDeclaration*>& added);

// Only declarations for which `considered` holds take part (all when it is empty). The pointers
// point into the two inventories, which must outlive the pairing.
using DeclarationFilter = bool (*)(const ShimDeclaration&);
DeclarationPairing pair_declarations(const ShimInventory& before, const ShimInventory& after,
                                     DeclarationFilter considered = nullptr);

}  // namespace abicheck

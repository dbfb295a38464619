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
};

// Only declarations for which `considered` holds take part (all when it is empty). The pointers
// point into the two inventories, which must outlive the pairing.
using DeclarationFilter = bool (*)(const ShimDeclaration&);
DeclarationPairing pair_declarations(const ShimInventory& before, const ShimInventory& after,
                                     DeclarationFilter considered = nullptr);

}  // namespace abicheck

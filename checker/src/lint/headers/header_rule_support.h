#pragma once

#include <map>
#include <string>
#include <utility>

#include "inventory/declaration_pairing.h"
#include "lint/headers/header_rules.h"

// What several header rules (lint/headers/rules/) share. A declaration's key (key_of) and its
// signature with canonical whitespace (normal_signature) are the release diff's, from
// inventory/declaration_pairing.h: a second abicheck::key_of here would collide with it at link time.
namespace abicheck {

// The macros of the inventory are unguarded by design: the version macros are the guards' vocabulary
// (H004 checks them), the other constants (error codes, TORCH_ABI_VERSION) mean the same at every target.
bool is_unguarded_macro(const ShimDeclaration& declaration);

// "'name'" or "'name' (backend)", as the diagnostics name a declaration.
std::string describe(const ShimDeclaration& declaration);

// Where the candidate tree declares it, for the diagnostic.
SourcePosition position_of(const HeaderLintInput& input, const ShimDeclaration& declaration);

// The stable declaration a wrapper's use names: the C shim function of that name, else a
// declaration whose name or last name component it is (an undeclared member of an enum).
const ShimDeclaration* used_declaration(const ShimInventory& inventory, const std::string& name);

// A wrapper's use of a stable declaration that breaks at some target (H005's finding): the use at
// the oldest such target, and the release the declaration needs.
struct BrokenWrapperUse {
  WrapperShimUse use;  // `declared` as the inventory says for a macro body's name
  TorchVersion needs;
};

// Every wrapper use that breaks, one per (place, name): the front end found the name undeclared at
// a target (the wrapper's guard is weaker than the declaration's), or it resolved to a shim that first
// shipped after that target. Only names of targeted stable declarations count: H005 reports exactly
// these, and H007 leaves exactly these to it (any other not-declared error is a header that does not
// compile).
std::map<std::pair<SourcePosition, std::string>, BrokenWrapperUse> broken_wrapper_uses(const HeaderLintInput& input);

}  // namespace abicheck

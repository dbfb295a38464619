#pragma once

#include <span>

#include "audit/binary_imports.h"

namespace abicheck {

// An ELF object that cannot be audited: not ELF, truncated, 32-bit, foreign architecture, no dynamic
// symbol table. The message is one line without the file name (the caller knows where it came from).
class ElfReadError : public BinaryReadError {
 public:
  using BinaryReadError::BinaryReadError;
};

// Reads one 64-bit x86-64 or AArch64 ELF image in place. Throws ElfReadError on anything else.
// The image must stay mapped while the call runs; nothing is kept pointing into it afterwards.
BinaryImports read_elf_imports(std::span<char> image);

// True when the bytes start with the ELF magic.
bool looks_like_elf(std::span<const char> head);

}  // namespace abicheck

#pragma once

#include <span>
#include <vector>

#include "audit/binary_imports.h"

namespace abicheck {

// Reads a Mach-O (thin or universal: one BinaryImports per architecture) or PE/COFF image with LLVM's
// Object library. Mach-O imports are the undefined external symbols of the symbol table, each with the
// dylib its two-level-namespace ordinal names; PE imports are the import (and delay-import) tables by
// DLL. Throws BinaryReadError with one line on anything LLVM refuses or that holds nothing to audit.
std::vector<BinaryImports> read_object_file_imports(std::span<char> image, BinaryFormat format);

}  // namespace abicheck

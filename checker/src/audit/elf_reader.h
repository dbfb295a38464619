#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "audit/binary_imports.h"

namespace abicheck {

// An ELF object that cannot be audited: not ELF, truncated, 32-bit, foreign architecture, no dynamic
// symbol table. The message is one line without the file name (the caller knows where it came from).
class ElfReadError : public BinaryReadError {
 public:
  using BinaryReadError::BinaryReadError;
};

// How the reader gets the strings of one read-only data section, given by its file range: by
// default scan_read_only_strings over the image's bytes; the streaming reader (elf_stream_reader.h)
// answers from what it noted while the bytes went by, and must find exactly the same.
using ReadOnlySectionScan = std::function<void(std::uint64_t offset, std::uint64_t size, ReadOnlyStrings& found)>;

// Reads one 64-bit x86-64 or AArch64 ELF image in place. Throws ElfReadError on anything else.
// The image must stay mapped while the call runs; nothing is kept pointing into it afterwards.
// With a scan, the bytes of read-only data sections are never read from the image.
BinaryImports read_elf_imports(std::span<char> image, const ReadOnlySectionScan& scan = {});

// True when the bytes start with the ELF magic.
bool looks_like_elf(std::span<const char> head);

}  // namespace abicheck

#pragma once

#include <cstdint>

#include "audit/binary_imports.h"

namespace abicheck {

class EntryStream;

// What the streaming reader keeps in memory, whatever the object's size.
struct ElfStreamLimits {
  // An object up to this size is read whole and handed to read_elf_imports as it is: cheaper than
  // a second pass where a tool like patchelf moved its tables to the end (auditwheel's libraries).
  std::uint64_t whole_object_bytes = 8ULL << 20;
  // The read-only segment at the object's start (ELF and program headers, and in the linkers' usual
  // layout the dynamic symbol and version tables), kept on the first pass up to this size.
  std::uint64_t max_early_bytes = 64ULL << 20;
  // Everything the reader needs at once: section headers, .dynsym, .dynstr, version tables, .dynamic,
  // section names. An object that needs more is refused rather than held.
  std::uint64_t max_kept_bytes = 512ULL << 20;
  // What is noted of the strings going by: the bytes around every "torch" occurrence that may be a
  // shim-shaped string or the target marker, and every run of string bytes that ends on a NUL
  // (operator names and identifiers). An object past it is refused.
  std::uint64_t max_string_hit_bytes = 64ULL << 20;
  // The part of it the runs may take. Past it, runs are no longer noted: the read-only data sections
  // that lie there are read again, in a last pass, and scanned from their bytes.
  std::uint64_t max_string_run_bytes = 32ULL << 20;
};

// Reads an ELF object that arrives as a stream (a wheel's entry) without holding it (unless it is
// small, see whole_object_bytes): one pass reads
// it to the end, keeping the early segment, .dynamic (found by PT_DYNAMIC), the section header table
// and the bytes just before it (section names), and noting every shim-shaped string with its offset;
// the sections are then judged exactly as read_elf_imports judges a whole image (same checks, same
// messages), each read-only data section from the strings noted inside it. A table that lay outside
// what the first pass kept costs another pass, which stops after its last byte.
BinaryImports read_elf_imports_streamed(EntryStream& stream, const ElfStreamLimits& limits = {});

}  // namespace abicheck

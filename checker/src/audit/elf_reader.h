#pragma once

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace abicheck {

// An object that cannot be audited: not ELF, truncated, 32-bit, foreign architecture, no dynamic
// symbol table. The message is one line without the file name (the caller knows where it came from).
class ElfReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One undefined dynamic symbol: what the object expects its loader to find elsewhere.
struct ImportedSymbol {
  std::string name;
  std::string version;  // "GLIBC_2.2.5", "libcudart.so.12"; empty when unversioned
  std::string library;  // the library that the version requirement names ("libc.so.6"); may be empty
  bool weak = false;

  auto operator<=>(const ImportedSymbol&) const = default;
};

// What the audit needs to know about one ELF shared object, read from its dynamic section,
// dynamic symbol table, version tables and read-only data.
struct ElfImports {
  std::string machine;  // "x86-64", "AArch64"
  std::string soname;
  std::vector<std::string> needed;               // DT_NEEDED, in file order
  std::vector<ImportedSymbol> undefined;         // sorted by name
  std::vector<std::string> symbol_like_strings;  // read-only C strings shaped like shim names (dlsym uses)
  std::optional<std::string> target_marker;      // the value of an embedded "torch-abi-check:target=" string
  bool has_symtab = false;                       // false for a stripped object (auditing still works)
};

// The marker a binary built by this project embeds to declare its TORCH_TARGET_VERSION.
inline constexpr std::string_view kTargetMarkerPrefix = "torch-abi-check:target=";

// Reads one 64-bit x86-64 or AArch64 ELF image in place. Throws ElfReadError on anything else.
// The image must stay mapped while the call runs; nothing is kept pointing into it afterwards.
ElfImports read_elf_imports(std::span<char> image);

// True when the bytes start with the ELF magic.
bool looks_like_elf(std::span<const char> head);

}  // namespace abicheck

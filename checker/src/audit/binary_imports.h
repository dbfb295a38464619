#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "baseline/symbol_digests.h"

namespace abicheck {

class EntryStream;

// The object formats the audit reads: Linux's ELF (libelf, elf_reader.h), macOS's Mach-O (thin or
// universal) and Windows's PE/COFF (LLVM's Object library, object_file_reader.h).
enum class BinaryFormat { Elf, MachO, Pe };

std::string_view to_string(BinaryFormat format);              // "elf", "mach-o", "pe"
std::string_view platform_of(BinaryFormat format);            // "linux", "macos", "windows"
std::string_view platform_display_name(BinaryFormat format);  // "Linux", "macOS", "Windows": for messages

// An object that cannot be audited: truncated, corrupt, 32-bit, foreign architecture, nothing
// imported to audit. The message is one line without the file name (the caller knows where it came from).
class BinaryReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One imported symbol: what the object expects its loader to find elsewhere.
struct ImportedSymbol {
  std::string name;     // C-level name: Mach-O's leading underscore removed, so "_ZN3c10..." and "aoti_torch_..."
  std::string version;  // ELF: "GLIBC_2.2.5", "libcudart.so.12"; empty when unversioned (always on Mach-O and PE)
  // The library the symbol is bound to: ELF's version requirement's file ("libc.so.6"), Mach-O's
  // two-level-namespace dylib by ordinal ("libtorch_cpu.dylib"), PE's import DLL ("torch_cpu.dll").
  // Empty when the format does not say (an unversioned ELF symbol, a Mach-O flat lookup).
  std::string library;
  bool weak = false;

  auto operator<=>(const ImportedSymbol&) const = default;
};

// One version an ELF object's .gnu.version_r requires of a library: what its platform tag is judged
// by (platform_policy.h), whether or not a symbol of the dynamic table carries it.
struct VersionNeed {
  std::string library;  // "libc.so.6"
  std::string version;  // "GLIBC_2.34"

  auto operator<=>(const VersionNeed&) const = default;
};

// What the audit needs to know about one object (one architecture of a universal Mach-O).
struct BinaryImports {
  BinaryFormat format = BinaryFormat::Elf;
  std::string machine;  // "x86-64", "AArch64"
  std::string soname;   // ELF's DT_SONAME, Mach-O's LC_ID_DYLIB; empty otherwise
  // ELF's DT_NEEDED, Mach-O's LC_LOAD_DYLIB install names, PE's import DLLs (delay-loaded too), in file order.
  std::vector<std::string> needed;
  std::vector<ImportedSymbol> undefined;   // sorted by name
  std::vector<VersionNeed> version_needs;  // ELF's .gnu.version_r, in file order; empty otherwise
  // ELF: the names its dynamic symbol table exports (is_exported_definition), as digests (unsealed):
  // what an object of its package that NEEDs it binds to. Empty otherwise.
  SymbolDigests exported;
  // Where ELF's loader looks for this object's NEEDED first: DT_RUNPATH's directories, else
  // DT_RPATH's, as written ("$ORIGIN/../pkg.libs"); empty otherwise.
  std::vector<std::string> library_search_path;
  std::vector<std::string> symbol_like_strings;  // read-only C strings shaped like shim names (dlsym uses)
  // Read-only C strings shaped like operator names handed to the dispatcher: "aten::add" or
  // "aten::add.Tensor" (sorted); and the plain identifiers ("Tensor", "int", "out"), among which
  // the overload names passed beside an operator's name are (sorted).
  std::vector<std::string> operator_like_strings;
  std::vector<std::string> identifier_strings;
  std::optional<std::string> target_marker;  // the value of an embedded "torch-abi-check:target=" string
  bool has_symtab = false;                   // false for a stripped object (auditing still works)
  // The architecture of one slice of a universal Mach-O ("arm64"); empty for a thin object.
  std::string slice;
};

// The marker a binary built by this project embeds to declare its TORCH_TARGET_VERSION.
inline constexpr std::string_view kTargetMarkerPrefix = "torch-abi-check:target=";

// The format the first bytes announce (ELF, Mach-O 32/64-bit or universal, PE's MZ), or nullopt.
std::optional<BinaryFormat> binary_format_of(std::span<const char> head);

// The one reader the audit calls: the imports of an ELF, Mach-O (one entry per architecture of a
// universal binary) or PE image. Throws BinaryReadError on anything it cannot audit. The image must
// stay mapped while the call runs; nothing is kept pointing into it afterwards.
std::vector<BinaryImports> read_binary_imports(std::span<char> image);

// The same for an object read as a stream (a wheel's entry): ELF objects are streamed
// (elf_stream_reader.h), Mach-O and PE objects are read whole.
std::vector<BinaryImports> read_binary_imports(EntryStream& stream);

// What the readers collect from an object's read-only data sections, before it goes into BinaryImports.
struct ReadOnlyStrings {
  std::set<std::string> shim_names;      // "aoti_torch_..." and "torch_..." (shim names handed to dlsym)
  std::set<std::string> operator_names;  // "ns::name" and "ns::name.overload"
  std::set<std::string> identifiers;     // plain identifiers of at most 64 characters
  std::optional<std::string> target_marker;

  void move_into(BinaryImports& imports);
};

// Finds, in one read-only data section, the C strings shaped like shim names, operator names or
// identifiers, and the target marker; every reader uses it. It is the two rules below: the one for
// each occurrence of "torch", and the one for each NUL-terminated string (the section's first
// string starts at the section's first byte; bytes after the last NUL are no string).
void scan_read_only_strings(std::string_view data, ReadOnlyStrings& found);

// The rule for one occurrence of "torch" at data[match] (shim names and the target marker), `data`
// being the section (or a window of it that ends at the section's end or 300 bytes past the match).
// Returns where the search for the next occurrence may go on.
std::size_t scan_read_only_string_at(std::string_view data, std::size_t match, ReadOnlyStrings& found);

// The rule for one NUL-terminated string (text without its NUL): an identifier of at most 64
// characters goes to identifiers, an operator name of at most kLongestReadOnlyString to operator_names.
void classify_read_only_string(std::string_view text, ReadOnlyStrings& found);

// No string longer than this is ever taken by classify_read_only_string, and every string it takes
// is made only of bytes for which is_read_only_string_char holds ([A-Za-z0-9_:.]).
inline constexpr std::size_t kLongestReadOnlyString = 256;
bool is_read_only_string_char(char c);

// [A-Za-z0-9_]
bool is_identifier_char(char c);

}  // namespace abicheck

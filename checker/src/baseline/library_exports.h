#pragma once

#include <elf.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace abicheck {

// The libraries of a torch release that export the C shim, CPU first.
inline constexpr std::string_view kShimLibraries[] = {"libtorch_cpu.so", "libtorch_cuda.so"};

// The C shim functions (aoti_*, torch_*) that a release's libraries really define in their
// dynamic symbol tables: what an extension's imports resolve against at load time.
struct ShimExports {
  std::map<std::string, std::vector<std::string>> by_library;  // "libtorch_cpu.so" -> sorted names

  bool empty() const { return by_library.empty(); }
  // The library that exports `name`, or "" when none does.
  std::string library_of(const std::string& name) const;
};

// Reads every kShimLibraries entry present in lib_dir with libelf. Throws ToolError naming the file
// when one is not a readable ELF shared object.
ShimExports read_shim_exports(const std::filesystem::path& lib_dir);

// The defined, global or weak function symbols of one ELF object whose names are C shim names.
std::vector<std::string> read_exported_shim_functions(const std::filesystem::path& library);
// The C shim names an ELF object needs from another object (its undefined dynamic symbols), sorted.
std::vector<std::string> read_imported_shim_functions(const std::filesystem::path& library);

bool is_shim_function_name(std::string_view name);

// Whether a dynamic symbol table entry is one another object's imports bind to: defined, of global,
// weak or unique binding (STB_GNU_UNIQUE: the one copy of an inline function's static, which the
// loader binds like a global), not hidden. For every reader of exports (for_each_exported_symbol, the
// audit's ELF reader).
inline bool is_exported_definition(unsigned char info, unsigned char other, std::uint16_t section) {
  const unsigned binding = ELF64_ST_BIND(info);
  const unsigned visibility = ELF64_ST_VISIBILITY(other);
  return section != SHN_UNDEF && (binding == STB_GLOBAL || binding == STB_WEAK || binding == STB_GNU_UNIQUE) &&
         visibility != STV_HIDDEN && visibility != STV_INTERNAL;
}

// Calls `visit` with the name of every symbol `library` exports in its dynamic symbol table: defined,
// of global, weak or unique binding, not hidden; functions and objects alike (vtables, typeinfo,
// statics). What another object's imports bind to at load time. Throws ToolError naming the file.
void for_each_exported_symbol(const std::filesystem::path& library, const std::function<void(std::string_view)>& visit);

// The sonames an ELF object NEEDs (its DT_NEEDED entries, in order). Throws ToolError naming the file.
std::vector<std::string> read_needed_libraries(const std::filesystem::path& library);

// The GNU build id of an ELF object in hex (what its linker derived from its content), or "" when it
// has none. Throws ToolError naming the file when it is not ELF.
std::string read_build_id(const std::filesystem::path& library);

// The value (offset from the load address, for a shared object) of `name` in `library`'s full symbol
// table (.symtab: local symbols too); nullopt when the library has no such symbol or no .symtab.
std::optional<std::uint64_t> find_symbol_value(const std::filesystem::path& library, std::string_view name);

}  // namespace abicheck

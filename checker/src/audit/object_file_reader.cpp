#include "audit/object_file_reader.h"

#include <fmt/format.h>
#include <llvm/BinaryFormat/MachO.h>
#include <llvm/Object/Binary.h>
#include <llvm/Object/COFF.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <set>

namespace abicheck {
namespace {

std::string message_of(llvm::Error error) { return llvm::toString(std::move(error)); }

// The same machine names as the ELF reader's, so reports compare across platforms.
std::string arch_name(llvm::Triple::ArchType arch) {
  switch (arch) {
    case llvm::Triple::x86_64: return "x86-64";
    case llvm::Triple::aarch64: return "AArch64";
    case llvm::Triple::x86: return "i386";
    case llvm::Triple::arm:
    case llvm::Triple::thumb: return "ARM";
    default: return std::string(llvm::Triple::getArchTypeName(arch));
  }
}

// "@rpath/libtorch_cpu.dylib" -> "libtorch_cpu.dylib": what the classifier's library prefixes name.
std::string install_name_file(llvm::StringRef install_name) {
  std::size_t slash = install_name.rfind('/');
  return (slash == llvm::StringRef::npos ? install_name : install_name.substr(slash + 1)).str();
}

// Scans the named read-only data sections for shim and operator names, identifiers and the target marker.
ReadOnlyStrings scan_sections(const llvm::object::ObjectFile& object, std::initializer_list<llvm::StringRef> names) {
  ReadOnlyStrings strings;
  for (const llvm::object::SectionRef& section : object.sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (std::find(names.begin(), names.end(), *name) == names.end()) continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    scan_read_only_strings(std::string_view(contents->data(), contents->size()), strings);
  }
  return strings;
}

void finish(BinaryImports& imports, ReadOnlyStrings& strings) {
  strings.move_into(imports);
  // Iterator algorithms, not std::ranges: the fuzz build's clang-14 cannot compile libstdc++ 12's.
  std::sort(imports.undefined.begin(), imports.undefined.end());
  imports.undefined.erase(std::unique(imports.undefined.begin(), imports.undefined.end()), imports.undefined.end());
}

// The name a dylib load command carries, bounded by the command (LLVM checks the offset, not the NUL).
llvm::StringRef dylib_name(const llvm::object::MachOObjectFile& object,
                           const llvm::object::MachOObjectFile::LoadCommandInfo& command) {
  std::uint32_t offset = object.getDylibIDLoadCommand(command).dylib.name;
  if (offset >= command.C.cmdsize) throw BinaryReadError("corrupt Mach-O: a dylib name lies outside its load command");
  return llvm::StringRef(command.Ptr + offset, command.C.cmdsize - offset).split('\0').first;
}

BinaryImports read_macho(const llvm::object::MachOObjectFile& object) {
  BinaryImports imports{.format = BinaryFormat::MachO, .machine = arch_name(object.getArch())};
  if (!object.is64Bit()) throw BinaryReadError("32-bit Mach-O: torch publishes 64-bit builds only");
  if (object.getHeader().filetype != llvm::MachO::MH_DYLIB && object.getHeader().filetype != llvm::MachO::MH_BUNDLE) {
    throw BinaryReadError("Mach-O that is neither a dylib nor a bundle: nothing a Python extension would be");
  }
  // Ordinal n of the two-level namespace is the n-th dylib load command.
  std::vector<std::string> by_ordinal;
  for (const auto& command : object.load_commands()) {
    switch (command.C.cmd) {
      case llvm::MachO::LC_ID_DYLIB: imports.soname = install_name_file(dylib_name(object, command)); break;
      case llvm::MachO::LC_LOAD_DYLIB:
      case llvm::MachO::LC_LOAD_WEAK_DYLIB:
      case llvm::MachO::LC_REEXPORT_DYLIB:
      case llvm::MachO::LC_LAZY_LOAD_DYLIB:
      case llvm::MachO::LC_LOAD_UPWARD_DYLIB: {
        llvm::StringRef name = dylib_name(object, command);
        imports.needed.push_back(name.str());
        by_ordinal.push_back(install_name_file(name));
        break;
      }
      default: break;
    }
  }
  for (const llvm::object::SymbolRef& symbol : object.symbols()) {
    llvm::MachO::nlist_64 entry = object.getSymbol64TableEntry(symbol.getRawDataRefImpl());
    // A local defined symbol survives only in an unstripped object (strip -x keeps the imports).
    if ((entry.n_type & (llvm::MachO::N_STAB | llvm::MachO::N_EXT)) == 0 &&
        (entry.n_type & llvm::MachO::N_TYPE) == llvm::MachO::N_SECT) {
      imports.has_symtab = true;
    }
    if ((entry.n_type & llvm::MachO::N_STAB) != 0 || (entry.n_type & llvm::MachO::N_TYPE) != llvm::MachO::N_UNDF ||
        (entry.n_type & llvm::MachO::N_EXT) == 0) {
      continue;
    }
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!name) throw BinaryReadError(fmt::format("corrupt Mach-O symbol table: {}", message_of(name.takeError())));
    if (name->empty()) continue;
    ImportedSymbol imported{.name = name->startswith("_") ? name->drop_front().str() : name->str(),
                            .weak = (entry.n_desc & llvm::MachO::N_WEAK_REF) != 0};
    unsigned ordinal = llvm::MachO::GET_LIBRARY_ORDINAL(entry.n_desc);
    if (ordinal >= 1 && ordinal <= by_ordinal.size()) imported.library = by_ordinal[ordinal - 1];
    imports.undefined.push_back(std::move(imported));
  }
  ReadOnlyStrings strings = scan_sections(object, {"__cstring", "__const"});
  if (imports.needed.empty() && imports.undefined.empty()) {
    throw BinaryReadError("Mach-O with no dylib load command and no undefined symbol: nothing imported to audit");
  }
  finish(imports, strings);
  return imports;
}

void read_pe_directory(auto&& directory, BinaryImports& imports) {
  llvm::StringRef dll;
  if (llvm::Error error = directory.getName(dll)) {
    throw BinaryReadError(fmt::format("corrupt PE import table: {}", message_of(std::move(error))));
  }
  imports.needed.push_back(dll.str());
  for (const llvm::object::ImportedSymbolRef& symbol : directory.imported_symbols()) {
    bool by_ordinal = false;
    if (llvm::Error error = symbol.isOrdinal(by_ordinal)) {
      throw BinaryReadError(fmt::format("corrupt PE import table: {}", message_of(std::move(error))));
    }
    ImportedSymbol imported{.library = dll.str()};
    if (by_ordinal) {
      std::uint16_t ordinal = 0;
      if (llvm::Error error = symbol.getOrdinal(ordinal)) {
        throw BinaryReadError(fmt::format("corrupt PE import table: {}", message_of(std::move(error))));
      }
      imported.name = fmt::format("#{}", ordinal);  // imported by number: no name to classify
    } else {
      llvm::StringRef name;
      if (llvm::Error error = symbol.getSymbolName(name)) {
        throw BinaryReadError(fmt::format("corrupt PE import table: {}", message_of(std::move(error))));
      }
      imported.name = name.str();
    }
    imports.undefined.push_back(std::move(imported));
  }
}

BinaryImports read_pe(const llvm::object::COFFObjectFile& object) {
  BinaryImports imports{.format = BinaryFormat::Pe, .machine = arch_name(object.getArch())};
  if (!object.getPE32PlusHeader()) throw BinaryReadError("32-bit PE (PE32): torch publishes 64-bit builds only");
  for (const auto& directory : object.import_directories()) read_pe_directory(directory, imports);
  for (const auto& directory : object.delay_import_directories()) read_pe_directory(directory, imports);
  imports.has_symtab = object.getNumberOfSymbols() > 0;
  ReadOnlyStrings strings = scan_sections(object, {".rdata"});
  if (imports.needed.empty()) throw BinaryReadError("PE with no import table: nothing imported to audit");
  finish(imports, strings);
  return imports;
}

}  // namespace

std::vector<BinaryImports> read_object_file_imports(std::span<char> image, BinaryFormat format) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(image.data(), image.size()), "");
  std::string_view kind = format == BinaryFormat::Pe ? "PE" : "Mach-O";
  llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary = llvm::object::createBinary(buffer);
  if (!binary) throw BinaryReadError(fmt::format("not a readable {} file: {}", kind, message_of(binary.takeError())));
  if (auto* universal = llvm::dyn_cast<llvm::object::MachOUniversalBinary>(binary->get())) {
    std::vector<BinaryImports> slices;
    for (const auto& slice : universal->objects()) {
      llvm::Expected<std::unique_ptr<llvm::object::MachOObjectFile>> object = slice.getAsObjectFile();
      if (!object) {
        throw BinaryReadError(fmt::format("corrupt universal Mach-O: the {} slice: {}", slice.getArchFlagName(),
                                          message_of(object.takeError())));
      }
      BinaryImports imports = read_macho(**object);
      imports.slice = slice.getArchFlagName();
      slices.push_back(std::move(imports));
    }
    if (slices.empty()) throw BinaryReadError("universal Mach-O with no architecture in it");
    return slices;
  }
  if (auto* macho = llvm::dyn_cast<llvm::object::MachOObjectFile>(binary->get())) return {read_macho(*macho)};
  if (auto* coff = llvm::dyn_cast<llvm::object::COFFObjectFile>(binary->get())) {
    if (!coff->getDOSHeader()) throw BinaryReadError("a COFF object file, not a linked PE image (.pyd or .dll)");
    return {read_pe(*coff)};
  }
  throw BinaryReadError(fmt::format("not a {} shared library", kind));
}

}  // namespace abicheck

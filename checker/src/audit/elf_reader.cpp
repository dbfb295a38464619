#include "audit/elf_reader.h"

#include <elf.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include "baseline/library_exports.h"

namespace abicheck {
namespace {

// Which library and version name a verneed index stands for.
struct VersionRequirement {
  std::string version;
  std::string library;
};

std::string_view elf_machine_name(unsigned machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "s390";
    case EM_RISCV: return "RISC-V";
    default: return "unknown";
  }
}

void require_libelf() {
  static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
  if (!ready) throw ElfReadError("libelf refused EV_CURRENT");
}

struct ElfCloser {
  void operator()(Elf* elf) const { elf_end(elf); }
};

std::string libelf_problem() {
  const char* message = elf_errmsg(-1);
  return message ? message : "unknown libelf error";
}

// Device code blobs are large, never hold C strings that the host looks up, and scanning them
// would cost more than the rest of the audit.
bool is_device_code_section(std::string_view name) {
  return name == ".nv_fatbin" || name == "__nv_relfatbin" || name == ".hip_fatbin" || name == ".nvFatBinSegment";
}

}  // namespace

bool looks_like_elf(std::span<const char> head) {
  return head.size() >= SELFMAG && std::memcmp(head.data(), ELFMAG, SELFMAG) == 0;
}

BinaryImports read_elf_imports(std::span<char> image, const ReadOnlySectionScan& scan) {
  require_libelf();
  if (image.size() < EI_NIDENT) {
    if (looks_like_elf(image)) throw ElfReadError("truncated ELF: the file ends inside the ELF identification");
    throw ElfReadError("not an ELF file");
  }
  if (!looks_like_elf(image)) throw ElfReadError("not an ELF file");
  if (image[EI_CLASS] == ELFCLASS32) throw ElfReadError("32-bit ELF: only 64-bit objects are audited");
  if (image[EI_CLASS] != ELFCLASS64) throw ElfReadError(fmt::format("ELF class {} is not valid", int(image[EI_CLASS])));
  if (image[EI_DATA] != ELFDATA2LSB) throw ElfReadError("big-endian ELF: only x86-64 and AArch64 objects are audited");
  if (image.size() < sizeof(Elf64_Ehdr)) throw ElfReadError("truncated ELF: the file ends inside the ELF header");

  std::unique_ptr<Elf, ElfCloser> elf(elf_memory(image.data(), image.size()));
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) throw ElfReadError(fmt::format("corrupt ELF: {}", libelf_problem()));
  GElf_Ehdr header;
  if (!gelf_getehdr(elf.get(), &header)) throw ElfReadError(fmt::format("corrupt ELF header: {}", libelf_problem()));
  if (header.e_machine != EM_X86_64 && header.e_machine != EM_AARCH64) {
    throw ElfReadError(
        fmt::format("foreign architecture {} (e_machine {}): only x86-64 and AArch64 objects are audited",
                    elf_machine_name(header.e_machine), header.e_machine));
  }
  if (header.e_type != ET_DYN && header.e_type != ET_EXEC) {
    throw ElfReadError(header.e_type == ET_REL ? "relocatable object (.o): only linked shared objects are audited"
                                               : fmt::format("ELF type {} is not a shared object", header.e_type));
  }
  if (header.e_shoff == 0) {
    throw ElfReadError(
        "no section headers (stripped with sstrip, or damaged): the dynamic symbol table cannot be found");
  }
  if (header.e_shoff >= image.size() ||
      (image.size() - header.e_shoff) / std::max<unsigned>(header.e_shentsize, 1) < header.e_shnum) {
    throw ElfReadError(fmt::format("truncated ELF: the section header table (at byte {}) ends past the file's {} bytes",
                                   header.e_shoff, image.size()));
  }
  std::size_t section_count = 0;
  if (elf_getshdrnum(elf.get(), &section_count) != 0 || section_count == 0) {
    throw ElfReadError(fmt::format("corrupt section table: {}", libelf_problem()));
  }
  std::size_t names_index = 0;
  if (elf_getshdrstrndx(elf.get(), &names_index) != 0) {
    throw ElfReadError(fmt::format("corrupt section name table: {}", libelf_problem()));
  }

  BinaryImports imports;
  imports.machine = elf_machine_name(header.e_machine);
  Elf_Scn* dynsym = nullptr;
  Elf_Scn* versym = nullptr;
  Elf_Scn* verneed = nullptr;
  Elf_Scn* dynamic = nullptr;
  ReadOnlyStrings strings;
  for (Elf_Scn* section = elf_nextscn(elf.get(), nullptr); section; section = elf_nextscn(elf.get(), section)) {
    GElf_Shdr section_header;
    if (!gelf_getshdr(section, &section_header)) {
      throw ElfReadError(fmt::format("corrupt section header: {}", libelf_problem()));
    }
    if (section_header.sh_type != SHT_NOBITS &&
        (section_header.sh_offset > image.size() || image.size() - section_header.sh_offset < section_header.sh_size)) {
      throw ElfReadError(
          fmt::format("truncated ELF: section {} ends past the file's {} bytes", elf_ndxscn(section), image.size()));
    }
    switch (section_header.sh_type) {
      case SHT_DYNSYM: dynsym = section; break;
      case SHT_GNU_versym: versym = section; break;
      case SHT_GNU_verneed: verneed = section; break;
      case SHT_DYNAMIC: dynamic = section; break;
      case SHT_SYMTAB: imports.has_symtab = true; break;
      case SHT_PROGBITS: {
        if (!(section_header.sh_flags & SHF_ALLOC) || (section_header.sh_flags & (SHF_EXECINSTR | SHF_WRITE))) break;
        const char* name = elf_strptr(elf.get(), names_index, section_header.sh_name);
        if (name && is_device_code_section(name)) break;
        if (scan) {
          scan(section_header.sh_offset, section_header.sh_size, strings);
        } else {
          std::string_view data(image.data() + section_header.sh_offset, section_header.sh_size);
          scan_read_only_strings(data, strings);
        }
        break;
      }
      default: break;
    }
  }
  strings.move_into(imports);
  if (!dynsym)
    throw ElfReadError("no dynamic symbol table: a static or fully stripped object imports nothing to audit");

  std::optional<std::string> runpath;
  std::optional<std::string> rpath;
  if (dynamic) {
    GElf_Shdr dynamic_header;
    gelf_getshdr(dynamic, &dynamic_header);
    Elf_Data* data = elf_getdata(dynamic, nullptr);
    if (!data) throw ElfReadError(fmt::format("corrupt dynamic section: {}", libelf_problem()));
    std::size_t entry_size = gelf_fsize(elf.get(), ELF_T_DYN, 1, EV_CURRENT);
    for (std::size_t i = 0; entry_size && i < data->d_size / entry_size; ++i) {
      GElf_Dyn entry;
      if (!gelf_getdyn(data, static_cast<int>(i), &entry) || entry.d_tag == DT_NULL) break;
      if (entry.d_tag != DT_NEEDED && entry.d_tag != DT_SONAME && entry.d_tag != DT_RUNPATH &&
          entry.d_tag != DT_RPATH) {
        continue;
      }
      const char* text = elf_strptr(elf.get(), dynamic_header.sh_link, entry.d_un.d_val);
      if (!text) throw ElfReadError("corrupt dynamic section: a library name points outside the string table");
      if (entry.d_tag == DT_NEEDED) imports.needed.emplace_back(text);
      else if (entry.d_tag == DT_SONAME) imports.soname = text;
      else if (entry.d_tag == DT_RUNPATH) runpath = text;
      else rpath = text;
    }
  }
  // The loader ignores DT_RPATH where DT_RUNPATH is present.
  const std::string search_path = runpath ? *runpath : rpath.value_or("");
  for (std::string_view path = search_path; !path.empty();) {
    std::size_t colon = std::min(path.find(':'), path.size());
    if (colon > 0) imports.library_search_path.emplace_back(path.substr(0, colon));
    path.remove_prefix(std::min(colon + 1, path.size()));
  }

  std::map<unsigned, VersionRequirement> requirements;
  if (verneed) {
    GElf_Shdr verneed_header;
    gelf_getshdr(verneed, &verneed_header);
    Elf_Data* data = elf_getdata(verneed, nullptr);
    std::size_t offset = 0;
    // sh_info is the number of entries; the bound also stops a cycle in a corrupt chain.
    for (std::size_t entry = 0; data && entry < std::min<std::size_t>(verneed_header.sh_info, 4096); ++entry) {
      GElf_Verneed need;
      if (!gelf_getverneed(data, static_cast<int>(offset), &need)) break;
      const char* library = elf_strptr(elf.get(), verneed_header.sh_link, need.vn_file);
      std::size_t aux_offset = offset + need.vn_aux;
      for (unsigned aux_index = 0; aux_index < std::min<unsigned>(need.vn_cnt, 4096); ++aux_index) {
        GElf_Vernaux aux;
        if (aux_offset > INT32_MAX || !gelf_getvernaux(data, static_cast<int>(aux_offset), &aux)) break;
        const char* version = elf_strptr(elf.get(), verneed_header.sh_link, aux.vna_name);
        requirements[aux.vna_other] = {version ? version : "", library ? library : ""};
        imports.version_needs.push_back({library ? library : "", version ? version : ""});
        if (aux.vna_next == 0) break;
        aux_offset += aux.vna_next;
      }
      if (need.vn_next == 0) break;
      offset += need.vn_next;
      if (offset > INT32_MAX) break;
    }
  }

  GElf_Shdr dynsym_header;
  gelf_getshdr(dynsym, &dynsym_header);
  Elf_Data* symbols = elf_getdata(dynsym, nullptr);
  if (!symbols) throw ElfReadError(fmt::format("corrupt dynamic symbol table: {}", libelf_problem()));
  Elf_Data* versions = versym ? elf_getdata(versym, nullptr) : nullptr;
  std::size_t symbol_size = gelf_fsize(elf.get(), ELF_T_SYM, 1, EV_CURRENT);
  std::size_t symbol_count = symbol_size ? symbols->d_size / symbol_size : 0;
  for (std::size_t i = 1; i < symbol_count; ++i) {
    GElf_Sym symbol;
    if (!gelf_getsym(symbols, static_cast<int>(i), &symbol)) break;
    if (symbol.st_name == 0) continue;
    const bool exported = is_exported_definition(symbol.st_info, symbol.st_other, symbol.st_shndx);
    if (symbol.st_shndx != SHN_UNDEF && !exported) continue;
    const char* name = elf_strptr(elf.get(), dynsym_header.sh_link, symbol.st_name);
    if (!name) throw ElfReadError("corrupt dynamic symbol table: a name points outside the string table");
    if (exported) {
      imports.exported.add(name);
      continue;
    }
    ImportedSymbol imported{name, "", "", GELF_ST_BIND(symbol.st_info) == STB_WEAK};
    GElf_Versym version_index;
    if (versions && gelf_getversym(versions, static_cast<int>(i), &version_index)) {
      auto found = requirements.find(version_index & 0x7fff);
      if (found != requirements.end()) {
        imported.version = found->second.version;
        imported.library = found->second.library;
      }
    }
    imports.undefined.push_back(std::move(imported));
  }
  std::sort(imports.undefined.begin(), imports.undefined.end());
  return imports;
}

}  // namespace abicheck

#include "baseline/library_exports.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>

#include "core/tool_error.h"

namespace abicheck {
namespace {

// Owns the file descriptor and the libelf handle of one object.
class ElfFile {
 public:
  explicit ElfFile(const std::filesystem::path& path) : path_(path) {
    if (elf_version(EV_CURRENT) == EV_NONE) throw ToolError("libelf: version mismatch");
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw ToolError(fmt::format("{}: cannot be opened", path.string()));
    elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
    if (!elf_ || elf_kind(elf_) != ELF_K_ELF) {
      close_all();
      throw ToolError(fmt::format("{}: not an ELF object", path.string()));
    }
  }
  ~ElfFile() { close_all(); }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  Elf* get() const { return elf_; }

 private:
  void close_all() {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) ::close(fd_);
    elf_ = nullptr;
    fd_ = -1;
  }
  std::filesystem::path path_;
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

}  // namespace

bool is_shim_function_name(std::string_view name) { return name.starts_with("aoti_") || name.starts_with("torch_"); }

std::string ShimExports::library_of(const std::string& name) const {
  for (const auto& [library, names] : by_library) {
    if (std::ranges::binary_search(names, name)) return library;
  }
  return {};
}

namespace {

// Calls `visit` with each symbol of `library`'s dynamic symbol table and its name (null when unnamed).
void for_each_dynamic_symbol(const ElfFile& file, const std::filesystem::path& library,
                             const std::function<void(const GElf_Sym&, const char*)>& visit) {
  bool has_dynsym = false;
  for (Elf_Scn* section = elf_nextscn(file.get(), nullptr); section; section = elf_nextscn(file.get(), section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_DYNSYM) continue;
    has_dynsym = true;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data || header.sh_entsize == 0)
      throw ToolError(fmt::format("{}: truncated dynamic symbol table", library.string()));
    for (std::size_t i = 0, n = header.sh_size / header.sh_entsize; i < n; ++i) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(i), &symbol)) continue;
      visit(symbol, elf_strptr(file.get(), header.sh_link, symbol.st_name));
    }
  }
  if (!has_dynsym) throw ToolError(fmt::format("{}: no dynamic symbol table", library.string()));
}

// The global or weak function symbols of one ELF object whose names are C shim names: those it
// defines (`defined`) or those it needs from another object.
std::vector<std::string> read_shim_functions(const std::filesystem::path& library, bool defined) {
  ElfFile file(library);
  std::vector<std::string> names;
  for_each_dynamic_symbol(file, library, [&](const GElf_Sym& symbol, const char* name) {
    int binding = GELF_ST_BIND(symbol.st_info);
    if ((symbol.st_shndx == SHN_UNDEF) == defined) return;
    // An import's type is often STT_NOTYPE; only a definition says it is a function.
    if (defined && GELF_ST_TYPE(symbol.st_info) != STT_FUNC) return;
    if (binding != STB_GLOBAL && binding != STB_WEAK) return;
    if (name && is_shim_function_name(name)) names.emplace_back(name);
  });
  std::ranges::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

void for_each_exported_symbol(const std::filesystem::path& library,
                              const std::function<void(std::string_view)>& visit) {
  ElfFile file(library);
  for_each_dynamic_symbol(file, library, [&](const GElf_Sym& symbol, const char* name) {
    if (!name || *name == '\0' || !is_exported_definition(symbol.st_info, symbol.st_other, symbol.st_shndx)) return;
    visit(name);
  });
}

std::vector<std::string> read_needed_libraries(const std::filesystem::path& library) {
  ElfFile file(library);
  std::vector<std::string> needed;
  for (Elf_Scn* section = elf_nextscn(file.get(), nullptr); section; section = elf_nextscn(file.get(), section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_DYNAMIC) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data || header.sh_entsize == 0) continue;
    for (std::size_t i = 0; i < header.sh_size / header.sh_entsize; ++i) {
      GElf_Dyn entry;
      if (!gelf_getdyn(data, static_cast<int>(i), &entry) || entry.d_tag != DT_NEEDED) continue;
      if (const char* name = elf_strptr(file.get(), header.sh_link, entry.d_un.d_val)) needed.emplace_back(name);
    }
  }
  return needed;
}

std::string read_build_id(const std::filesystem::path& library) {
  ElfFile file(library);
  for (Elf_Scn* section = elf_nextscn(file.get(), nullptr); section; section = elf_nextscn(file.get(), section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data) continue;
    GElf_Nhdr note;
    std::size_t name_offset = 0;
    std::size_t description_offset = 0;
    for (std::size_t offset = 0; (offset = gelf_getnote(data, offset, &note, &name_offset, &description_offset)) > 0;) {
      if (note.n_type != NT_GNU_BUILD_ID || note.n_namesz != 4 ||
          std::string_view(static_cast<const char*>(data->d_buf) + name_offset, 3) != "GNU") {
        continue;
      }
      const auto* bytes = static_cast<const unsigned char*>(data->d_buf) + description_offset;
      std::string hex;
      for (std::size_t i = 0; i < note.n_descsz; ++i) hex += fmt::format("{:02x}", bytes[i]);
      return hex;
    }
  }
  return "";
}

std::vector<std::string> read_exported_shim_functions(const std::filesystem::path& library) {
  return read_shim_functions(library, true);
}

std::vector<std::string> read_imported_shim_functions(const std::filesystem::path& library) {
  return read_shim_functions(library, false);
}

std::optional<std::uint64_t> find_symbol_value(const std::filesystem::path& library, std::string_view name) {
  ElfFile file(library);
  for (Elf_Scn* section = elf_nextscn(file.get(), nullptr); section; section = elf_nextscn(file.get(), section)) {
    GElf_Shdr header;
    if (!gelf_getshdr(section, &header) || header.sh_type != SHT_SYMTAB || header.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data) throw ToolError(fmt::format("{}: truncated symbol table", library.string()));
    for (std::size_t i = 0, n = header.sh_size / header.sh_entsize; i < n; ++i) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(i), &symbol) || symbol.st_shndx == SHN_UNDEF) continue;
      const char* symbol_name = elf_strptr(file.get(), header.sh_link, symbol.st_name);
      if (symbol_name && name == symbol_name) return symbol.st_value;
    }
  }
  return std::nullopt;
}

ShimExports read_shim_exports(const std::filesystem::path& lib_dir) {
  ShimExports exports;
  for (std::string_view library : kShimLibraries) {
    std::filesystem::path path = lib_dir / library;
    if (std::filesystem::exists(path)) exports.by_library[std::string(library)] = read_exported_shim_functions(path);
  }
  return exports;
}

}  // namespace abicheck

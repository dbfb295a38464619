#include "baseline/platform_exports.h"

#include <fmt/format.h>
#include <llvm/Object/Binary.h>
#include <llvm/Object/COFF.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Support/Error.h>
#include <zip.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "core/wheel_file_name.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// Where each platform's torch wheel keeps the library that defines the C shim (Windows's and macOS's
// CPU builds put every shim in it; neither platform has a CUDA build with its own shim library on PyPI).
struct PlatformLibrary {
  std::string_view platform;
  std::string_view tag_prefix;  // of the wheel's platform tag
  std::string_view entry;
};
constexpr PlatformLibrary kPlatformLibraries[] = {
    {"macos", "macosx_", "torch/lib/libtorch_cpu.dylib"},
    {"windows", "win_", "torch/lib/torch_cpu.dll"},
};

[[noreturn]] void fail(const fs::path& wheel, std::string_view problem) {
  throw ToolError(fmt::format("{}: {}", wheel.string(), problem));
}

// name-version[-build]-python-abi-platform.whl
struct ArchiveCloser {
  void operator()(zip* archive) const { zip_discard(archive); }
};
struct EntryCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

// Copies one entry to `destination` in chunks: the libraries are hundreds of MB.
void extract_entry(const fs::path& wheel, std::string_view entry, const fs::path& destination) {
  int code = 0;
  std::unique_ptr<zip, ArchiveCloser> archive(zip_open(wheel.c_str(), ZIP_RDONLY, &code));
  if (!archive) fail(wheel, "cannot be opened as a zip archive");
  std::unique_ptr<zip_file_t, EntryCloser> file(zip_fopen(archive.get(), std::string(entry).c_str(), 0));
  if (!file) fail(wheel, fmt::format("has no {}: not a torch wheel for this platform", entry));
  std::ofstream out(destination, std::ios::binary);
  std::vector<char> chunk(1 << 20);
  for (;;) {
    zip_int64_t got = zip_fread(file.get(), chunk.data(), chunk.size());
    if (got < 0) fail(wheel, fmt::format("{} is corrupt: {}", entry, zip_file_strerror(file.get())));
    if (got == 0) break;
    out.write(chunk.data(), got);
  }
  if (!out.flush()) throw ToolError(fmt::format("{}: cannot be written", destination.string()));
}

bool is_shim_name(llvm::StringRef name) { return name.startswith("aoti_") || name.startswith("torch_"); }

// The defined global functions of a Mach-O image, without the leading underscore of C names.
void add_macho_exports(const llvm::object::MachOObjectFile& object, std::set<std::string>& names) {
  for (const llvm::object::SymbolRef& symbol : object.symbols()) {
    llvm::Expected<std::uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!flags || !type || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(type.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) || !(*flags & llvm::object::SymbolRef::SF_Global)) continue;
    if (*type != llvm::object::SymbolRef::ST_Function || !name->startswith("_")) continue;
    if (is_shim_name(name->drop_front())) names.insert(name->drop_front().str());
  }
}

void add_pe_exports(const llvm::object::COFFObjectFile& object, std::set<std::string>& names) {
  for (const llvm::object::ExportDirectoryEntryRef& entry : object.export_directories()) {
    llvm::StringRef name;
    if (llvm::Error error = entry.getSymbolName(name)) {
      llvm::consumeError(std::move(error));
      continue;
    }
    if (is_shim_name(name)) names.insert(name.str());
  }
}

std::vector<std::string> read_library_exports(const fs::path& wheel, std::string_view entry, const fs::path& file) {
  llvm::Expected<llvm::object::OwningBinary<llvm::object::Binary>> binary = llvm::object::createBinary(file.string());
  if (!binary) fail(wheel, fmt::format("{} is not a readable object: {}", entry, llvm::toString(binary.takeError())));
  std::set<std::string> names;
  llvm::object::Binary* image = binary->getBinary();
  if (const auto* macho = llvm::dyn_cast<llvm::object::MachOObjectFile>(image)) {
    add_macho_exports(*macho, names);
  } else if (const auto* universal = llvm::dyn_cast<llvm::object::MachOUniversalBinary>(image)) {
    // Every architecture of a universal library: one that any slice exports loads on that slice's Mac.
    for (const auto& slice : universal->objects()) {
      llvm::Expected<std::unique_ptr<llvm::object::MachOObjectFile>> object = slice.getAsObjectFile();
      if (!object) fail(wheel, fmt::format("{}: {}", entry, llvm::toString(object.takeError())));
      add_macho_exports(**object, names);
    }
  } else if (const auto* coff = llvm::dyn_cast<llvm::object::COFFObjectFile>(image)) {
    add_pe_exports(*coff, names);
  } else {
    fail(wheel, fmt::format("{} is neither Mach-O nor PE", entry));
  }
  if (names.empty()) fail(wheel, fmt::format("{} exports no C shim function", entry));
  return {names.begin(), names.end()};
}

}  // namespace

std::string platform_exports_file(std::string_view platform) { return fmt::format("exports.{}.json", platform); }

PlatformExports read_platform_wheel_exports(const fs::path& wheel) {
  if (!fs::is_regular_file(wheel)) fail(wheel, "no such file");
  const std::string file_name = wheel.filename().string();
  if (!file_name.ends_with(".whl")) fail(wheel, "not a wheel (the name does not end in .whl)");
  auto name = parse_wheel_file_name(file_name);
  if (!name) fail(wheel, "not a wheel's file name (name-version-python-abi-platform.whl)");
  if (name->distribution != "torch") fail(wheel, fmt::format("a wheel of {}, not of torch", name->distribution));
  std::optional<TorchVersion> release = TorchVersion::try_parse(name->version);
  if (!release) fail(wheel, fmt::format("version {} is not a torch release", name->version));
  const std::string& tag = name->platform;
  const auto* library = std::ranges::find_if(
      kPlatformLibraries, [&](const PlatformLibrary& known) { return tag.starts_with(known.tag_prefix); });
  if (library == std::end(kPlatformLibraries)) {
    fail(wheel, fmt::format("platform {} is neither macOS nor Windows (Linux's exports are exports.json, "
                            "written by `baseline --torch`)",
                            tag));
  }
  ScopedTempDir scratch("platform-exports");
  fs::path file = scratch.path() / fs::path(std::string(library->entry)).filename();
  extract_entry(wheel, library->entry, file);
  PlatformExports exports{std::string(library->platform), *release, wheel.filename().string(), {}};
  exports.exports.by_library[file.filename().string()] = read_library_exports(wheel, library->entry, file);
  return exports;
}

bool same_as_linux_cpu(const ShimExports& platform, const ShimExports& linux_exports) {
  std::set<std::string> names;
  for (const auto& [library, listed] : platform.by_library) names.insert(listed.begin(), listed.end());
  auto linux_cpu = linux_exports.by_library.find(std::string(kShimLibraries[0]));
  if (linux_cpu == linux_exports.by_library.end()) return false;
  return names == std::set<std::string>(linux_cpu->second.begin(), linux_cpu->second.end());
}

std::string platform_exports_to_json(const PlatformExports& exports) {
  nlohmann::ordered_json libraries = nlohmann::ordered_json::object();
  for (const auto& [library, names] : exports.exports.by_library) libraries[library] = names;
  nlohmann::ordered_json document = {{"release", exports.release.to_string()},
                                     {"platform", exports.platform},
                                     {"source", exports.wheel},
                                     {"libraries", libraries}};
  return document.dump(1) + "\n";
}

}  // namespace abicheck

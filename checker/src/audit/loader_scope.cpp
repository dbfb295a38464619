#include "audit/loader_scope.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "audit/package_search.h"
#include "baseline/library_exports.h"
#include "core/tool_error.h"

namespace abicheck {

namespace fs = std::filesystem;

// What every object's load into a release has already: torch's libraries, loaded by `import torch`,
// and the libraries they NEED beyond themselves, found once per release.
struct LoaderScope::ReleaseBase {
  std::vector<fs::path> directories;            // torch/lib, then the NVIDIA wheels' nvidia/*/lib
  std::set<std::string, std::less<>> loaded;    // file names of torch's libraries and of `libraries`
  std::vector<std::string> torch_libraries;     // TorchSymbolExports::libraries()
  std::vector<LoaderScope::Library> libraries;  // what torch's libraries need outside themselves
};

namespace {

// Where the release's torch finds a soname: its own lib/ and the NVIDIA wheels its RUNPATH names
// ($ORIGIN/../../nvidia/<package>/lib), then the system's loader cache.
std::optional<fs::path> locate(std::string_view soname, const std::vector<fs::path>& directories) {
  for (const auto& directory : directories) {
    std::error_code error;
    if (fs::is_regular_file(directory / soname, error)) return directory / soname;
  }
  return find_system_library(soname);
}

// A soname the release and this machine cannot show, yet the load has: the interpreter that imports
// the object brings libpython's symbols, and the driver (libcuda.so.1) comes with the machine.
bool brought_by_the_host(std::string_view soname) {
  return soname.starts_with("libpython") || soname.starts_with("libcuda.so");
}

std::vector<fs::path> release_directories(const StoredRelease& release) {
  std::vector<fs::path> directories{release.lib_dir};
  std::error_code error;
  std::vector<fs::path> nvidia;
  for (const auto& entry : fs::directory_iterator(release.torch_dir.parent_path() / "nvidia", error)) {
    if (fs::is_directory(entry.path() / "lib", error)) nvidia.push_back(entry.path() / "lib");
  }
  std::ranges::sort(nvidia);
  directories.insert(directories.end(), nvidia.begin(), nvidia.end());
  return directories;
}

}  // namespace

std::shared_ptr<const LoaderScope::ReleaseBase> LoaderScope::release_base(const StoredRelease& release,
                                                                          const TorchSymbolExports& torch) {
  static std::mutex mutex;
  static std::map<fs::path, std::shared_ptr<const ReleaseBase>> read_before;
  std::lock_guard lock(mutex);
  auto& base = read_before[release.lib_dir];
  if (base) return base;
  auto built = std::make_shared<ReleaseBase>();
  built->directories = release_directories(release);
  built->torch_libraries = torch.libraries();
  built->loaded.insert(torch.libraries().begin(), torch.libraries().end());
  std::deque<std::string> pending;
  for (const auto& library : torch.libraries()) {
    try {
      for (auto& soname : read_needed_libraries(release.lib_dir / library)) pending.push_back(std::move(soname));
    } catch (const ToolError&) {
      // TorchSymbolExports read it already; a library that vanished since adds nothing.
    }
  }
  while (!pending.empty()) {
    std::string soname = std::move(pending.front());
    pending.pop_front();
    if (!built->loaded.insert(soname).second) continue;
    std::optional<fs::path> file = locate(soname, built->directories);
    if (!file) continue;  // the driver, or a library torch loads lazily: nothing an object may count on
    try {
      auto symbols = library_symbols(*file);
      pending.insert(pending.end(), symbols->needed().begin(), symbols->needed().end());
      built->libraries.push_back({soname, std::move(symbols)});
    } catch (const ToolError&) {
      // Not an ELF object (a linker script of the same name): the loader would not take it either.
    }
  }
  base = std::move(built);
  return base;
}

LoaderScope::LoaderScope(const std::vector<std::string>& needed, const StoredRelease& release,
                         std::shared_ptr<const TorchSymbolExports> torch, const PackagePlace& place)
    : release_name_(release.version.to_full_string()),
      torch_(std::move(torch)),
      base_(release_base(release, *torch_)),
      needed_(needed) {
  // A soname and the object that NEEDs it: a library of the package looks through its own RUNPATH.
  struct Need {
    std::string soname;
    std::string entry;  // the needing object's path inside the package; "" outside it
    const std::vector<std::string>* search_path = nullptr;
  };
  std::set<std::string, std::less<>> seen;
  std::deque<Need> pending;
  for (const auto& soname : needed) pending.push_back({soname, place.entry, &place.search_path});
  auto in_package = [&](const Need& need) -> const PackageLibraries::value_type* {
    if (!place.libraries || !need.search_path || need.entry.empty()) return nullptr;
    std::optional<std::string> entry =
        find_in_package(need.entry, *need.search_path, need.soname,
                        [&](std::string_view path) { return place.libraries->contains(path); });
    return entry ? &*place.libraries->find(*entry) : nullptr;
  };
  while (!pending.empty()) {
    Need need = std::move(pending.front());
    pending.pop_front();
    // A soname already loaded is bound to that library, wherever the object would have looked.
    if (base_->loaded.contains(need.soname) || !seen.insert(need.soname).second) continue;
    if (const auto* library = in_package(need)) {
      for (const auto& soname : library->second.symbols->needed()) {
        pending.push_back({soname, library->first, &library->second.search_path});
      }
      own_.push_back({need.soname, library->second.symbols});
      continue;
    }
    std::optional<fs::path> file = locate(need.soname, base_->directories);
    std::shared_ptr<const LibrarySymbols> symbols;
    if (file) {
      try {
        symbols = library_symbols(*file);
      } catch (const ToolError&) {
      }
    }
    if (!symbols) {
      if (!brought_by_the_host(need.soname)) unresolved_.push_back(need.soname);
      continue;
    }
    for (const auto& soname : symbols->needed()) pending.push_back({soname, "", nullptr});
    own_.push_back({need.soname, std::move(symbols)});
  }
}

bool LoaderScope::defined_outside_torch(std::string_view symbol) const {
  auto defines = [&](const Library& library) { return library.symbols->exports(symbol); };
  return std::ranges::any_of(own_, defines) || std::ranges::any_of(base_->libraries, defines);
}

std::string LoaderScope::searched() const {
  // The object's own NEEDED first (what its author linked), then what else the load reaches.
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::ranges::find(names, name) == names.end()) names.push_back(name);
  };
  for (const auto& soname : needed_) add(soname);
  for (const auto& library : own_) add(library.soname);
  for (const auto& library : base_->torch_libraries) add(library);
  for (const auto& library : base_->libraries) add(library.soname);
  // A CUDA release's load reaches some 40 libraries; the first ones say where the symbol was meant to be.
  constexpr std::size_t kShown = 12;
  std::string more = names.size() > kShown ? fmt::format(" (+{} more)", names.size() - kShown) : "";
  names.resize(std::min(names.size(), kShown));
  return fmt::format("{}{}", fmt::join(names, ", "), more);
}

}  // namespace abicheck

#include "audit/binary_audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "audit/elf_reader.h"
#include "audit/mapped_file.h"
#include "audit/operator_uses.h"
#include "audit/wheel_reader.h"
#include "baseline/library_symbols.h"
#include "core/file_text.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "core/wheel_file_name.h"

namespace abicheck {
namespace {

std::optional<TorchVersion> parse_marker_value(std::string value) {
  // A marker written from the macro may carry an integer suffix: 0x020A000000000000ULL.
  while (!value.empty() && (value.back() == 'U' || value.back() == 'L' || value.back() == 'u' || value.back() == 'l')) {
    value.pop_back();
  }
  return TorchVersion::try_parse(value);
}

std::string unstable_summary(const std::vector<ClassifiedSymbol>& unstable) {
  std::map<std::string, int> by_namespace;
  for (const auto& symbol : unstable) ++by_namespace[symbol.group];
  std::vector<std::string> parts;
  for (const auto& [space, count] : by_namespace) parts.push_back(fmt::format("{}: {}", space, count));
  return fmt::format("imports {} unstable libtorch C++ symbol{} ({})", unstable.size(), unstable.size() == 1 ? "" : "s",
                     fmt::join(parts, ", "));
}

// Applies the object allowlist and the declared target, then decides the verdict.
void decide_verdict(ObjectAudit& object, const AuditOptions& options) {
  if (options.allowlist && !object.unstable.empty()) {
    if (const SuppressionEntry* entry = options.allowlist->match_object(object.path)) {
      object.allowed_object_reason = entry->reason;
      for (auto& symbol : object.unstable) object.allowed.emplace_back(std::move(symbol), entry->reason);
      object.unstable.clear();
    }
  }
  object.reasons.clear();
  object.verdict = AuditVerdict::Stable;
  if (options.operators) {
    // The releases it claims begin where its loads do (assess_release_load): its declared target, else
    // the newest release among its imported shims.
    judge_operator_uses(
        object.operators, *options.operators,
        object.declared_target ? std::optional(object.declared_target->version) : object.min_torch_to_load);
  }
  if (!object.unstable.empty()) object.reasons.push_back(unstable_summary(object.unstable));
  for (const auto& shim : object.shims) {
    if (!shim.introduced && !shim.dynamic_lookup) {
      object.reasons.push_back(fmt::format("imports {}, which no known torch release declares", shim.name));
    }
  }
  if (!object.abi3_violations.empty()) {
    object.reasons.push_back(fmt::format("tagged abi3 but imports Python API outside the limited API: {}",
                                         fmt::join(object.abi3_violations, ", ")));
  }
  if (!object.reasons.empty()) {
    object.verdict = AuditVerdict::Unstable;
    return;
  }
  if (object.declared_target && object.min_torch_to_load &&
      *object.min_torch_to_load > object.declared_target->version) {
    std::vector<std::string> newer;
    for (const auto& shim : object.shims) {
      if (!shim.dynamic_lookup && shim.introduced && *shim.introduced > object.declared_target->version) {
        newer.push_back(fmt::format("{} ({})", shim.name, shim.introduced->to_string()));
      }
    }
    object.verdict = AuditVerdict::NeedsNewerTorch;
    object.reasons.push_back(fmt::format(
        "needs torch {} but declares {} ({}): {}", object.min_torch_to_load->to_string(),
        object.declared_target->version.to_string(), object.declared_target->source, fmt::join(newer, ", ")));
  }
}

// The stricter (older) of two declared targets: a binary must load on the oldest torch it claims.
void declare(std::optional<DeclaredTarget>& current, const std::optional<DeclaredTarget>& other) {
  if (!other) return;
  if (!current || other->version < current->version) current = other;
}

std::string normalized_project_name(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return c == '-' || c == '.' ? '_' : static_cast<char>(std::tolower(c)); });
  return name;
}

// An installed package directory (site-packages/torchaudio) declares its torch requirement in the
// sibling dist-info of the same project.
std::optional<DeclaredTarget> installed_package_target(const std::filesystem::path& directory) {
  std::error_code error;
  std::string wanted = normalized_project_name(directory.filename().string());
  for (const auto& entry : std::filesystem::directory_iterator(directory.parent_path(), error)) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".dist-info") || normalized_project_name(name.substr(0, name.find('-'))) != wanted) continue;
    std::ifstream metadata(entry.path() / "METADATA");
    for (std::string line; std::getline(metadata, line);) {
      if (!line.starts_with("Requires-Dist:") || line.find("extra") != std::string::npos) continue;
      std::string requirement = line.substr(std::string_view("Requires-Dist:").size());
      if (auto bound = torch_lower_bound_of_requirement(requirement)) {
        return DeclaredTarget{*bound, fmt::format("Requires-Dist:{}", requirement)};
      }
    }
  }
  return std::nullopt;
}

// An installed package directory records its toolkit the way its wheel did: <package>/version.py.
std::optional<RecordedToolkit> installed_package_toolkit(const std::filesystem::path& directory) {
  std::error_code error;
  const std::filesystem::path version_py = directory / "version.py";
  if (!std::filesystem::is_regular_file(version_py, error)) return std::nullopt;
  return toolkit_recorded_in((directory.filename() / "version.py").string(), read_file_text(version_py));
}

// What a wheel's platform tags judge of its ELF objects.
std::vector<PlatformObject> platform_objects(const std::vector<ObjectAudit*>& objects) {
  std::vector<PlatformObject> judged;
  for (const ObjectAudit* object : objects) {
    if (object->format != BinaryFormat::Elf) continue;
    PlatformObject platform{
        object->path, object->machine, object->needed, object->library_search_path, object->version_needs, {}};
    for (const auto& symbol : object->imports) platform.imported.push_back(symbol.name);
    judged.push_back(std::move(platform));
  }
  return judged;
}

class Auditor {
 public:
  Auditor(const ShimCatalog& catalog, const AuditOptions& options) : catalog_(catalog), options_(options) {}

  void audit_input(const std::filesystem::path& input) {
    std::error_code error;
    auto status = std::filesystem::status(input, error);
    if (error || !std::filesystem::exists(status)) {
      fail(input.string(), "no such file or directory");
    } else if (std::filesystem::is_directory(status)) {
      audit_directory(input);
    } else if (input.extension() == ".whl") {
      audit_wheel(input);
    } else if (input.extension() == ".pt2") {
      audit_pt2(input, input.string());
    } else {
      audit_file(input, std::nullopt, std::nullopt);
    }
  }

  AuditReport finish() {
    auto by_path = [](const auto& a, const auto& b) { return a.path < b.path; };
    std::sort(report_.binaries.begin(), report_.binaries.end(), by_path);
    std::sort(report_.wheels.begin(), report_.wheels.end(), by_path);
    std::sort(report_.pt2_packages.begin(), report_.pt2_packages.end(), by_path);
    std::sort(report_.failures.begin(), report_.failures.end(), by_path);
    if (options_.allowlist) report_.suppression_problems = options_.allowlist->problems();
    return std::move(report_);
  }

 private:
  void fail(std::string path, std::string problem) {
    report_.failures.push_back({std::move(path), std::move(problem)});
  }

  // The per-release verdicts come last: they read the final declared target and verdict.
  void add_release_loads(ObjectAudit& object, const PackageLibraries* package = nullptr) const {
    for (const auto& release : options_.releases) {
      object.loads.push_back(assess_release_load(object, release, package));
    }
  }

  void audit_directory(const std::filesystem::path& directory) {
    std::optional<DeclaredTarget> package_target = installed_package_target(directory);
    std::optional<RecordedToolkit> package_toolkit = installed_package_toolkit(directory);
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(
             directory, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      // A versioned library and its symlinks are one object: audit the file, not every name of it.
      if (it->is_symlink() || !it->is_regular_file()) continue;
      files.push_back(it->path());
    }
    if (error) fail(directory.string(), fmt::format("cannot read directory: {}", error.message()));
    std::sort(files.begin(), files.end());
    const std::size_t first_object = report_.binaries.size();
    std::size_t found = 0;
    for (const auto& file : files) {
      if (file.extension() == ".whl") {
        ++found;
        audit_wheel(file);
      } else if (file.extension() == ".pt2") {
        ++found;
        audit_pt2(file, file.string());
      } else if (starts_with_binary_magic(file)) {
        ++found;
        audit_file(file, package_target, package_toolkit);
      }
    }
    if (found == 0) fail(directory.string(), "no ELF, Mach-O or PE object, wheel or .pt2 package in this directory");
    // The objects of the directory itself (a wheel in it is a package of its own, joined already).
    std::vector<ObjectAudit*> package;
    for (std::size_t i = first_object; i < report_.binaries.size(); ++i) {
      if (report_.binaries[i].wheel.empty()) package.push_back(&report_.binaries[i]);
    }
    add_bundled_dependency_misfits(package);
  }

  static bool starts_with_binary_magic(const std::filesystem::path& file) {
    char head[8] = {};
    std::ifstream stream(file, std::ios::binary);
    stream.read(head, sizeof head);
    return binary_format_of(std::span<const char>(head, static_cast<std::size_t>(stream.gcount()))).has_value();
  }

  void audit_file(const std::filesystem::path& file, const std::optional<DeclaredTarget>& package_target,
                  const std::optional<RecordedToolkit>& package_toolkit) {
    try {
      MappedFile mapped(file);
      for (ObjectAudit& object : audit_binary_image(mapped.bytes(), file.string(), catalog_, options_, false)) {
        if (!options_.target) declare(object.declared_target, package_target);
        if (object.device.uses_device()) object.device.recorded = package_toolkit;
        decide_verdict(object, options_);
        add_release_loads(object);
        report_.binaries.push_back(std::move(object));
      }
    } catch (const BinaryReadError& error) {
      fail(file.string(), error.what());
    } catch (const ToolError& error) {
      // MappedFile's messages already start with the path.
      std::string message = error.what();
      std::string prefix = file.string() + ": ";
      fail(file.string(), message.starts_with(prefix) ? message.substr(prefix.size()) : message);
    }
  }

  // The newest minimums and the worst verdict of report_.binaries[first, last); returns how many.
  std::size_t roll_up(std::size_t first, std::size_t last, std::optional<TorchVersion>& min_torch,
                      std::optional<TorchVersion>& min_torch_to_load, AuditVerdict& verdict) const {
    auto rank = [](AuditVerdict v) {
      return v == AuditVerdict::Unstable ? 2 : v == AuditVerdict::NeedsNewerTorch ? 1 : 0;
    };
    for (std::size_t i = first; i < last; ++i) {
      const ObjectAudit& object = report_.binaries[i];
      for (auto [object_min, rolled] :
           {std::pair{&object.min_torch, &min_torch}, std::pair{&object.min_torch_to_load, &min_torch_to_load}}) {
        if (*object_min && (!*rolled || **object_min > **rolled)) *rolled = *object_min;
      }
      if (rank(object.verdict) > rank(verdict)) verdict = object.verdict;
    }
    return last - first;
  }

  static void copy_entry(EntryStream& entry, const std::filesystem::path& destination) {
    std::ofstream out(destination, std::ios::binary);
    std::vector<char> buffer(1 << 20);
    entry.rewind();
    while (std::size_t got = entry.read(buffer)) out.write(buffer.data(), static_cast<std::streamsize>(got));
    if (!out.flush()) throw WheelReadError(fmt::format("cannot write a copy of it to {}", destination.string()));
  }

  // A .pt2 package: its records, then each compiled object audited as an extension's. An object the
  // audit cannot read is a problem of the package (a finding), not a failure of the input.
  void audit_pt2(const std::filesystem::path& file, const std::string& shown) {
    Pt2PackageAudit package{shown};
    std::size_t first_object = report_.binaries.size();
    try {
      WheelReader reader = WheelReader::open_file(file);
      package.contents = read_pt2_contents(reader);
      reader.for_each_binary_entry([&](const std::string& name, EntryStream& entry) {
        try {
          for (ObjectAudit& object : audit_binary_objects(read_binary_imports(entry), fmt::format("{}!{}", shown, name),
                                                          catalog_, options_, false)) {
            decide_verdict(object, options_);
            add_release_loads(object);
            package.objects.push_back(object.path);
            report_.binaries.push_back(std::move(object));
          }
        } catch (const BinaryReadError& error) {
          package.contents.problems.push_back(fmt::format("{}: cannot be read: {}", name, error.what()));
        }
      });
    } catch (const WheelReadError& error) {
      std::string problem = error.what();
      if (problem.starts_with("not a readable wheel")) problem.replace(0, 20, "not a readable .pt2 package");
      fail(shown, problem);
      return;
    }
    roll_up(first_object, report_.binaries.size(), package.min_torch, package.min_torch_to_load, package.verdict);
    report_.pt2_packages.push_back(std::move(package));
  }

  void audit_wheel(const std::filesystem::path& file) {
    WheelAudit wheel{file.string()};
    std::size_t first_object = report_.binaries.size();
    std::size_t last_object = first_object;
    std::size_t packages = 0;
    std::set<std::string, std::less<>> entries;  // every path inside the wheel
    PackageLibraries libraries;                  // its ELF objects, by path inside it
    try {
      WheelReader reader = WheelReader::open_file(file);
      for (auto& name : reader.file_names()) entries.insert(std::move(name));
      reader.apply_file_name_tags(file.filename().string());
      const WheelMetadata& metadata = reader.metadata();
      wheel.abi3 = metadata.abi3;
      wheel.import_checks = metadata.import_checks;
      if (options_.target) {
        wheel.declared_target = DeclaredTarget{*options_.target, "--target"};
      } else if (metadata.torch_lower_bound) {
        wheel.declared_target =
            DeclaredTarget{*metadata.torch_lower_bound, fmt::format("Requires-Dist: {}", metadata.torch_requirement)};
      }
      reader.for_each_binary_entry([&](const std::string& name, EntryStream& entry) {
        std::string path = fmt::format("{}!{}", file.string(), name);
        try {
          std::vector<BinaryImports> read = read_binary_imports(entry);
          // What the wheel's other objects bind to where their RUNPATH leads here (its symbols, digested).
          if (read.size() == 1 && read.front().format == BinaryFormat::Elf) {
            BinaryImports& elf = read.front();
            libraries[name] = {
                std::make_shared<const LibrarySymbols>(LibrarySymbols::of(elf.needed, std::move(elf.exported))),
                elf.library_search_path};
          }
          for (ObjectAudit& object : audit_binary_objects(read, path, catalog_, options_, metadata.abi3)) {
            object.wheel = file.string();
            if (!options_.target) declare(object.declared_target, wheel.declared_target);
            if (object.device.uses_device()) object.device.recorded = metadata.recorded_toolkit;
            decide_verdict(object, options_);
            report_.binaries.push_back(std::move(object));
          }
        } catch (const BinaryReadError& error) {
          fail(path, error.what());
        }
      });
      last_object = report_.binaries.size();
      // A model shipped in the wheel: copied out (streamed) to be opened as the archive it is.
      reader.for_each_entry_ending(".pt2", [&](const std::string& name, EntryStream& entry) {
        ++packages;
        ScopedTempDir scratch("torch-abi-check-pt2");
        std::filesystem::path copy = scratch.path() / "package.pt2";
        copy_entry(entry, copy);
        audit_pt2(copy, fmt::format("{}!{}", file.string(), name));
      });
    } catch (const WheelReadError& error) {
      fail(file.string(), error.what());
      return;
    }
    // The wheel's own objects (a .pt2 model in it is a package of its own).
    std::vector<ObjectAudit*> package;
    for (std::size_t i = first_object; i < last_object; ++i) package.push_back(&report_.binaries[i]);
    // Once every object is read: an object's load reaches the wheel's libraries its RUNPATH leads to.
    for (ObjectAudit* object : package) add_release_loads(*object, &libraries);
    add_bundled_dependency_misfits(package);
    if (auto name = parse_wheel_file_name(file.filename().string())) {
      wheel.platform_misfits = judge_platform_tags(name->platform, platform_objects(package), entries);
    }
    wheel.object_count = roll_up(first_object, last_object, wheel.min_torch, wheel.min_torch_to_load, wheel.verdict);
    if (wheel.object_count == 0) {
      if (packages == 0) fail(file.string(), "the wheel holds no ELF, Mach-O or PE object and no .pt2 package");
      return;
    }
    report_.wheels.push_back(std::move(wheel));
  }

  const ShimCatalog& catalog_;
  const AuditOptions& options_;
  AuditReport report_;
};

}  // namespace

std::string_view to_string(AuditVerdict verdict) {
  switch (verdict) {
    case AuditVerdict::Stable: return "stable";
    case AuditVerdict::Unstable: return "unstable";
    case AuditVerdict::NeedsNewerTorch: return "needs-newer-torch";
  }
  return "unstable";
}

namespace {

// "@rpath/libtorch_cpu.dylib" -> "libtorch_cpu.dylib"; ELF sonames and PE DLL names have no directory.
std::string_view library_file_name(std::string_view library) {
  std::size_t slash = library.find_last_of('/');
  return slash == std::string_view::npos ? library : library.substr(slash + 1);
}

// Whether a needed library is torch's `name` library: libNAME.so.*, libNAME.dylib, NAME.dll.
bool is_torch_library(std::string_view library, std::string_view name) {
  std::string_view file = library_file_name(library);
  if (file.starts_with("lib")) file.remove_prefix(3);
  return file.starts_with(name) && (file.size() == name.size() || file[name.size()] == '.');
}

ObjectAudit audit_imports(const BinaryImports& imports, std::string path, const ShimCatalog& catalog,
                          const AuditOptions& options, bool abi3) {
  ObjectAudit object;
  object.path = std::move(path);
  object.format = imports.format;
  object.machine = imports.machine;
  object.soname = imports.soname;
  object.needed = imports.needed;
  object.version_needs = imports.version_needs;
  object.library_search_path = imports.library_search_path;
  for (const auto& library : imports.needed) {
    if (auto device = parse_device_library(library)) object.device.libraries.push_back(std::move(*device));
    // A CUDA extension that links its runtime statically still NEEDs torch's own device libraries.
    for (std::string_view torch_device : {"torch_cuda", "c10_cuda", "torch_hip", "c10_hip"}) {
      if (is_torch_library(library, torch_device)) object.device.links_torch_device_library = true;
    }
  }
  object.stripped = !imports.has_symtab;
  std::set<std::string, std::less<>> imported_names;
  // A plain C name that no rule places, in an object linked against libtorch_python, comes from
  // libtorch_python: torch's own _C module imports initModule that way.
  bool links_libtorch = std::any_of(imports.needed.begin(), imports.needed.end(), [](const std::string& library) {
    return is_torch_library(library, "torch_python");
  });
  for (const auto& symbol : imports.undefined) {
    ClassifiedSymbol classified = classify_import(symbol, catalog);
    if (links_libtorch && classified.category == SymbolCategory::Unknown && !symbol.weak &&
        !symbol.name.starts_with("_") && classified.group.empty()) {
      // A symbol is torch's only when no system runtime defines it: an unversioned shm_open (librt's
      // before glibc 2.34, libc's since) is the system's, however the object was linked.
      if (std::string runtime = system_runtime_library_defining(symbol.name); !runtime.empty()) {
        classified.category = SymbolCategory::System;
        classified.group = runtime;
      } else {
        classified.category = SymbolCategory::UnstableTorch;
        classified.group = kTorchCLinkageGroup;
      }
    }
    imported_names.insert(symbol.name);
    if (classified.category == SymbolCategory::StableShim) {
      ShimUse use{classified.name, classified.introduced, false, classified.library};
      if (use.introduced) {
        use.not_exported_by = catalog.releases_not_exporting(platform_of(imports.format), use.name, *use.introduced);
      }
      object.shims.push_back(std::move(use));
    } else if (classified.category == SymbolCategory::UnstableTorch) {
      const SuppressionEntry* entry =
          options.allowlist ? options.allowlist->match_symbol(classified.name, classified.demangled) : nullptr;
      if (entry) object.allowed.emplace_back(classified, entry->reason);
      else object.unstable.push_back(classified);
    } else if (classified.category == SymbolCategory::PythonCApi && abi3 && !is_limited_python_api(classified.name)) {
      object.abi3_violations.push_back(classified.name);
    }
    object.imports.push_back(std::move(classified));
  }
  for (const auto& candidate : imports.symbol_like_strings) {
    const ShimOrigin* origin = catalog.find(candidate);
    if (origin && !imported_names.contains(candidate)) object.shims.push_back({candidate, origin->introduced, true});
  }
  std::sort(object.shims.begin(), object.shims.end());
  if (options.operators && reaches_dispatcher_by_name(imports)) {
    object.operators = find_operator_uses(imports, *options.operators);
  }
  for (const auto& use : object.operators) {
    if (use.introduced && (!object.min_torch || *use.introduced > *object.min_torch)) object.min_torch = use.introduced;
  }
  // A shim looked up by name at run time is optional, not a minimum: torch's own headers look the newer
  // error shims up with dlsym and fall back when a release lacks them (probed: bench/HISTORY.md).
  for (const auto& shim : object.shims) {
    if (!shim.introduced || shim.dynamic_lookup) continue;
    if (!object.min_torch || *shim.introduced > *object.min_torch) object.min_torch = shim.introduced;
    if (!object.min_torch_to_load || *shim.introduced > *object.min_torch_to_load) {
      object.min_torch_to_load = shim.introduced;
    }
  }
  if (options.target) {
    object.declared_target = DeclaredTarget{*options.target, "--target"};
  } else if (imports.target_marker) {
    if (auto version = parse_marker_value(*imports.target_marker)) {
      object.declared_target =
          DeclaredTarget{*version, fmt::format("marker {}{}", kTargetMarkerPrefix, *imports.target_marker)};
    }
  }
  decide_verdict(object, options);
  return object;
}

}  // namespace

std::vector<ObjectAudit> audit_binary_image(std::span<char> image, const std::string& path, const ShimCatalog& catalog,
                                            const AuditOptions& options, bool abi3) {
  return audit_binary_objects(read_binary_imports(image), path, catalog, options, abi3);
}

std::vector<ObjectAudit> audit_binary_objects(const std::vector<BinaryImports>& objects, const std::string& path,
                                              const ShimCatalog& catalog, const AuditOptions& options, bool abi3) {
  std::vector<ObjectAudit> audits;
  for (const auto& imports : objects) {
    std::string object_path = imports.slice.empty() ? path : fmt::format("{}[{}]", path, imports.slice);
    audits.push_back(audit_imports(imports, std::move(object_path), catalog, options, abi3));
  }
  return audits;
}

AuditReport audit_paths(const std::vector<std::filesystem::path>& inputs, const ShimCatalog& catalog,
                        const AuditOptions& options) {
  Auditor auditor(catalog, options);
  for (const auto& input : inputs) auditor.audit_input(input);
  return auditor.finish();
}

}  // namespace abicheck

#include "report/audit_render.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <nlohmann/json.hpp>

#include "audit/audit_judgement.h"
#include "report/suppression_render.h"

namespace abicheck {
namespace {

nlohmann::json optional_version(const std::optional<TorchVersion>& version) {
  return version ? nlohmann::json(version->to_string()) : nlohmann::json(nullptr);
}

nlohmann::json device_json(const DeviceNeeds& device) {
  nlohmann::json libraries = nlohmann::json::array();
  for (const auto& library : device.libraries) {
    libraries.push_back({{"soname", library.soname},
                         {"family", library.family},
                         {"toolkit", to_string(library.toolkit)},
                         {"major", library.major ? nlohmann::json(*library.major) : nlohmann::json(nullptr)},
                         {"bundled_copy", library.bundled_copy}});
  }
  auto toolkit = device.toolkit();
  return {{"toolkit", toolkit ? nlohmann::json(toolkit->to_string()) : nlohmann::json(nullptr)},
          {"libraries", libraries},
          {"recorded", device.recorded ? nlohmann::json{{"version", device.recorded->version.to_string()},
                                                        {"source", device.recorded->source}}
                                       : nlohmann::json(nullptr)}};
}

nlohmann::json release_load_json(const ReleaseLoad& load) {
  nlohmann::json misfits = nlohmann::json::array();
  for (const auto& misfit : load.device_misfits) {
    misfits.push_back({{"need", misfit.need},
                       {"has", misfit.has},
                       {"blocks_load", misfit.blocks_load},
                       {"other_build_may_fit", misfit.other_build_may_fit}});
  }
  return {{"release", load.release.to_full_string()},
          {"runtime", load.runtime},
          {"claimed", load.claimed},
          {"loads", load.loads()},
          {"torch_symbols_fit", load.torch_symbols_fit()},
          {"device_runtime_fits", load.device_runtime_fits()},
          {"torch_misfits", load.torch_misfits},
          {"device_misfits", misfits}};
}

// One line per stored release, or one for all when the object loads into every release it claims.
std::string release_loads_text(const ObjectAudit& object) {
  if (object.loads.empty()) return "";
  std::vector<std::string> claimed;
  bool all_load = true;
  for (const auto& load : object.loads) {
    if (!load.claimed) continue;
    claimed.push_back(load.release.to_string());
    // An unstable object that loads gets a line per release: what it rests on is the release's exports.
    all_load = all_load && load.loads() && load.device_misfits.empty() && !load.torch_cxx_all_exported();
  }
  if (all_load) {
    return claimed.empty() ? "  stored releases: none at or above what it declares\n"
                           : fmt::format("  loads into stored torch {}\n", fmt::join(claimed, ", "));
  }
  std::string out = "  stored releases:\n";
  bool other_build_may_fit = false;
  for (const auto& load : object.loads) {
    std::string state = !load.claimed
                            ? (object.declared_target ? "below its declared target" : "below its minimum torch")
                        : load.loads() ? "loads"
                                       : "does not load";
    for (const auto& misfit : load.device_misfits) {
      other_build_may_fit = other_build_may_fit || (load.claimed && misfit.blocks_load && misfit.other_build_may_fit);
    }
    std::vector<std::string> why = load.torch_misfits;
    for (const auto& misfit : load.device_misfits) {
      why.push_back(fmt::format("{}{}; torch {} ships {}", misfit.blocks_load ? "" : "note: ", misfit.need,
                                load.release.to_string(), misfit.has));
    }
    if (load.claimed && load.torch_cxx_all_exported()) {
      why.insert(why.begin(), fmt::format("imports libtorch's C++ ABI; every symbol of it that it imports ({}) is "
                                          "exported by torch {}",
                                          load.torch_cxx_imports, load.release.to_full_string()));
    }
    out += fmt::format("    {:<8} {:<10} {}{}\n", load.release.to_full_string(), load.runtime, state,
                       !load.claimed || why.empty() ? "" : fmt::format(": {}", fmt::join(why, "; ")));
  }
  if (other_build_may_fit) {
    out += "    (a build of those releases for its toolkit may exist on another index: torch publishes several)\n";
  }
  return out;
}

std::string device_text(const DeviceNeeds& device) {
  std::vector<std::string> libraries;
  for (const auto& library : device.libraries) {
    libraries.push_back(library.bundled_copy ? library.soname + " (bundled)" : library.soname);
  }
  if (libraries.empty() && !device.recorded) return "";
  auto toolkit = device.toolkit();
  std::string out = fmt::format("  device runtime: {}", toolkit ? toolkit->to_string() : "-");
  if (!libraries.empty()) out += fmt::format(" ({})", fmt::join(libraries, ", "));
  if (device.recorded)
    out += fmt::format("; recorded {} in {}", device.recorded->version.to_string(), device.recorded->source);
  return out + "\n";
}

nlohmann::json binary_json(const ObjectAudit& object) {
  nlohmann::json unstable = nlohmann::json::array();
  for (const auto& symbol : object.unstable) {
    unstable.push_back({{"name", symbol.name},
                        {"demangled", symbol.demangled},
                        {"namespace", symbol.group},
                        {"library", symbol.library}});
  }
  nlohmann::json allowed = nlohmann::json::array();
  for (const auto& [symbol, reason] : object.allowed) {
    allowed.push_back({{"name", symbol.name}, {"demangled", symbol.demangled}, {"reason", reason}});
  }
  nlohmann::json shims = nlohmann::json::array();
  for (const auto& shim : object.shims) {
    shims.push_back({{"name", shim.name},
                     {"since", optional_version(shim.introduced)},
                     {"use", shim.dynamic_lookup ? "dlsym" : "import"},
                     {"library", shim.library}});
  }
  nlohmann::json operators = nlohmann::json::array();
  for (const auto& use : object.operators) {
    nlohmann::json breaks = nlohmann::json::array();
    for (const auto& broken : use.breaks) {
      breaks.push_back({{"release", broken.release.to_string()}, {"problem", broken.problem}});
    }
    operators.push_back({{"name", use.name},
                         {"overloads", use.overloads},
                         {"since", optional_version(use.introduced)},
                         {"breaks", breaks}});
  }
  nlohmann::json releases = nlohmann::json::array();
  for (const auto& load : object.loads) releases.push_back(release_load_json(load));
  std::map<std::string, nlohmann::json> by_category;
  for (const auto& symbol : object.imports) {
    auto& list = by_category[std::string(to_string(symbol.category))];
    if (list.is_null()) list = nlohmann::json::array();
    list.push_back(symbol.name);
  }
  return {
      {"path", object.path},
      {"wheel", object.wheel.empty() ? nlohmann::json(nullptr) : nlohmann::json(object.wheel)},
      {"verdict", to_string(object.verdict)},
      {"min_torch", optional_version(object.min_torch)},
      {"min_torch_to_load", optional_version(object.min_torch_to_load)},
      {"declared_target",
       object.declared_target ? nlohmann::json(object.declared_target->version.to_string()) : nullptr},
      {"declared_target_source", object.declared_target ? nlohmann::json(object.declared_target->source) : nullptr},
      {"format", to_string(object.format)},
      {"platform", platform_of(object.format)},
      {"machine", object.machine},
      {"stripped", object.stripped},
      {"needed", object.needed},
      {"unstable_symbols", unstable},
      {"allowed_symbols", allowed},
      {"shim_symbols", shims},
      {"operators", operators},
      {"abi3_violations", object.abi3_violations},
      {"imports", by_category},
      {"reasons", object.reasons},
      {"device", device_json(object.device)},
      {"releases", releases},
  };
}

nlohmann::json optional_text(const std::optional<std::string>& text) {
  return text ? nlohmann::json(*text) : nlohmann::json(nullptr);
}

nlohmann::json pt2_package_json(const Pt2PackageAudit& package) {
  nlohmann::json models = nlohmann::json::array();
  for (const auto& model : package.contents.models) {
    models.push_back({{"name", model.name},
                      {"device", model.device},
                      {"platform", model.platform},
                      {"machine", model.machine},
                      {"cpu_isa", model.cpu_isa},
                      {"compute_capability", model.compute_capability},
                      {"objects", model.objects},
                      {"sources", model.sources}});
  }
  return {{"path", package.path},
          {"archive_format", optional_text(package.contents.archive_format)},
          {"archive_version", optional_text(package.contents.archive_version)},
          {"serialization_version", optional_text(package.contents.serialization_version)},
          {"models", models},
          {"objects", package.objects},
          {"verdict", to_string(package.verdict)},
          {"min_torch", optional_version(package.min_torch)},
          {"min_torch_to_load", optional_version(package.min_torch_to_load)},
          {"problems", package.contents.problems}};
}

std::string pt2_package_text(const Pt2PackageAudit& package) {
  const Pt2Contents& contents = package.contents;
  std::vector<std::string> models;
  for (const auto& model : contents.models) {
    std::vector<std::string> facts{model.device.empty() ? "device not recorded" : model.device};
    for (const std::string* fact : {&model.platform, &model.machine, &model.compute_capability}) {
      if (!fact->empty()) facts.push_back(*fact);
    }
    if (!model.cpu_isa.empty()) facts.push_back(fmt::format("compiled for CPUs with {}", model.cpu_isa));
    facts.push_back(fmt::format("{} object{}", model.objects.size(), model.objects.size() == 1 ? "" : "s"));
    models.push_back(fmt::format("{} ({})", model.name.empty() ? "(unnamed)" : model.name, fmt::join(facts, ", ")));
  }
  std::string out = fmt::format("package {}: {} ({} objects), {}\n  format {} version {}; models: {}\n", package.path,
                                to_string(package.verdict), package.objects.size(),
                                min_torch_text(package.min_torch, package.min_torch_to_load),
                                contents.archive_format.value_or("?"), contents.archive_version.value_or("?"),
                                models.empty() ? "none" : fmt::format("{}", fmt::join(models, "; ")));
  for (const auto& problem : contents.problems) out += fmt::format("  not fully read: {}\n", problem);
  return out;
}

std::string describe_declared(const std::optional<DeclaredTarget>& target) {
  return target ? fmt::format("{} ({})", target->version.to_string(), target->source) : "none";
}

}  // namespace

nlohmann::json audit_section(const AuditReport& report) {
  nlohmann::json binaries = nlohmann::json::array();
  for (const auto& object : report.binaries) binaries.push_back(binary_json(object));
  nlohmann::json wheels = nlohmann::json::array();
  for (const auto& wheel : report.wheels) {
    wheels.push_back({{"path", wheel.path},
                      {"verdict", to_string(wheel.verdict)},
                      {"min_torch", optional_version(wheel.min_torch)},
                      {"min_torch_to_load", optional_version(wheel.min_torch_to_load)},
                      {"declared_target",
                       wheel.declared_target ? nlohmann::json(wheel.declared_target->version.to_string()) : nullptr},
                      {"abi3", wheel.abi3},
                      {"objects", wheel.object_count}});
  }
  nlohmann::json packages = nlohmann::json::array();
  for (const auto& package : report.pt2_packages) packages.push_back(pt2_package_json(package));
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& failure : report.failures)
    failures.push_back({{"path", failure.path}, {"problem", failure.problem}});
  nlohmann::json document = {{"binaries", binaries},
                             {"wheels", wheels},
                             {"pt2_packages", packages},
                             {"errors", failures},
                             {"suppression_problems", suppression_problems_json(report.suppression_problems)}};
  return document;
}

std::string min_torch_text(const std::optional<TorchVersion>& min_torch,
                           const std::optional<TorchVersion>& min_torch_to_load) {
  auto shown = [](const std::optional<TorchVersion>& version) { return version ? version->to_string() : "-"; };
  return fmt::format("min torch {} (to load: {})", shown(min_torch), shown(min_torch_to_load));
}

std::string render_audit_text(const AuditReport& report, bool verbose) {
  std::string out;
  for (const auto& object : report.binaries) {
    out += fmt::format("{}: {}{}\n", object.path, to_string(object.verdict),
                       object.format == BinaryFormat::Elf ? ""
                                                          : fmt::format(" ({} {}, {})", platform_of(object.format),
                                                                        object.machine, to_string(object.format)));
    out += fmt::format("  {}, declared target {}\n", min_torch_text(object.min_torch, object.min_torch_to_load),
                       describe_declared(object.declared_target));
    std::map<std::optional<TorchVersion>, int> shims_by_release;
    std::vector<std::string> dynamic;
    for (const auto& shim : object.shims) {
      std::string release = shim.introduced ? shim.introduced->to_string() : "unknown";
      if (shim.dynamic_lookup) dynamic.push_back(fmt::format("{} ({})", shim.name, release));
      else ++shims_by_release[shim.introduced];
    }
    std::vector<std::string> release_counts;
    for (const auto& [release, count] : shims_by_release) {
      release_counts.push_back(fmt::format("{}: {}", release ? release->to_string() : "unknown", count));
    }
    out += fmt::format("  stable shims imported: {}{}\n", object.shims.size() - dynamic.size(),
                       release_counts.empty() ? "" : fmt::format(" ({})", fmt::join(release_counts, ", ")));
    if (!dynamic.empty()) out += fmt::format("  shims looked up by name (dlsym): {}\n", fmt::join(dynamic, ", "));
    if (!object.operators.empty()) {
      std::vector<std::string> names;
      for (const auto& use : object.operators) names.push_back(use.name);
      out += fmt::format("  operators called through the dispatcher: {}\n", fmt::join(names, ", "));
    }
    for (const auto& use : object.operators) {
      for (const auto& broken : use.breaks) {
        out +=
            fmt::format("  operator {} breaks on torch {}: {}\n", use.name, broken.release.to_string(), broken.problem);
      }
    }
    for (const auto& reason : object.reasons) out += fmt::format("  why: {}\n", reason);
    out += device_text(object.device);
    out += release_loads_text(object);
    std::map<std::string, std::vector<std::string>> unstable_by_namespace;
    for (const auto& symbol : object.unstable) unstable_by_namespace[symbol.group].push_back(symbol.demangled);
    for (const auto& [space, names] : unstable_by_namespace) {
      out += fmt::format("  unstable {} ({}):\n", space, names.size());
      std::size_t shown = verbose ? names.size() : std::min<std::size_t>(names.size(), 5);
      for (std::size_t i = 0; i < shown; ++i) out += fmt::format("    {}\n", names[i]);
      if (shown < names.size()) out += fmt::format("    ... {} more (--verbose lists all)\n", names.size() - shown);
    }
    if (!object.allowed.empty()) out += fmt::format("  allowlisted unstable symbols: {}\n", object.allowed.size());
    if (verbose) {
      out += fmt::format("  needed: {}\n", fmt::join(object.needed, ", "));
      for (const auto& symbol : object.imports) {
        out += fmt::format("    {:<15} {}{}\n", to_string(symbol.category), symbol.demangled,
                           symbol.introduced ? fmt::format(" (since {})", symbol.introduced->to_string()) : "");
      }
    }
  }
  for (const auto& wheel : report.wheels) {
    out += fmt::format("wheel {}: {} ({} objects), {}, declared target {}{}\n", wheel.path, to_string(wheel.verdict),
                       wheel.object_count, min_torch_text(wheel.min_torch, wheel.min_torch_to_load),
                       describe_declared(wheel.declared_target), wheel.abi3 ? ", abi3" : "");
    for (const auto& misfit : wheel.platform_misfits) {
      out += fmt::format("  {}: {}\n", misfit.object, platform_misfit_message(misfit));
    }
  }
  for (const auto& package : report.pt2_packages) out += pt2_package_text(package);
  out += render_suppression_problems_text(report.suppression_problems);
  std::map<AuditVerdict, int> counts;
  for (const auto& object : report.binaries) ++counts[object.verdict];
  out += fmt::format(
      "audited {} object{}: {} stable, {} unstable, {} needing a newer torch than declared; {} could not be audited\n",
      report.binaries.size(), report.binaries.size() == 1 ? "" : "s", counts[AuditVerdict::Stable],
      counts[AuditVerdict::Unstable], counts[AuditVerdict::NeedsNewerTorch], report.failures.size());
  return out;
}

}  // namespace abicheck

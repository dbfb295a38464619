#include "audit/platform_policy.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "audit/package_search.h"
#include "baseline/torch_symbol_exports.h"
#include "core/device_library.h"

namespace abicheck {
namespace {

std::vector<PlatformPolicy> read_policies() {
  const nlohmann::json document = nlohmann::json::parse(platform_policies_json());
  std::vector<PlatformPolicy> policies;
  for (const auto& entry : document.at("policies")) {
    PlatformPolicy policy{.name = entry.at("name"), .aliases = entry.at("aliases"), .musl = entry.at("libc") == "musl"};
    for (const auto& library : entry.at("libraries")) policy.libraries.insert(library.get<std::string>());
    for (const auto& [machine, families] : entry.at("symbol_versions").items()) {
      auto& by_family = policy.symbol_versions[machine];
      for (const auto& [family, versions] : families.items()) {
        auto& defined = by_family[family];
        for (const auto& version : versions) defined.insert(family + "_" + version.get<std::string>());
      }
    }
    for (const auto& [library, symbols] : entry.at("missing_symbols").items()) {
      for (const auto& symbol : symbols) policy.missing_symbols[library].insert(symbol.get<std::string>());
    }
    policies.push_back(std::move(policy));
  }
  return policies;
}

// The wheel tag's machine for the ELF reader's name of it.
std::string_view tag_machine(std::string_view elf_machine) {
  if (elf_machine == "x86-64") return "x86_64";
  if (elf_machine == "AArch64") return "aarch64";
  return "";
}

// The dynamic loader itself: every system has it, whatever its name.
bool is_dynamic_loader(std::string_view library) {
  return library.starts_with("ld-linux") || library.starts_with("ld-musl") || library == "ld64.so.1" ||
         library == "ld64.so.2";
}

// A library the tag does not promise, yet something other than the system brings: the wheel's own
// where the object's RUNPATH finds it, torch's (the torch wheel the extension is loaded with), the
// device runtime's (torch's pip dependencies), the GPU driver's libcuda (the machine's), libpython (the
// interpreter).
bool brought_by_other_than_the_system(const PlatformObject& object, std::string_view library,
                                      const std::set<std::string, std::less<>>& entries) {
  if (is_torch_built_library(library) || parse_device_library(library) || library.starts_with("libcuda.so") ||
      library.starts_with("libpython") || is_dynamic_loader(library)) {
    return true;
  }
  return find_in_package(entry_in_package(object.path), object.library_search_path, library,
                         [&](std::string_view entry) { return entries.contains(entry); })
      .has_value();
}

// The versions of `object` that `policy` does not define on `machine`, as "GLIBC_2.34 (libc.so.6)".
// A family the policy does not list (a library's own versions: OPENSSL_3.0.0) is not judged.
std::vector<std::string> versions_undefined(const PlatformPolicy& policy, std::string_view machine,
                                            const PlatformObject& object) {
  std::vector<std::string> undefined;
  auto families = policy.symbol_versions.find(machine);
  if (families == policy.symbol_versions.end()) return undefined;
  for (const auto& need : object.version_needs) {
    if (is_dynamic_loader(need.library)) continue;
    std::string_view family = std::string_view(need.version).substr(0, need.version.find('_'));
    auto defined = families->second.find(family);
    if (defined == families->second.end() || defined->second.contains(need.version)) continue;
    std::string text = need.version + " (" + need.library + ")";
    if (std::ranges::find(undefined, text) == undefined.end()) undefined.push_back(std::move(text));
  }
  return undefined;
}

std::vector<std::string> symbols_missing(const PlatformPolicy& policy, const PlatformObject& object) {
  std::vector<std::string> missing;
  for (const auto& library : object.needed) {
    auto lacking = policy.missing_symbols.find(library);
    if (lacking == policy.missing_symbols.end()) continue;
    for (const auto& symbol : object.imported) {
      if (lacking->second.contains(symbol)) missing.push_back(symbol + " (" + library + ")");
    }
  }
  return missing;
}

}  // namespace

const std::vector<PlatformPolicy>& platform_policies() {
  static const std::vector<PlatformPolicy> policies = read_policies();
  return policies;
}

std::optional<LinuxPlatformTag> parse_linux_platform_tag(std::string_view tag) {
  for (std::string_view machine : {"x86_64", "aarch64"}) {
    if (!tag.ends_with(machine) || tag.size() <= machine.size() || tag[tag.size() - machine.size() - 1] != '_')
      continue;
    std::string_view name = tag.substr(0, tag.size() - machine.size() - 1);
    for (const auto& policy : platform_policies()) {
      if (name == policy.name || std::ranges::find(policy.aliases, name) != policy.aliases.end()) {
        return LinuxPlatformTag{std::string(tag), &policy, std::string(machine)};
      }
    }
  }
  return std::nullopt;
}

std::vector<PlatformTagMisfit> judge_platform_tags(std::string_view platform,
                                                   const std::vector<PlatformObject>& objects,
                                                   const std::set<std::string, std::less<>>& entries) {
  std::vector<PlatformTagMisfit> misfits;
  for (std::string_view rest = platform; !rest.empty();) {
    std::size_t dot = std::min(rest.find('.'), rest.size());
    std::optional<LinuxPlatformTag> tag = parse_linux_platform_tag(rest.substr(0, dot));
    rest.remove_prefix(std::min(dot + 1, rest.size()));
    if (!tag) continue;
    for (const auto& object : objects) {
      if (tag_machine(object.machine) != tag->machine) continue;
      PlatformTagMisfit misfit{.tag = tag->tag, .object = object.path};
      misfit.versions = versions_undefined(*tag->policy, tag->machine, object);
      misfit.missing_symbols = symbols_missing(*tag->policy, object);
      for (const auto& library : object.needed) {
        if (!tag->policy->libraries.contains(library) && !brought_by_other_than_the_system(object, library, entries)) {
          misfit.libraries.push_back(library);
        }
      }
      if (misfit.versions.empty() && misfit.libraries.empty() && misfit.missing_symbols.empty()) continue;
      // Of the policies of the tag's libc, the one of the oldest systems whose symbol versions it fits.
      for (const auto& policy : platform_policies()) {
        if (policy.musl == tag->policy->musl && versions_undefined(policy, tag->machine, object).empty() &&
            symbols_missing(policy, object).empty()) {
          misfit.fits = policy.name;
          break;
        }
      }
      misfits.push_back(std::move(misfit));
    }
  }
  return misfits;
}

}  // namespace abicheck

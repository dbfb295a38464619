#include "lint/headers/header_rules.h"

#include "inventory/inventory_collector.h"
#include "lint/directive_scanner.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <regex>
#include <sstream>
#include <tuple>

namespace abicheck {
namespace {

DeclarationKey key_of(const ShimDeclaration& d) { return {d.name, d.kind}; }

// Declarations only an extension without any target sees are outside the targeted surface.
bool is_targeted(const ShimDeclaration& d) { return d.backend != kUntargetedOnly; }

// The version macros are the guards' vocabulary, unguarded by design (H004 checks them).
bool is_version_macro(const ShimDeclaration& d) {
  return d.kind == DeclarationKind::Macro && d.name.starts_with("TORCH_VERSION_");
}

std::string describe(const ShimDeclaration& d) {
  return d.backend.empty() ? fmt::format("'{}'", d.name) : fmt::format("'{}' ({})", d.name, d.backend);
}

SourcePosition position_of(const HeaderLintInput& input, const ShimDeclaration& d) {
  return {input.include_dir / d.header, d.line, 1};
}

std::string normal_signature(const std::string& signature) {
  std::istringstream words(signature);
  std::string word;
  std::string normal;
  while (words >> word) normal += (normal.empty() ? "" : " ") + word;
  return normal;
}

void check_guard_too_weak(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_version_macro(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since >= shipped->second || input.moved_in.contains(key_of(d))) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is visible at target {} but first shipped in {}: an extension targeting {} "
                            "compiles against it and then fails to load there (missing or too weak guard)",
                            describe(d), d.since.to_string(), shipped->second.to_string(), d.since.to_string()));
  }
}

void check_guard_too_strong(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input);
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d)) continue;
    auto shipped = first.find(key_of(d));
    if (shipped == first.end() || d.since <= shipped->second) continue;
    sink.report(rule, position_of(input, d),
                fmt::format("{} is guarded at {} but shipped in {}: extensions that already target {} lose it",
                            describe(d), d.since.to_string(), shipped->second.to_string(),
                            shipped->second.to_string()));
  }
}

void check_removed_or_changed(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  if (input.earlier.empty()) return;
  const ShimInventory& previous = input.earlier.back();
  std::map<DeclarationKey, const ShimDeclaration*> now;
  for (const auto& d : input.candidate.declarations) {
    if (is_targeted(d)) now.emplace(key_of(d), &d);
  }
  for (const auto& old : previous.declarations) {
    if (!is_targeted(old)) continue;
    auto found = now.find(key_of(old));
    if (found == now.end()) {
      sink.report(rule, position_of(input, old),
                  fmt::format("{} of {} ({}:{} there) is gone at every target", describe(old),
                              previous.release.to_string(), old.header, old.line));
    } else if (old.kind != DeclarationKind::Macro &&
               normal_signature(found->second->signature) != normal_signature(old.signature)) {
      sink.report(rule, position_of(input, *found->second),
                  fmt::format("{} changed its signature since {}: '{}' became '{}'", describe(old),
                              previous.release.to_string(), normal_signature(old.signature),
                              normal_signature(found->second->signature)));
    }
  }
}

void check_new_declaration_version(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (!is_targeted(d) || is_version_macro(d) || first.contains(key_of(d)) || d.since == own ||
        input.moved_in.contains(key_of(d))) {
      continue;
    }
    sink.report(rule, position_of(input, d),
                fmt::format("{} is new in {} but its guard says {}: a new declaration must carry the tree's own "
                            "version (#if TORCH_FEATURE_VERSION >= TORCH_VERSION_{}_{}_0)",
                            describe(d), own.to_string(), d.since.to_string(), own.major, own.minor));
  }
}

// The value a TORCH_VERSION_X_Y_Z definition written as PyTorch writes it
// ((0ULL + 2) << 56 | (0ULL + 10) << 48 [| (0ULL + Z) << 40]) stands for; nullopt for another form.
std::optional<TorchVersion> version_macro_value(const std::string& body) {
  static const std::regex component(R"(\(\s*0ULL\s*\+\s*([0-9]+)\s*\)\s*<<\s*(56|48|40))");
  TorchVersion version;
  int seen = 0;
  for (std::sregex_iterator it(body.begin(), body.end(), component), end; it != end; ++it, ++seen) {
    int value = std::stoi((*it)[1].str());
    std::string shift = (*it)[2].str();
    (shift == "56" ? version.major : shift == "48" ? version.minor : version.patch) = value;
  }
  if (seen < 2) return std::nullopt;
  return version;
}

// Every #if/#elif of the stable trees that names a TORCH_VERSION_X_Y_Z needs it defined, and every
// definition must encode X.Y.Z.
void check_version_macros(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  static const std::regex macro_name(R"(TORCH_VERSION_([0-9]+)_([0-9]+)_([0-9]+))");
  namespace fs = std::filesystem;
  std::map<std::string, SourcePosition> defined;
  std::vector<std::pair<std::string, SourcePosition>> used;
  for (const char* tree : {"torch/csrc/stable", "torch/headeronly", "torch/csrc/inductor/aoti_torch/c",
                           "torch/csrc/inductor/aoti_torch/generated"}) {
    std::error_code error;
    if (!fs::is_directory(input.include_dir / tree, error)) continue;
    std::vector<fs::path> headers;
    for (const auto& entry : fs::recursive_directory_iterator(input.include_dir / tree, error)) {
      if (entry.is_regular_file() && entry.path().extension() == ".h") headers.push_back(entry.path());
    }
    std::ranges::sort(headers);
    for (const auto& header : headers) {
      for (const auto& directive : scan_preprocessor_directives_of(header)) {
        SourcePosition where{header, directive.line, directive.column};
        std::smatch match;
        if (directive.name == "define" && std::regex_search(directive.argument, match, macro_name) &&
            match.position(0) == 0) {
          defined.try_emplace(match[0].str(), where);
          TorchVersion named{std::stoi(match[1].str()), std::stoi(match[2].str()), std::stoi(match[3].str())};
          auto value = version_macro_value(directive.argument.substr(match.length(0)));
          if (value && *value != named) {
            sink.report(rule, where,
                        fmt::format("{} is defined as {}.{}.{}", match[0].str(), value->major, value->minor,
                                    value->patch));
          }
        } else if (directive.name == "if" || directive.name == "elif") {
          for (std::sregex_iterator it(directive.argument.begin(), directive.argument.end(), macro_name), end;
               it != end; ++it) {
            used.emplace_back((*it)[0].str(), where);
          }
        }
      }
    }
  }
  for (const auto& [name, where] : used) {
    if (defined.contains(name)) continue;
    sink.report(rule, where,
                fmt::format("{} is used in a guard but never defined: the guard is always false (it evaluates to 0)",
                            name));
  }
}

// The stable declaration a wrapper's use names: the C shim function of that name, else a
// declaration whose name or last name component it is (an undeclared member of an enum).
const ShimDeclaration* used_declaration(const ShimInventory& inventory, const std::string& name) {
  if (const ShimDeclaration* function = inventory.find(name)) return function;
  for (const auto& d : inventory.declarations) {
    std::string_view declared = d.name;
    if (auto colons = declared.rfind("::"); colons != std::string_view::npos) declared.remove_prefix(colons + 2);
    if (declared == name) return &d;
  }
  return nullptr;
}

// A use is broken at a target when the front end found the name undeclared there (the wrapper's
// guard is weaker than the declaration's), or when it resolved to a shim that first shipped after
// that target (the extension using the wrapper would not load on the target). Each use is reported
// once, at the oldest target where it breaks.
void check_wrapper_uses(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
  auto first = first_shipped_releases(input);
  TorchVersion own = input.candidate.release.minor_release();
  std::map<std::pair<SourcePosition, std::string>, std::pair<const WrapperShimUse*, TorchVersion>> oldest;
  for (const auto& use : input.wrapper_uses) {
    const ShimDeclaration* d = used_declaration(input.candidate, use.name);
    if (!d || !is_targeted(*d)) continue;
    TorchVersion shipped_in = own;  // new in this tree
    if (auto shipped = first.find(key_of(*d)); shipped != first.end()) {
      shipped_in = shipped->second;
    } else if (input.moved_in.contains(key_of(*d))) {
      shipped_in = d->since;
    }
    TorchVersion needs = std::max(d->since, shipped_in);
    if (use.declared && use.target >= needs) continue;
    auto [it, inserted] = oldest.try_emplace({use.where, use.name}, &use, needs);
    if (!inserted && std::tie(use.target, use.with_backends) < std::tie(it->second.first->target,
                                                                          it->second.first->with_backends)) {
      it->second = {&use, needs};
    }
  }
  for (const auto& [key, broken] : oldest) {
    const auto& [use, needs] = broken;
    const ShimDeclaration* d = used_declaration(input.candidate, use->name);
    std::string at = fmt::format("target {}", use->target.to_string());
    if (use->with_backends) at += fmt::format(" with {}", fmt::join(kBackendDefines, ", "));
    if (!use->declared) {
      sink.report(rule, use->where,
                  fmt::format("{} is used here at {}, where it is not declared (its own guard: {}{}): the wrapper's "
                              "guard is weaker than the shim's, and the header does not compile at {}",
                              describe(*d), at, d->since.to_string(),
                              d->backend.empty() ? "" : " and " + d->backend, use->target.to_string()));
    } else {
      sink.report(rule, use->where,
                  fmt::format("{} is used here at {}, but it first shipped in {}: an extension targeting {} that "
                              "uses this wrapper fails to load on torch {} (the shim's own guard is too weak too)",
                              describe(*d), at, needs.to_string(), use->target.to_string(), use->target.to_string()));
    }
  }
}

}  // namespace

std::map<DeclarationKey, TorchVersion> first_shipped_releases(const HeaderLintInput& input) {
  std::map<DeclarationKey, TorchVersion> first;
  for (const auto& baseline : input.earlier) {
    for (const auto& d : baseline.declarations) {
      if (is_targeted(d)) first.try_emplace(key_of(d), baseline.release.minor_release());
    }
  }
  return first;
}

const std::vector<HeaderRule>& header_rules() {
  static const std::vector<HeaderRule> rules = {
      {{"H001", "guard-too-weak", LintSeverity::Error,
        "A declaration is visible at a target older than the first release that shipped it."},
       check_guard_too_weak},
      {{"H002", "guard-too-strong", LintSeverity::Error,
        "A declaration's guard is newer than the first release that shipped it."},
       check_guard_too_strong},
      {{"H003", "removed-or-changed", LintSeverity::Error,
        "A declaration of the previous release disappears or changes its signature."},
       check_removed_or_changed},
      {{"H004", "version-macro", LintSeverity::Error,
        "A TORCH_VERSION_X_Y_0 macro is used in a guard but not defined, or defined with a wrong value."},
       check_version_macros},
      {{"H005", "wrapper-guard-too-weak", LintSeverity::Error,
        "Code of the header-only wrappers uses a shim at a target where the shim is not declared or not shipped."},
       check_wrapper_uses},
      {{"H006", "new-declaration-version", LintSeverity::Error,
        "A new declaration does not carry the tree's own version."},
       check_new_declaration_version},
  };
  return rules;
}

std::vector<LintDiagnostic> run_header_rules(const HeaderLintInput& input) {
  DiagnosticSink sink;
  for (const auto& rule : header_rules()) rule.check(input, rule.rule, sink);
  return sink.take_sorted();
}

}  // namespace abicheck

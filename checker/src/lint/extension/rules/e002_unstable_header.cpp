#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E002", "unstable-header", LintSeverity::Error,
                         "A translation unit includes a torch header outside the four stable trees.",
                         "Include only torch/csrc/stable, torch/headeronly and the C shim headers, or accept that the "
                         "binary is bound to one torch."};

// The headers of the stable ABI; everything else under torch/include is libtorch's unstable C++.
constexpr std::array<std::string_view, 4> kStableTrees = {"torch/headeronly/", "torch/csrc/stable/",
                                                          "torch/csrc/inductor/aoti_torch/c/",
                                                          "torch/csrc/inductor/aoti_torch/generated/"};

bool is_stable_header(std::string_view header) {
  for (auto tree : kStableTrees) {
    if (header.starts_with(tree)) return true;
  }
  return false;
}

std::string describe_chain(const std::vector<SourcePosition>& chain) {
  std::string text;
  for (const auto& step : chain) {
    if (!text.empty()) text += " -> ";
    text += fmt::format("{}:{}", step.file.filename().string(), step.line);
  }
  return text;
}

// The header as the directive that includes it writes it (<torch/torch.h>), which is what the user
// searches for; where torch installs it (torch/csrc/api/include/torch/torch.h) is added only when
// that name does not end with the written one (a relative path), and stands alone when the
// directive names no file itself (#include MACRO).
std::string describe_header(const TorchInclusion& inclusion, const ExtensionFacts& facts) {
  const SourcePosition& directive_at = inclusion.chain.back();
  std::string written;
  if (auto directives = facts.project_directives.find(directive_at.file);
      directives != facts.project_directives.end()) {
    auto directive = std::ranges::find_if(directives->second, [&](const PreprocessorDirective& candidate) {
      return candidate.line == directive_at.line && candidate.name.starts_with("include");
    });
    if (directive != directives->second.end()) written = directive->argument;
  }
  bool names_a_file = written.size() > 2 && ((written.front() == '<' && written.back() == '>') ||
                                             (written.front() == '"' && written.back() == '"'));
  if (!names_a_file) return fmt::format("'{}'", inclusion.header);
  std::string name = written.substr(1, written.size() - 2);
  if (inclusion.header == name || inclusion.header.ends_with("/" + name)) return written;
  return fmt::format("{} (installed as {})", written, inclusion.header);
}

void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    for (const auto& inclusion : unit.torch_inclusions) {
      if (is_stable_header(inclusion.header)) continue;
      std::string via = inclusion.chain.size() > 1 ? fmt::format(" via {}", describe_chain(inclusion.chain)) : "";
      sink.report(rule, inclusion.chain.back(),
                  fmt::format("includes unstable header {}{}, which ties the binary to one torch release",
                              describe_header(inclusion, facts), via));
    }
  }
}

}  // namespace

ExtensionRule unstable_header_rule() { return {kRule, check}; }

}  // namespace abicheck

#include <fmt/format.h>

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

void check(const ExtensionFacts& facts, const ExtensionLintContext&, const LintRule& rule, DiagnosticSink& sink) {
  for (const auto& unit : facts.units) {
    for (const auto& inclusion : unit.torch_inclusions) {
      if (is_stable_header(inclusion.header)) continue;
      std::string via = inclusion.chain.size() > 1 ? fmt::format(" via {}", describe_chain(inclusion.chain)) : "";
      sink.report(rule, inclusion.chain.back(),
                  fmt::format("includes unstable header '{}'{}, which ties the binary to one torch release",
                              inclusion.header, via));
    }
  }
}

}  // namespace

ExtensionRule unstable_header_rule() { return {kRule, check}; }

}  // namespace abicheck

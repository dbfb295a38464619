#include <fmt/format.h>

#include <algorithm>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{"E005", "malformed-target", LintSeverity::Error,
                         "TORCH_TARGET_VERSION is malformed: not hex, non-zero patch or tag bytes, or mis-encoded."};

bool is_known(const std::vector<TorchVersion>& known, TorchVersion version) {
  return std::ranges::find(known, version.minor_release()) != known.end();
}

// 0x0210000000000000 is 2.16: someone wrote the minor version's decimal digits as its hex byte.
// Flagged when 2.16 is no known release and 2.10 is.
std::optional<TorchVersion> decimal_reading(TorchVersion decoded, const std::vector<TorchVersion>& known) {
  int high = decoded.minor / 16;
  int low = decoded.minor % 16;
  if (decoded.minor < 16 || high > 9 || low > 9 || is_known(known, decoded)) return std::nullopt;
  TorchVersion meant{decoded.major, high * 10 + low, 0};
  if (!is_known(known, meant)) return std::nullopt;
  return meant;
}

std::optional<std::string> problem_of(const TargetDefinition& definition, const std::vector<TorchVersion>& known) {
  const std::string& text = definition.value_text;
  bool is_hex = false;
  auto literal = parse_integer_literal(text, &is_hex);
  if (!literal) {
    if (auto version = TorchVersion::try_parse(text)) {
      return fmt::format("'{}' is a version string, not an ABI value: write {}", text, version->to_abi_hex());
    }
  }
  if (!literal && !definition.value) {
    return fmt::format("'{}' is not a hexadecimal ABI value such as 0x020A000000000000", text);
  }
  std::uint64_t value = literal ? *literal : *definition.value;
  if (literal && !is_hex) {
    auto version = TorchVersion::from_abi_value(value);
    return fmt::format("'{}' is not written in hex{}", text,
                       version ? fmt::format(": write {} ({})", version->to_abi_hex(), version->to_string())
                               : std::string(", and does not decode to a torch version"));
  }
  if ((value & 0xFF'FFFF'FFFFULL) != 0) {
    return fmt::format("'{}' has non-zero tag bytes (the low 40 bits must be 0)", text);
  }
  auto decoded = *TorchVersion::from_abi_value(value);
  if (decoded.patch != 0) {
    return fmt::format("'{}' has a non-zero patch byte ({}): the stable ABI is versioned per minor release, write {}",
                       text, decoded.patch, decoded.minor_release().to_abi_hex());
  }
  if (auto meant = decimal_reading(decoded, known)) {
    return fmt::format("'{}' is torch {}, not {}: each component is one hex byte, write {}", text, decoded.to_string(),
                       meant->to_string(), meant->to_abi_hex());
  }
  if (decoded.major != 2) return fmt::format("'{}' is torch {}, not a 2.x release", text, decoded.to_string());
  return std::nullopt;
}

void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  auto check_definition = [&](const TargetDefinition& definition) {
    if (auto problem = problem_of(definition, context.known_releases)) sink.report(rule, definition.where, *problem);
  };
  for (const auto& unit : facts.units) std::ranges::for_each(unit.target_definitions, check_definition);
  std::ranges::for_each(facts.build_file_targets, check_definition);
}

}  // namespace

ExtensionRule malformed_target_rule() { return {kRule, check}; }

}  // namespace abicheck

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lint/extension/extension_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "E005", "malformed-target", LintSeverity::Error,
    "TORCH_TARGET_VERSION is malformed: not hex, non-zero patch or tag bytes, or mis-encoded.",
    "Write the target as hex major and minor followed by zeros: 0x020A000000000000 for 2.10 (not 0x0210...)."};

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

// One finding per mistake, at a line a user can open. A -D that a build file passes to every
// unit (setup.py's define_macros, seen on each compile command without a line) is the build file's
// definition again: reported there, once. A -D found only on compile commands is reported once
// per value, at the first unit that gets it.
void check(const ExtensionFacts& facts, const ExtensionLintContext& context, const LintRule& rule,
           DiagnosticSink& sink) {
  std::vector<const TargetDefinition*> definitions;
  for (const auto& definition : facts.build_file_targets) definitions.push_back(&definition);
  for (const auto& unit : facts.units) {
    for (const auto& definition : unit.target_definitions) definitions.push_back(&definition);
  }
  std::set<std::string> written_in_a_file;
  for (const auto* definition : definitions) {
    if (definition->where.line > 0) written_in_a_file.insert(definition->value_text);
  }
  std::set<std::string> reported_without_a_line;
  for (const auto* definition : definitions) {
    auto problem = problem_of(*definition, context.known_releases);
    if (!problem) continue;
    if (definition->where.line > 0) {
      sink.report(rule, definition->where, *problem);
    } else if (!written_in_a_file.contains(definition->value_text) &&
               reported_without_a_line.insert(definition->value_text).second) {
      sink.report(rule, {definition->where.file, 1, 1}, "on the compile command: " + *problem);
    }
  }
}

}  // namespace

// A mis-encoded target is read as another release: newer than the build (E004), other than the pins
// and the other definitions (E006). Those are what the typo causes, said under it.
ExtensionRule malformed_target_rule() { return {kRule, check, "E004 E006"}; }

}  // namespace abicheck

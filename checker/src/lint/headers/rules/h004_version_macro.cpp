#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "lint/directive_scanner.h"
#include "lint/headers/header_rules.h"

namespace abicheck {
namespace {

constexpr LintRule kRule{
    "H004", "version-macro", LintSeverity::Error,
    "A TORCH_VERSION_X_Y_0 macro is used in a guard but not defined, or defined with a wrong value.",
    "Define the TORCH_VERSION_X_Y_0 macro with its release's value."};

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
void check(const HeaderLintInput& input, const LintRule& rule, DiagnosticSink& sink) {
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
            sink.report(
                rule, where,
                fmt::format("{} is defined as {}.{}.{}", match[0].str(), value->major, value->minor, value->patch));
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
    sink.report(
        rule, where,
        fmt::format("{} is used in a guard but never defined: the guard is always false (it evaluates to 0)", name));
  }
}

}  // namespace

HeaderRule version_macro_rule() { return {kRule, check}; }

}  // namespace abicheck

#include "audit/import_time_checks.h"

#include <regex>

namespace abicheck {
namespace {

// A directory named for a torch major.minor: "torch-2.10" (a component of its own).
const std::regex& copy_directory() {
  static const std::regex pattern(R"((^|/)torch-([0-9]+)\.([0-9]+)/)");
  return pattern;
}

}  // namespace

std::optional<TorchVersion> release_of_copy(std::string_view path) {
  std::cmatch match;
  if (!std::regex_search(path.data(), path.data() + path.size(), match, copy_directory())) return std::nullopt;
  return TorchVersion{std::stoi(match.str(2)), std::stoi(match.str(3)), 0};
}

std::string copy_family(std::string_view path) {
  return std::regex_replace(std::string(path), copy_directory(), "$1torch-*/", std::regex_constants::format_first_only);
}

bool picks_copy_per_release(std::string_view source) {
  // The name's literal part ends where the version is put in: f-string braces, +, %, .format.
  static const std::regex pattern(R"re(f?['"]torch-(\{|%|['"]\s*\+|\{\}['"]\.format))re");
  return std::regex_search(source.begin(), source.end(), pattern);
}

std::optional<RecordedTorchBuild> torch_build_recorded_in(std::string_view source) {
  static const std::regex pattern(
      R"re((?:^|\n)([A-Za-z_]*[Tt][Oo][Rr][Cc][Hh]_?[Vv][Ee][Rr][Ss][Ii][Oo][Nn][A-Za-z_]*\s*(?::[^=\n]*)?=\s*['"]([0-9]+\.[0-9]+(?:\.[0-9]+)?)[^'"]*['"]))re");
  std::cmatch match;
  if (!std::regex_search(source.data(), source.data() + source.size(), match, pattern)) return std::nullopt;
  auto version = TorchVersion::try_parse(match.str(2));
  if (!version) return std::nullopt;
  constexpr std::size_t kMaxShown = 80;
  std::string line = match.str(1);
  if (line.size() > kMaxShown) line = line.substr(0, kMaxShown) + "…";
  return RecordedTorchBuild{*version, line};
}

bool refuses_other_torch_version(std::string_view source) {
  bool reads_running_version = source.find("torch.__version__") != std::string_view::npos ||
                               source.find("torch.version.__version__") != std::string_view::npos ||
                               source.find("from torch.torch_version import __version__") != std::string_view::npos ||
                               source.find("from torch.version import __version__") != std::string_view::npos;
  if (!reads_running_version) return false;
  // A raise whose message (within its first lines) calls the torch version incompatible.
  static const std::regex raise(R"re(raise\s+(ImportError|RuntimeError|OSError)\s*\(([^)]{0,400}))re");
  static const std::regex message(
      R"re([Ii]ncompatible (Py)?[Tt]orch version|only compatible\s*['"]?\s*f?['"]?\s*with (Py)?[Tt]orch version)re");
  for (std::cregex_iterator it(source.data(), source.data() + source.size(), raise), end; it != end; ++it) {
    const std::string text = (*it)[2].str();
    if (std::regex_search(text, message)) return true;
  }
  return false;
}

}  // namespace abicheck

#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace abicheck::testing {

// A fixture extension under fixtures/audit/extensions/ and what its header comments say.
struct ExtensionFixture {
  std::string name;  // file stem: "target_2_12"
  std::filesystem::path source;
  std::string build_release;  // "2.12": whose headers compile it
  std::string target;         // TORCH_TARGET_VERSION value, or "none"
  std::string expected_verdict;
  std::string expected_min_torch;  // "2.12" or "-"
  std::string expected_declared;   // "2.10" or "-"
  std::vector<std::string> expected_unstable_namespaces;
  std::optional<std::string> expected_dlsym;
  std::vector<std::string> expected_operators;        // names the dispatcher is called with, sorted
  std::vector<std::string> expected_operator_breaks;  // "aten::qr@2.14": operator and release, sorted
  std::vector<std::string> audit_arguments;
};

std::vector<ExtensionFixture> extension_fixtures();
void PrintTo(const ExtensionFixture& fixture, std::ostream* stream);  // gtest names cases by file

// Compiles the fixture against its release's headers from the torch store into the build tree
// (cached while the source is unchanged). Returns nullopt, with `why` set, when that release is
// not installed.
std::optional<std::filesystem::path> build_extension_fixture(const ExtensionFixture& fixture, std::string& why);

// Runs `torch-abi-check audit ARGS --json FILE` and returns the exit code, the report document and
// its audit section.
struct AuditRun {
  int exit_code = -1;
  nlohmann::json report;    // the document's "audit" section
  nlohmann::json document;  // the whole report document (verdict included)
  std::string output;
};
AuditRun run_audit_json(std::vector<std::string> arguments);

std::filesystem::path audit_scratch_dir();

// Writes a zip archive (a wheel, a .pt2 package) holding the given (entry name -> content) files;
// a gtest failure where libzip refuses.
void write_zip(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace abicheck::testing

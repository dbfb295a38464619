#include "audit/audit_fixture_support.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/process.h"
#include "store/release_store.h"
#include "support/build_paths.h"
#include "support/cli.h"

namespace abicheck::testing {
namespace {

std::filesystem::path fixtures_dir() {
  return std::filesystem::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "extensions";
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

ExtensionFixture parse_fixture(const std::filesystem::path& source) {
  ExtensionFixture fixture{source.stem().string(), source};
  std::ifstream stream(source);
  static const std::regex build_line(R"(// build: (\S+)\s+target: (\S+))");
  static const std::regex expect_line(R"(// expect: verdict=(\S+) min_torch=(\S+) declared=(\S+)(.*))");
  static const std::regex args_line(R"(// audit-args: (.*))");
  std::smatch match;
  for (std::string line; std::getline(stream, line);) {
    if (std::regex_search(line, match, build_line)) {
      fixture.build_release = match[1];
      fixture.target = match[2];
    } else if (std::regex_search(line, match, expect_line)) {
      fixture.expected_verdict = match[1];
      fixture.expected_min_torch = match[2];
      fixture.expected_declared = match[3];
      for (const auto& option : split(match[4], ' ')) {
        if (option.starts_with("unstable=")) fixture.expected_unstable_namespaces = split(option.substr(9), ',');
        if (option.starts_with("dlsym=")) fixture.expected_dlsym = option.substr(6);
        if (option.starts_with("operators=")) fixture.expected_operators = split(option.substr(10), ',');
        if (option.starts_with("operator_breaks=")) fixture.expected_operator_breaks = split(option.substr(16), ',');
      }
    } else if (std::regex_search(line, match, args_line)) {
      fixture.audit_arguments = split(match[1], ' ');
    }
  }
  return fixture;
}

}  // namespace

void PrintTo(const ExtensionFixture& fixture, std::ostream* stream) { *stream << fixture.name; }

std::filesystem::path audit_scratch_dir() {
  auto directory = std::filesystem::path(TORCH_ABI_CHECK_CLI).parent_path() / "audit-test-scratch";
  std::filesystem::create_directories(directory);
  return directory;
}

std::vector<ExtensionFixture> extension_fixtures() {
  std::vector<ExtensionFixture> fixtures;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures_dir())) {
    if (entry.path().extension() == ".cpp") fixtures.push_back(parse_fixture(entry.path()));
  }
  std::sort(fixtures.begin(), fixtures.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return fixtures;
}

std::optional<std::filesystem::path> build_extension_fixture(const ExtensionFixture& fixture, std::string& why) {
  ReleaseStore store(ReleaseStore::default_root());
  auto release = store.find(fixture.build_release);
  if (!release) {
    why = fmt::format("torch {} is not in the store at {}", fixture.build_release, store.root().string());
    return std::nullopt;
  }
  auto output = audit_scratch_dir() / fmt::format("{}-{}.so", fixture.name, release->version.to_full_string());
  std::error_code error;
  auto newest_input = std::max(std::filesystem::last_write_time(fixture.source),
                               std::filesystem::last_write_time(fixtures_dir() / "target_marker.h"));
  if (std::filesystem::exists(output) && std::filesystem::last_write_time(output, error) > newest_input) return output;
  std::vector<std::string> argv = {"c++",
                                   "-std=c++17",
                                   "-shared",
                                   "-fPIC",
                                   "-O1",
                                   "-I",
                                   release->include_dir.string(),
                                   "-I",
                                   (release->include_dir / "torch/csrc/api/include").string(),
                                   "-I",
                                   fixtures_dir().string()};
  if (fixture.target != "none") argv.push_back("-DTORCH_TARGET_VERSION=" + fixture.target);
  // Tests run in parallel and may build the same fixture: each writes its own temporary file.
  std::string temporary = fmt::format("{}.{}.tmp", output.string(), ::getpid());
  argv.insert(argv.end(), {fixture.source.string(), "-o", temporary});
  ProcessResult result = run_process({.argv = argv, .timeout = std::chrono::minutes(5)});
  if (!result.succeeded()) {
    why = fmt::format("compiling {} failed ({}):\n{}", fixture.source.string(), result.describe(), result.tail(30));
    return std::nullopt;
  }
  std::filesystem::rename(temporary, output);
  return output;
}

AuditRun run_audit_json(std::vector<std::string> arguments) {
  // A file of its own per run, so that run_cli also proves `report` on it agrees with the audit.
  static int runs = 0;
  std::filesystem::path json_file =
      audit_scratch_dir() / ("run-" + std::to_string(getpid()) + "-" + std::to_string(++runs) + ".json");
  std::filesystem::remove(json_file);
  arguments.insert(arguments.begin(), "audit");
  arguments.insert(arguments.end(), {"--json", json_file.string()});
  ProcessResult result = run_cli(arguments);
  AuditRun run{result.exit_code.value_or(-1), nullptr, nullptr, result.output};
  if (std::filesystem::exists(json_file)) {
    run.document = nlohmann::json::parse(std::ifstream(json_file), nullptr, false);
    if (run.document.is_object() && run.document.contains("audit")) run.report = run.document["audit"];
  }
  std::filesystem::remove(json_file);
  return run;
}

void write_zip(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::filesystem::remove(path);
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(archive, nullptr);
  for (const auto& [name, content] : entries) {
    char* copy = static_cast<char*>(malloc(content.size()));
    std::copy_n(content.data(), content.size(), copy);
    zip_source_t* source = zip_source_buffer(archive, copy, content.size(), 1);
    ASSERT_GE(zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_UTF_8), 0);
  }
  ASSERT_EQ(zip_close(archive), 0);
}

}  // namespace abicheck::testing

#include "support/cli.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "core/project_paths.h"
#include "support/build_paths.h"

namespace abicheck::testing {
namespace {

namespace fs = std::filesystem;

const fs::path project = fs::path(TORCH_ABI_CHECK_FIXTURES).parent_path();

ProcessResult run_cli_only(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {TORCH_ABI_CHECK_CLI};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process({.argv = argv, .timeout = std::chrono::minutes(20)});
}

// The file a run wrote its report document to, if it wrote one to a file.
std::optional<fs::path> json_output(const std::vector<std::string>& arguments) {
  for (std::size_t i = 0; i + 1 < arguments.size(); ++i) {
    if (arguments[i] == "--json" && arguments[i + 1] != "-") return fs::path(arguments[i + 1]);
  }
  return std::nullopt;
}

}  // namespace

fs::path with_shared_builds(const fs::path& cache_dir) {
  fs::create_directories(cache_dir);
  // The folders of content-keyed build products: kernels and projects, device objects, and what
  // the aoti suite makes (at the top of its own cache or under a job's aoti/): compiled packages, the
  // reference extension, the C++ loader's runners.
  for (const char* builds : {"builds", "device-objects", "compiled", "extension", "cpp-runners", "aoti/compiled",
                             "aoti/extension", "aoti/cpp-runners"}) {
    const fs::path link = cache_dir / builds;
    const fs::path shared = user_cache_dir() / "test-builds" / fs::path(builds).filename();
    fs::create_directories(link.parent_path());
    fs::create_directories(shared);
    // A folder of an older build tree stays as it is; a link made by a concurrent test is fine.
    std::error_code already_there;
    if (!fs::exists(fs::symlink_status(link))) fs::create_directory_symlink(shared, link, already_there);
  }
  return cache_dir;
}

fs::path tools_python() {
  const char* configured = std::getenv("TORCH_ABI_CHECK_TOOLS_VENV");
  const char* cache = std::getenv("XDG_CACHE_HOME");
  fs::path venv = configured
                      ? fs::path(configured)
                      : (cache ? fs::path(cache) : fs::path(std::getenv("HOME")) / ".cache") / "torch-abi-check-tools";
  return venv / "bin" / "python";
}

std::string schema_errors(const std::string& schema_name, const fs::path& file) {
  ProcessResult validation =
      run_process({.argv = {tools_python().string(),
                            (project / "checker" / "tests" / "support" / "validate_json_schema.py").string(),
                            (project / "docs" / "schemas" / (schema_name + ".schema.json")).string(), file.string()}});
  return validation.succeeded() ? "" : validation.describe() + ": " + validation.output;
}

ProcessResult run_cli(const std::vector<std::string>& arguments) {
  ProcessResult result = run_cli_only(arguments);
  auto document = json_output(arguments);
  bool judged = result.exit_code == 0 || result.exit_code == 1;
  bool is_store_list = !arguments.empty() && arguments[0] == "store";
  if (document && is_store_list && fs::exists(*document)) {
    EXPECT_EQ(schema_errors("store-list", *document), "") << *document;
  } else if (document && judged && fs::exists(*document)) {
    EXPECT_EQ(schema_errors("report", *document), "") << *document;
    ProcessResult reread = run_cli_only({"report", document->string()});
    EXPECT_EQ(reread.exit_code, result.exit_code) << "report on " << *document << " disagrees with the command\n"
                                                  << reread.output;
  }
  return result;
}

}  // namespace abicheck::testing

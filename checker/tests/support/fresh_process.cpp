#include "support/fresh_process.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "aoti/aoti_run.h"
#include "core/content_hash.h"
#include "core/project_paths.h"

namespace abicheck::testing {

namespace fs = std::filesystem;

ProcessResult observe_in_fresh_process(const FreshRun& run) {
  ContentHash key;
  key.add(release_cache_identity(run.release)).add_file(run.script, run.script.parent_path());
  std::vector<std::string> argv = {run.release.python.string(), run.script.string()};
  for (const auto& argument : run.arguments) {
    argv.push_back(argument.value);
    switch (argument.keyed) {
      case FreshArgument::Keyed::Text: key.add(argument.value); break;
      case FreshArgument::Keyed::File: key.add_file(argument.value, fs::path(argument.value).parent_path()); break;
      case FreshArgument::Keyed::Tree: key.add_tree(argument.value); break;
      case FreshArgument::Keyed::Nothing: key.add("-"); break;
    }
  }
  const fs::path kept = user_cache_dir() / "test-builds" / "fresh-process" / (key.hex() + ".txt");
  if (std::ifstream in{kept}) {
    std::stringstream line;
    line << in.rdbuf();
    return {.exit_code = 0, .output = line.str()};
  }
  ProcessResult result = run_process({.argv = argv,
                                      .extra_env = vector_isa_trust_environment(),
                                      .working_dir = run.working_dir,
                                      .timeout = std::chrono::minutes(5)});
  if (result.succeeded()) {
    fs::create_directories(kept.parent_path());
    const fs::path partial = kept.string() + "." + std::to_string(getpid()) + ".partial";
    std::ofstream(partial) << result.tail(1);
    fs::rename(partial, kept);
  }
  return result;
}

}  // namespace abicheck::testing

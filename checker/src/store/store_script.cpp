#include "store/store_script.h"

#include "core/project_paths.h"

namespace abicheck {

ProcessResult run_store_script(const ReleaseStore& store, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {host_python(), (project_root() / "matrix" / "torch_store.py").string(), "--store",
                                   store.root().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process({.argv = argv, .capture_output = false, .own_process_group = false});
}

}  // namespace abicheck

// What a fresh process of a stored torch release prints when it runs one of the fixtures' own scripts
// (no code of the tool): the tests' independent observation of torch, which the tool's cells must
// agree with. It is an observation of torch alone, so it is kept in the folder the tests of every
// clone share, keyed by the script's and the input files' bytes, the other arguments and the
// release; a warm run reads it instead of loading torch again. Only a run that exited 0 is kept.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/process.h"
#include "store/release_store.h"

namespace abicheck::testing {

// One argument of the script, and what of it the key holds.
struct FreshArgument {
  enum class Keyed {
    Text,     // the argument itself
    File,     // the file's bytes (a package, a library), not its path
    Tree,     // every file under the folder, not its path (a fixture folder of this checkout)
    Nothing,  // a helper folder whose content is the same in every clone (setuptools alone)
  };
  std::string value;
  Keyed keyed = Keyed::Text;
};

struct FreshRun {
  const StoredRelease& release;
  std::filesystem::path script;
  std::vector<FreshArgument> arguments;
  std::filesystem::path working_dir;
};

// The last line the script printed (ProcessResult::tail(1)), with the process's result when it ran.
ProcessResult observe_in_fresh_process(const FreshRun& run);

}  // namespace abicheck::testing

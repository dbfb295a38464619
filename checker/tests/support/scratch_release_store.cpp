#include "support/scratch_release_store.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/process.h"

namespace abicheck::testing {

namespace fs = std::filesystem;

void compile_cxx(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "c++");
  ProcessResult result = run_process({.argv = arguments, .timeout = std::chrono::minutes(2)});
  ASSERT_TRUE(result.succeeded()) << result.output;
}

fs::path ScratchReleaseStore::lib_dir(const std::string& version) const {
  return root_ / "releases" / version / "venv" / "site-packages" / "torch" / "lib";
}

void ScratchReleaseStore::add_release(const std::string& version, const std::vector<Library>& libraries) const {
  const fs::path release = root_ / "releases" / version;
  const fs::path lib = lib_dir(version);
  const fs::path torch_dir = lib.parent_path();
  fs::create_directories(torch_dir / "include" / "torch");
  fs::create_directories(lib);
  for (const auto& library : libraries) {
    fs::path source = root_ / (version + "-" + library.name + ".cpp");
    std::ofstream(source) << library.source << "\n";
    std::vector<std::string> arguments = {
        "-shared", "-fPIC", "-Wl,-soname," + library.name, source.string(), "-L" + lib.string(), "-Wl,--no-as-needed"};
    arguments.insert(arguments.end(), library.link_arguments.begin(), library.link_arguments.end());
    arguments.insert(arguments.end(), {"-o", (lib / library.name).string()});
    compile_cxx(arguments);
  }
  nlohmann::json manifest = {{"version", version},
                             {"python", (release / "venv" / "bin" / "python3").string()},
                             {"torch_dir", torch_dir.string()},
                             {"include_dir", (torch_dir / "include").string()},
                             {"lib_dir", lib.string()},
                             {"cuda_major", nullptr},
                             {"cuda_version", nullptr},
                             {"disk_bytes", 1},
                             {"install_seconds", 1.0}};
  std::ofstream(release / "release.json") << manifest.dump();
}

std::string ScratchReleaseStore::load_error(const std::string& version, const fs::path& object) const {
  ProcessResult loaded =
      run_process({.argv = {"python3", "-c",
                            "import ctypes, os, sys\n"
                            "try:\n"
                            "    ctypes.CDLL(sys.argv[1], os.RTLD_NOW)\n"
                            "except OSError as error:\n"
                            "    print(error)\n",
                            object.string()},
                   .extra_env = {{"LD_LIBRARY_PATH", lib_dir(version).string() + ":" + object.parent_path().string()}},
                   .timeout = std::chrono::minutes(1)});
  EXPECT_TRUE(loaded.succeeded()) << loaded.output;
  return loaded.output;
}

}  // namespace abicheck::testing

#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace abicheck::testing {

// A torch release store a test writes: each release as matrix/torch_store.py leaves one (release.json,
// the venv's layout), its lib/ holding small libraries compiled here with c++, so that a test of the
// audit's load prediction can also load an object under each release for the truth.
class ScratchReleaseStore {
 public:
  struct Library {
    std::string name;                         // its file name and soname: "libc10.so"
    std::string source;                       // C++
    std::vector<std::string> link_arguments;  // "-lc10" for one that NEEDs another of the release
  };

  explicit ScratchReleaseStore(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path lib_dir(const std::string& version) const;
  // Writes the release, its libraries compiled in the order given; a gtest failure where c++ fails.
  void add_release(const std::string& version, const std::vector<Library>& libraries) const;
  // What the dynamic loader does with `object` under the release (RTLD_NOW, LD_LIBRARY_PATH on its lib/
  // and the object's folder): "" when it loads, else its error.
  std::string load_error(const std::string& version, const std::filesystem::path& object) const;

 private:
  std::filesystem::path root_;
};

// Runs c++ with the arguments; a gtest failure, with the compiler's output, when it fails.
void compile_cxx(std::vector<std::string> arguments);

}  // namespace abicheck::testing

#pragma once

#include <filesystem>
#include <string>

#include "store/release_store.h"

namespace abicheck {

// The reference extension (the `abiref` suite of matrix/default.toml: kernels/cpu) built for the CPU
// at one release, at the oldest target (its 2.9 group, where the operators the `custom_op` reference
// model calls live). The model's package calls them through the shim's proxy executor, so compiling
// it and loading it need the library loaded first: the one built at the package's own release.
struct ReferenceExtension {
  std::filesystem::path library;  // empty where it did not build
  std::string key;                // the build's content key (sources, release, flags, toolchain)
  std::string problem;            // why it did not build
};

// Builds it with the matrix's kernel builder into <cache_dir>/extension/builds/<key>/, cached by
// content like every kernel build (the matrix's own cache is not touched).
ReferenceExtension build_reference_extension(const StoredRelease& release, const std::filesystem::path& cache_dir,
                                             bool fresh);

}  // namespace abicheck

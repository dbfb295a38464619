#pragma once

// Where the build put the CLI, and the checkout's fixtures/ folder. Both name the checkout, which
// differs from clone to clone, so they are compiled into one file (build_paths.cpp) instead of being
// defines of every test file: a define holding a path makes each file that gets it a ccache miss in
// any other clone, and a fresh clone's build then compiled all the tests again (bench/HISTORY.md,
// 2026-12-01). The macros keep the names the tests have always used.
#include <filesystem>

namespace abicheck::testing {
const char* built_cli_path();
const char* fixtures_root();

// fixtures/diff/: the diff's baselines, which the inventory's tests read too.
inline std::filesystem::path diff_fixtures() { return std::filesystem::path(fixtures_root()) / "diff"; }
}  // namespace abicheck::testing

#define TORCH_ABI_CHECK_CLI (::abicheck::testing::built_cli_path())
#define TORCH_ABI_CHECK_FIXTURES (::abicheck::testing::fixtures_root())

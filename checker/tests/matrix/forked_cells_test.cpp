// matrix/forked_cells.py, the one owner of running a cell in a forked child (the matrix's cells,
// the canary's, the mutation benchmark's): each way a child can end is reported as what it was.
// Plain Python, no torch: a second or two.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/process.h"
#include "core/project_paths.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

TEST(ForkedCells, EachEndingIsReportedAsWhatItWas) {
  const fs::path work = fs::temp_directory_path() / ("forked-cells-" + std::to_string(getpid()));
  fs::create_directories(work);
  const fs::path script = fs::path(TORCH_ABI_CHECK_FIXTURES) / "matrix" / "forked_cells" / "run_cells.py";
  ProcessResult run = run_process({.argv = {"python3", script.string(), project_root().string(), work.string()},
                                   .timeout = std::chrono::seconds(60)});
  fs::remove_all(work);
  ASSERT_TRUE(run.succeeded()) << run.output;
  const auto endings = nlohmann::json::parse(run.tail(1));

  EXPECT_EQ(endings["passes"]["exit_code"], 0);
  EXPECT_EQ(endings["fails"]["exit_code"], 3);
  EXPECT_EQ(endings["segfaults"]["signal"], 11);
  EXPECT_TRUE(endings["segfaults"]["exit_code"].is_null());
  EXPECT_FALSE(endings["segfaults"]["timed_out"]);
  // A hang is killed at its timeout, with what it started.
  EXPECT_TRUE(endings["hangs"]["timed_out"]);
  EXPECT_GE(endings["hangs"]["seconds"].get<double>(), 2.0);
  EXPECT_LT(endings["hangs"]["seconds"].get<double>(), 10.0);
  EXPECT_FALSE(endings["grandchild_alive"]);
  // An exception in the cell ends its child with 70 and its traceback in the cell's log.
  EXPECT_EQ(endings["raises"]["exit_code"], 70);
  EXPECT_NE(endings["raises_log"].get<std::string>().find("RuntimeError: a cell that raised"), std::string::npos);
  // Three one-second cells, three at a time: together, not one after the other.
  EXPECT_LT(endings["parallel_s"].get<double>(), 2.5);
}

}  // namespace
}  // namespace abicheck

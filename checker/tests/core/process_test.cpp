#include "core/process.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace abicheck {
namespace {

using namespace std::chrono_literals;

TEST(Process, CapturesOutputAndExitCode) {
  auto result = run_process({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.output.find("out"), std::string::npos);
  EXPECT_NE(result.output.find("err"), std::string::npos);
  EXPECT_EQ(result.describe(), "exit 3");
}

TEST(Process, ReportsTheSignalThatEndedTheChild) {
  auto result = run_process({.argv = {"sh", "-c", "kill -SEGV $$"}});
  EXPECT_FALSE(result.exit_code.has_value());
  EXPECT_EQ(result.term_signal, SIGSEGV);
  EXPECT_NE(result.describe().find("signal 11"), std::string::npos);
}

TEST(Process, KillsTheWholeGroupOnTimeout) {
  auto result = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30; wait"}, .timeout = 300ms});
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(result.duration.count(), 5.0);
}

TEST(Process, MemoryLimitEndsARunawayChildOnly) {
  auto result = run_process(
      {.argv = {"python3", "-c", "b = bytearray(2 * 1024**3)"}, .memory_limit_bytes = std::size_t{512} << 20});
  EXPECT_FALSE(result.succeeded());
  EXPECT_NE(result.output.find("MemoryError"), std::string::npos);
}

// The GPU cells' limit: written memory is capped, reserved address space is not (a CUDA context
// reserves more than any useful address-space limit; see matrix_runner).
TEST(Process, ADataLimitCapsWrittenMemoryButNotReservedAddressSpace) {
  const std::string program =
      "import mmap, sys\n"
      // prot=0 is PROT_NONE: reserved, never written, as a CUDA context reserves its address range.
      "reserved = mmap.mmap(-1, 8 * 1024**3, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=0)\n"
      "print('reserved 8 GiB', flush=True)\n"
      "b = bytearray(2 * 1024**3)\n";
  auto data_limited = run_process({.argv = {"python3", "-c", program},
                                   .memory_limit_bytes = std::size_t{512} << 20,
                                   .limit_data_not_address_space = true});
  EXPECT_NE(data_limited.output.find("reserved 8 GiB"), std::string::npos) << data_limited.output;
  EXPECT_NE(data_limited.output.find("MemoryError"), std::string::npos) << data_limited.output;

  auto address_limited =
      run_process({.argv = {"python3", "-c", program}, .memory_limit_bytes = std::size_t{512} << 20});
  EXPECT_EQ(address_limited.output.find("reserved 8 GiB"), std::string::npos) << address_limited.output;
  EXPECT_FALSE(address_limited.succeeded());
}

TEST(Process, PassesExtraEnvironment) {
  auto result = run_process({.argv = {"sh", "-c", "echo $ABI_CHECK_PROBE"}, .extra_env = {{"ABI_CHECK_PROBE", "42"}}});
  EXPECT_EQ(result.tail(1), "42");
}

TEST(Process, TailKeepsTheLastLines) {
  ProcessResult result;
  result.output = "a\nb\nc\n\n";
  EXPECT_EQ(result.tail(2), "b\nc");
  EXPECT_EQ(result.tail(10), "a\nb\nc");
}

// A failed compile ends in `note:` lines (candidates, instantiation stacks): the message keeps the error.
TEST(Process, CompilerErrorKeepsTheErrorLineBeforeTrailingNotes) {
  ProcessResult result;
  result.output =
      "In file included from probe.cpp:3:\n"
      "include/torch/csrc/stable/c/shim.h:12:3: error: 'planted' does not name a type\n"
      "include/torch/csrc/stable/c/shim.h:9:1: note: declared here\n"
      "include/torch/csrc/stable/c/shim.h:10:1: note: in expansion of macro\n"
      "include/torch/csrc/stable/c/shim.h:11:1: note: candidate\n";
  EXPECT_EQ(result.compiler_error(), "include/torch/csrc/stable/c/shim.h:12:3: error: 'planted' does not name a type");
  result.output = "ld: cannot open output\nlast line\n";
  EXPECT_EQ(result.compiler_error(), "ld: cannot open output\nlast line");
}

}  // namespace
}  // namespace abicheck

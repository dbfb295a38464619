// A compiler's error as check shows it: the project's files relative to it, torch's headers as the
// sources include them, never the store's absolute paths (issue 46).
#include <gtest/gtest.h>

#include "check/extension_check.h"

namespace abicheck {
namespace {

TEST(CompilerMessageForAuthor, NamesTheProjectsFilesRelativeToIt) {
  EXPECT_EQ(compiler_message_for_author("/home/a/proj/src/ops.cpp:14:26: error: 'x' was not declared", "/home/a/proj"),
            "src/ops.cpp:14:26: error: 'x' was not declared");
}

TEST(CompilerMessageForAuthor, NamesTorchsHeadersAsTheSourcesIncludeThem) {
  const std::string store_header =
      "/root/.cache/torch-abi-check/releases/2.15.0/venv/lib/python3.11/site-packages/torch/include/"
      "torch/csrc/stable/ops.h:120:3: error: no matching function for call to 'to'";
  EXPECT_EQ(compiler_message_for_author(store_header, "/home/a/proj"),
            "torch/csrc/stable/ops.h:120:3: error: no matching function for call to 'to'");
  const std::string api_header =
      "In file included from /env/lib/python3.12/site-packages/torch/include/torch/csrc/api/include/torch/torch.h:3";
  EXPECT_EQ(compiler_message_for_author(api_header, "/home/a/proj"), "In file included from torch/torch.h:3");
}

}  // namespace
}  // namespace abicheck

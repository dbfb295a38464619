// The operators a project calls through the torch::stable wrappers: the wrapper's body in the headers
// the project is compiled with names the operator, and the lint records it at the project's call
// (so E011 judges it like a direct call).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "lint/extension/extension_parser.h"
#include "lint/extension/extension_sources.h"
#include "store/release_store.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

TEST(WrapperDispatcherCalls, AWrapperCallIsACallOfTheOperatorItsBodyNames) {
  ReleaseStore store(ReleaseStore::default_root());
  if (!store.find("2.11")) GTEST_SKIP() << "the torch store lacks 2.11";
  StoredRelease build = store.require("2.11");
  ExtensionSources sources =
      find_extension_sources(std::filesystem::path(TORCH_ABI_CHECK_FIXTURES) / "lint" / "extension" / "E011" / "good");
  ParseEnvironment environment{build.include_dir, find_cuda_include_dirs(store.root(), build.cuda_major.value_or(12)),
                               sources.root};
  ExtensionFacts facts = collect_extension_facts(sources, environment);
  ASSERT_EQ(facts.units.size(), 1u);
  std::vector<std::string> calls;
  for (const auto& call : facts.units[0].dispatcher_calls) {
    calls.push_back(fmt::format("{}:{} {} {}", call.where.line, call.function, call.qualified_name(),
                                call.where.file.filename().string()));
  }
  std::ranges::sort(calls);
  EXPECT_EQ(calls, (std::vector<std::string>{"10:aoti_torch_call_dispatcher aten::abs op.cpp",
                                             "11:aoti_torch_call_dispatcher myext::own_op op.cpp",
                                             "14:torch::stable::transpose aten::transpose.int op.cpp",
                                             "9:aoti_torch_call_dispatcher aten::triu op.cpp"}));
}

}  // namespace
}  // namespace abicheck

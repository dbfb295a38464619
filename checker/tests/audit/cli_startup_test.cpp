// The CLI must start without loading libclang (and libLLVM with it): that load cost ~19 ms per run,
// more than a whole audit. Only the lint, inventory and baseline code call libclang, which loads it
// on first use (core/lazy_libclang.h). Read with the audit's own ELF reader.
#include <gtest/gtest.h>

#include "audit/elf_reader.h"
#include "audit/mapped_file.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

TEST(CliStartup, DoesNotLinkLibclangOrLibllvm) {
  MappedFile cli(TORCH_ABI_CHECK_CLI);
  BinaryImports imports = read_elf_imports(cli.bytes());
  ASSERT_FALSE(imports.needed.empty());
  for (const auto& library : imports.needed) {
    EXPECT_EQ(library.find("libclang"), std::string::npos) << library;
    EXPECT_EQ(library.find("libLLVM"), std::string::npos) << library;
  }
}

}  // namespace
}  // namespace abicheck

// The imports a package's Python runs at import, read from its files (audit/python_imports.h): the
// shapes of fbgemm-gpu 1.9.0's `import fbgemm_gpu.docs` chain to `import click`, imports under try
// or in functions left out, and what a declared requirement provides.
#include "audit/python_imports.h"

#include <gtest/gtest.h>

namespace abicheck {
namespace {

TEST(PythonImports, OnlyUnconditionalModuleLevelImportsAreRead) {
  auto imports = module_level_imports(R"(
"""A docstring that shows
import not_an_import
"""
import os, json as j
import torch
from . import sparse_ops  # noqa
from ..tbe.bench import (
    bench_config,
    eeg_cli as cli,
)
from click import \
    option
try:
    import optional_thing
except ImportError:
    pass
if TYPE_CHECKING:
    import typing_only
def f():
    import lazy
)");
  std::vector<PythonImport> expected = {{0, "os", {}},
                                        {0, "json", {}},
                                        {0, "torch", {}},
                                        {1, "", {"sparse_ops"}},
                                        {2, "tbe.bench", {"bench_config", "eeg_cli"}},
                                        {0, "click", {"option"}}};
  EXPECT_EQ(imports, expected);
}

TEST(PythonImports, TheWalkFollowsThePackagesOwnFilesToWhatItImportsFromOutside) {
  std::map<std::string, std::vector<PythonImport>> files = {
      {"fbgemm_gpu/__init__.py", {{0, "torch", {}}, {0, "fbgemm_gpu.docs", {}}}},
      {"fbgemm_gpu/docs/__init__.py", {{1, "", {"sparse_ops"}}}},
      {"fbgemm_gpu/docs/sparse_ops.py", {{2, "tbe.bench", {"bench_config"}}}},
      {"fbgemm_gpu/tbe/__init__.py", {}},
      {"fbgemm_gpu/tbe/bench/__init__.py", {{0, "numpy", {}}}},
      {"fbgemm_gpu/tbe/bench/bench_config.py", {{0, "click", {}}, {0, "torch", {}}}},
      {"fbgemm_gpu/unreached.py", {{0, "never_imported", {}}}},
  };
  auto reached = modules_reached_at_import(files, {"fbgemm_gpu"});
  std::vector<ReachedModule> expected = {{"torch", "fbgemm_gpu/__init__.py"},
                                         {"numpy", "fbgemm_gpu/tbe/bench/__init__.py"},
                                         {"click", "fbgemm_gpu/tbe/bench/bench_config.py"}};
  EXPECT_EQ(reached, expected);
}

TEST(PythonImports, AModuleIsUndeclaredWhereNothingProvidesItAndNoRequirementNamesIt) {
  std::vector<ReachedModule> reached = {{"torch", "p/__init__.py"}, {"os", "p/__init__.py"}, {"yaml", "p/a.py"},
                                        {"absl", "p/a.py"},         {"numpy", "p/a.py"},     {"click", "p/b.py"}};
  std::set<std::string> available = python_stdlib_modules();
  available.insert("torch");
  auto undeclared = undeclared_modules(reached, {"numpy", "PyYAML", "absl-py"}, available);
  ASSERT_EQ(undeclared.size(), 1U);
  EXPECT_EQ(undeclared[0].name, "click");
  EXPECT_EQ(undeclared[0].imported_by, "p/b.py");
  available.insert("click");  // installed as a dependency of a dependency
  EXPECT_TRUE(undeclared_modules(reached, {"numpy", "PyYAML", "absl-py"}, available).empty());
}

TEST(PythonImports, TheStandardLibraryIsKnown) {
  for (const char* name : {"os", "sys", "json", "ctypes", "importlib", "__future__", "typing"}) {
    EXPECT_TRUE(python_stdlib_modules().contains(name)) << name;
  }
  EXPECT_FALSE(python_stdlib_modules().contains("click"));
  EXPECT_FALSE(python_stdlib_modules().contains("torch"));
}

}  // namespace
}  // namespace abicheck

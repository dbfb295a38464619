#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace abicheck {

// The imports a package's Python runs when it is imported, read from its files without running them
// (the audit reads a wheel, it does not install it).

// One import statement: `import a.b` (level 0, module "a.b"), `from ..x import y, z` (level 2,
// module "x", names y and z), `from . import y` (level 1, module "", names y).
struct PythonImport {
  int level = 0;
  std::string module;
  std::vector<std::string> names;
  auto operator<=>(const PythonImport&) const = default;
};

// The unconditional module-level imports of a Python file: statements at the start of a line, so
// outside any block (an import under `try:`, `if TYPE_CHECKING:` or in a function is indented and
// left out), and outside triple-quoted strings. Parenthesised and backslash-continued names are read.
std::vector<PythonImport> module_level_imports(std::string_view python_source);

// A module outside the package that its import reaches, and the file whose import reaches it.
struct ReachedModule {
  std::string name;         // the top-level name: "click" of `from click import option`
  std::string imported_by;  // "fbgemm_gpu/tbe/bench/bench_config.py"
  auto operator<=>(const ReachedModule&) const = default;
};

// From the modules a user imports (`fbgemm_gpu`, `featomic.torch`), through the module-level imports
// of the package's own files (entry name -> its imports; a package's parents' __init__.py run too),
// every top-level module outside the package that is imported, once each, in the order met.
std::vector<ReachedModule> modules_reached_at_import(const std::map<std::string, std::vector<PythonImport>>& files,
                                                     const std::vector<std::string>& imported);

// A distribution's name as its import name is usually written: lower case, `-` and `.` as `_`
// ("PyYAML" -> "pyyaml"). What a requirement and a module are compared by.
std::string normalized_import_name(std::string_view name);

// The names a folder on sys.path makes importable: its packages (folders), modules (`x.py`) and
// extension modules (`x.cpython-311-x86_64-linux-gnu.so`), metadata folders left out. A release's
// site-packages (what torch installs with itself), a package's installed dependencies.
std::set<std::string> importable_names(const std::filesystem::path& folder);

// The distribution name a Requires-Dist value starts with ("click>=8; extra == 'cli'" -> "click").
std::string requirement_name(std::string_view requirement);

// The names of the requirements an installed distribution declares: its `<dist-info>/METADATA`'s
// Requires-Dist lines, extras and markers included (what torch brings with itself: triton, sympy...).
std::vector<std::string> declared_requirements_of(const std::filesystem::path& dist_info);

// Of `reached`, the modules that nothing provides: not in `available` (Python's own, the torch
// release's site-packages, the package's own and its installed dependencies' names) and not named by
// a declared requirement (its name, also without a `py`/`python` prefix or suffix: pyyaml gives yaml,
// absl-py absl).
std::vector<ReachedModule> undeclared_modules(const std::vector<ReachedModule>& reached,
                                              const std::vector<std::string>& declared_requirements,
                                              const std::set<std::string>& available);

// The top-level import names of the Python standard library (sys.stdlib_module_names of the Python the
// project was configured with).
const std::set<std::string>& python_stdlib_modules();

}  // namespace abicheck

#include "lint/headers/wrapper_shim_uses.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <thread>
#include <unordered_map>

#include "core/scoped_temp_dir.h"
#include "inventory/inventory_collector.h"
#include "inventory/stable_header_tree.h"
#include "lint/clang_support.h"
#include "lint/missing_declaration.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

bool is_wrapper_header(std::string_view relative) {
  return relative.starts_with("torch/headeronly/") ||
         (relative.starts_with("torch/csrc/stable/") && !relative.starts_with("torch/csrc/stable/c/"));
}

struct WrapperParse {
  TorchVersion target;
  bool with_backends = false;
};

// Reads one parse: positions are kept relative to the include dir (as clang resolved it), and
// each file's verdict is cached by libclang's file handle, since the walk asks for every node.
class UseReader {
 public:
  UseReader(const ParsedUnit& unit, const fs::path& include_dir, const fs::path& resolved_include_dir,
            const WrapperParse& parse)
      : unit_(unit), include_dir_(include_dir), resolved_include_dir_(resolved_include_dir), parse_(parse) {}

  std::vector<WrapperShimUse> read() {
    read_undeclared_names();
    visit_descendants(unit_.root(), [this](CXCursor cursor) { return visit(cursor); });
    return std::move(uses_);
  }

 private:
  // The header a location is in, relative to the include dir ("" outside it).
  const std::string& relative_header(CXSourceLocation location) {
    CXFile file = nullptr;
    clang_getExpansionLocation(location, &file, nullptr, nullptr, nullptr);
    auto [it, inserted] = headers_.try_emplace(file);
    if (inserted && file) {
      fs::path relative = expansion_position(location).file.lexically_relative(resolved_include_dir_);
      if (!relative.empty() && *relative.begin() != "..") it->second = relative.generic_string();
    }
    return it->second;
  }

  SourcePosition position_in_tree(CXSourceLocation location) {
    SourcePosition where = expansion_position(location);
    where.file = include_dir_ / relative_header(location);
    return where;
  }

  void add(std::string name, CXSourceLocation location, bool declared) {
    uses_.push_back({std::move(name), position_in_tree(location), parse_.target, parse_.with_backends, declared});
  }

  void read_undeclared_names() {
    for (unsigned i = 0, n = clang_getNumDiagnostics(unit_.get()); i < n; ++i) {
      CXDiagnostic diagnostic = clang_getDiagnostic(unit_.get(), i);
      CXSourceLocation location = clang_getDiagnosticLocation(diagnostic);
      if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error &&
          is_wrapper_header(relative_header(location))) {
        MissingDeclaration missing =
            missing_declaration_in(copy_cx_string(clang_getDiagnosticSpelling(diagnostic)), {});
        if (!missing.name.empty() && !missing.overload_missing) add(std::move(missing.name), location, false);
      }
      clang_disposeDiagnostic(diagnostic);
    }
  }

  // An extern "C" function declared in a stable tree: what crosses the library boundary.
  bool is_shim_function(CXCursor declaration) {
    if (clang_getCursorKind(declaration) != CXCursor_FunctionDecl) return false;
    std::string name = copy_cx_string(clang_getCursorSpelling(declaration));
    auto [it, inserted] = shim_functions_.try_emplace(name, false);
    if (inserted) {
      it->second = is_stable_header(relative_header(clang_getCursorLocation(declaration))) &&
                   copy_cx_string(clang_Cursor_getMangling(declaration)) == name;
    }
    return it->second;
  }

  // The identifiers of a macro's body (after its name and, for a function-like macro, its parameters):
  // a macro in an old release's block that expands to a newer shim breaks every extension that uses it
  // at the old target, and no parse sees that unless something expands it.
  void add_macro_body(CXCursor macro) {
    CXToken* tokens = nullptr;
    unsigned count = 0;
    clang_tokenize(unit_.get(), clang_getCursorExtent(macro), &tokens, &count);
    unsigned body = 1;
    if (clang_Cursor_isMacroFunctionLike(macro)) {
      while (body < count && copy_cx_string(clang_getTokenSpelling(unit_.get(), tokens[body])) != ")") ++body;
      ++body;
    }
    for (unsigned i = body; i < count; ++i) {
      if (clang_getTokenKind(tokens[i]) != CXToken_Identifier) continue;
      add(copy_cx_string(clang_getTokenSpelling(unit_.get(), tokens[i])),
          clang_getTokenLocation(unit_.get(), tokens[i]), true);
      uses_.back().in_macro = true;
    }
    clang_disposeTokens(unit_.get(), tokens, count);
  }

  bool visit(CXCursor cursor) {
    CXSourceLocation location = clang_getCursorLocation(cursor);
    CXCursorKind kind = clang_getCursorKind(cursor);
    if (kind == CXCursor_MacroDefinition) {
      if (is_stable_header(relative_header(location))) add_macro_body(cursor);
      return false;
    }
    if (!is_wrapper_header(relative_header(location))) return false;
    if (kind == CXCursor_DeclRefExpr) {
      CXCursor referenced = clang_getCursorReferenced(cursor);
      if (is_shim_function(referenced)) {
        add(copy_cx_string(clang_getCursorSpelling(referenced)), location, true);
      } else if (clang_getCursorKind(referenced) == CXCursor_OverloadedDeclRef &&
                 clang_getNumOverloadedDecls(referenced) == 0) {
        // A call in a template with arguments that depend on its parameters, to a name that nothing
        // declares here: the front end defers it to argument-dependent lookup at instantiation and
        // says nothing, so a shim hidden at this target is used without any diagnostic.
        std::string name = copy_cx_string(clang_getCursorSpelling(referenced));
        if (!name.empty()) add(std::move(name), location, false);
      }
    } else if (kind == CXCursor_OverloadedDeclRef) {
      // A call in a template whose arguments depend on its parameters: every candidate found.
      for (unsigned i = 0, n = clang_getNumOverloadedDecls(cursor); i < n; ++i) {
        CXCursor candidate = clang_getOverloadedDecl(cursor, i);
        if (is_shim_function(candidate)) add(copy_cx_string(clang_getCursorSpelling(candidate)), location, true);
      }
    }
    return true;
  }

  const ParsedUnit& unit_;
  const fs::path& include_dir_;
  const fs::path& resolved_include_dir_;
  const WrapperParse& parse_;
  std::unordered_map<CXFile, std::string> headers_;
  std::unordered_map<std::string, bool> shim_functions_;
  std::vector<WrapperShimUse> uses_;
};

std::vector<std::string> parse_arguments(const fs::path& include_dir, const WrapperParse& parse) {
  std::vector<std::string> arguments = {"-x",
                                        "c++",
                                        "-std=c++17",
                                        "-w",
                                        "-I" + include_dir.string(),
                                        "-DTORCH_TARGET_VERSION=" + parse.target.to_abi_hex(),
                                        "-DTORCH_STABLE_ONLY"};
  if (parse.with_backends) {
    for (std::string_view define : kBackendDefines) arguments.push_back("-D" + std::string(define));
  }
  return arguments;
}

}  // namespace

std::vector<WrapperShimUse> collect_wrapper_shim_uses(const fs::path& include_dir, TorchVersion release,
                                                      unsigned jobs) {
  release = release.minor_release();
  if (release < kFirstTargetableRelease) return {};
  std::vector<WrapperParse> parses;
  for (TorchVersion target = kOldestStableRelease; target <= release; target.minor++) {
    parses.push_back({target, false});
    parses.push_back({target, true});
  }
  fs::path tree = fs::absolute(include_dir).lexically_normal();
  fs::path resolved = fs::weakly_canonical(tree);
  // The in-memory source is named inside the tree so that its includes resolve as an extension's would.
  fs::path source = tree / "__torch_abi_check_wrapper_uses__.cpp";
  std::string umbrella = umbrella_source(list_stable_headers(tree));

  // The first parse also tells which system headers the tree includes; the others read them
  // from one precompiled header (about half of each parse's time otherwise). Each parse owns its
  // libclang index, so parses run side by side without sharing state.
  std::vector<std::vector<WrapperShimUse>> found(parses.size());
  ScopedTempDir scratch("torch-abi-check-wrappers");
  std::vector<std::string> pch_arguments;
  {
    ParsedUnit first(source, parse_arguments(tree, parses.front()), {{source.string(), umbrella}});
    found.front() = UseReader(first, tree, resolved, parses.front()).read();
    auto outside_tree = [&resolved](const fs::path& file) {
      fs::path relative = file.lexically_relative(resolved);
      return relative.empty() || *relative.begin() == "..";
    };
    if (auto pch = precompile_headers(system_headers_of(first, outside_tree), {"-x", "c++-header", "-std=c++17", "-w"},
                                      scratch.path())) {
      pch_arguments = {"-include-pch", pch->string()};
    }
  }
  std::vector<std::exception_ptr> failures(parses.size());
  std::atomic<std::size_t> next{1};
  auto worker = [&] {
    for (std::size_t index; (index = next++) < parses.size();) {
      try {
        std::vector<std::string> arguments = parse_arguments(tree, parses[index]);
        arguments.insert(arguments.end(), pch_arguments.begin(), pch_arguments.end());
        ParsedUnit unit(source, arguments, {{source.string(), umbrella}});
        found[index] = UseReader(unit, tree, resolved, parses[index]).read();
      } catch (...) {
        failures[index] = std::current_exception();
      }
    }
  };
  unsigned threads = jobs ? jobs : std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  std::vector<std::jthread> pool(std::min<std::size_t>(threads, parses.size()));
  for (auto& thread : pool) thread = std::jthread(worker);
  pool.clear();
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }

  std::vector<WrapperShimUse> uses;
  for (auto& part : found) uses.insert(uses.end(), part.begin(), part.end());
  std::ranges::sort(uses);
  uses.erase(std::ranges::unique(uses).begin(), uses.end());
  return uses;
}

}  // namespace abicheck

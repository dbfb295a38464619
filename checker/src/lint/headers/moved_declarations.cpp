#include "lint/headers/moved_declarations.h"

#include <algorithm>
#include <map>

#include "baseline/release_history.h"
#include "core/file_text.h"
#include "inventory/clang_translation_unit.h"
#include "inventory/inventory_collector.h"
#include "inventory/stable_header_tree.h"
#include "lint/directive_scanner.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// The declarations that look new but may have moved in, grouped by the release before the one
// that first has them (whose headers are searched) and by the candidate header they are in now.
using Suspects = std::map<TorchVersion, std::map<std::string, std::set<DeclarationKey>>>;

Suspects find_suspects(const HeaderLintInput& input) {
  Suspects suspects;
  if (input.earlier.empty()) return suspects;
  auto first = first_shipped_releases(input.earlier);
  TorchVersion own = input.candidate.release.minor_release();
  for (const auto& d : input.candidate.declarations) {
    if (d.name.find("::") == std::string::npos || !is_targeted(d)) continue;
    auto shipped = first.find({d.name, d.kind});
    TorchVersion shipped_in = shipped == first.end() ? own : shipped->second;
    if (d.since >= shipped_in) continue;
    const ShimInventory* before = nullptr;
    for (const auto& baseline : input.earlier) {
      if (baseline.release.minor_release() < shipped_in) before = &baseline;
    }
    if (before) suspects[before->release.minor_release()][d.header].insert({d.name, d.kind});
  }
  return suspects;
}

// For each header, the headers outside the stable trees that include it. A plain text search
// picks the files worth reading; their #include directives decide.
std::map<std::string, std::vector<std::string>> includers_of(const fs::path& include_dir,
                                                             const std::set<std::string>& headers) {
  std::map<std::string, std::vector<std::string>> includers;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(include_dir, error); !error && it != fs::end(it);
       it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    std::string relative = it->path().lexically_relative(include_dir).generic_string();
    std::string extension = it->path().extension().string();
    if (is_stable_header(relative) || (extension != ".h" && extension != ".hpp" && extension != ".cuh")) continue;
    std::string text = read_file_text(it->path());
    if (std::ranges::none_of(headers, [&](const std::string& h) { return text.find(h) != std::string::npos; }))
      continue;
    for (const auto& directive : scan_preprocessor_directives(text)) {
      if (directive.name != "include" || directive.argument.size() < 2) continue;
      std::string included = directive.argument.substr(1, directive.argument.find_first_of(">\"", 1) - 1);
      if (headers.contains(included)) includers[included].push_back(relative);
    }
  }
  for (auto& [header, files] : includers) std::ranges::sort(files);
  return includers;
}

// The namespace-scope C++ declarations of one parse, keyed as the inventory keys them.
void collect_declarations(CXCursor scope, std::set<DeclarationKey>& found) {
  for_each_child(scope, [&](CXCursor child) {
    switch (clang_getCursorKind(child)) {
      case CXCursor_Namespace:
      case CXCursor_LinkageSpec:
      case CXCursor_UnexposedDecl: collect_declarations(child, found); break;
      case CXCursor_EnumDecl: {
        std::string name = type_spelling(clang_getCursorType(child));
        found.insert({name, DeclarationKind::Enum});
        for_each_child(child, [&](CXCursor constant) {
          if (clang_getCursorKind(constant) == CXCursor_EnumConstantDecl) {
            found.insert({name + "::" + cursor_spelling(constant), DeclarationKind::EnumConstant});
          }
        });
        break;
      }
      case CXCursor_StructDecl:
      case CXCursor_ClassDecl:
        found.insert({type_spelling(clang_getCursorType(child)), DeclarationKind::Struct});
        break;
      case CXCursor_TypedefDecl:
      case CXCursor_TypeAliasDecl:
        found.insert({type_spelling(clang_getCursorType(child)), DeclarationKind::Typedef});
        break;
      default: break;
    }
  });
}

}  // namespace

std::set<DeclarationKey> find_moved_declarations(const HeaderLintInput& input,
                                                 const ReleaseHeaderLocator& headers_of_release) {
  Suspects suspects = find_suspects(input);
  std::set<DeclarationKey> moved;
  if (suspects.empty()) return moved;
  std::set<std::string> headers;
  for (const auto& [release, by_header] : suspects) {
    for (const auto& [header, keys] : by_header) headers.insert(header);
  }
  auto includers = includers_of(input.include_dir, headers);
  for (const auto& [release, by_header] : suspects) {
    auto previous_dir = headers_of_release(release);
    if (!previous_dir) continue;
    std::set<std::string> previous_headers;
    for (const auto& [header, keys] : by_header) {
      for (const auto& file : includers[header]) {
        if (fs::is_regular_file(*previous_dir / file)) previous_headers.insert(file);
      }
    }
    if (previous_headers.empty()) continue;
    ClangTranslationUnit unit(*previous_dir, umbrella_source({previous_headers.begin(), previous_headers.end()}), {});
    std::set<DeclarationKey> declared_before;
    collect_declarations(unit.root(), declared_before);
    for (const auto& [header, keys] : by_header) {
      for (const auto& key : keys) {
        if (declared_before.contains(key)) moved.insert(key);
      }
    }
  }
  return moved;
}

}  // namespace abicheck

#include "audit/package_search.h"

namespace abicheck {
namespace {

// `directory` + "/" + `relative` with "." and ".." taken away; nullopt where ".." leaves the package.
std::optional<std::string> join_inside(std::string_view directory, std::string_view relative) {
  std::vector<std::string_view> parts;
  auto add = [&](std::string_view path) {
    while (!path.empty()) {
      std::size_t slash = std::min(path.find('/'), path.size());
      std::string_view part = path.substr(0, slash);
      path.remove_prefix(std::min(slash + 1, path.size()));
      if (part.empty() || part == ".") continue;
      if (part != "..") {
        parts.push_back(part);
      } else if (parts.empty()) {
        return false;
      } else {
        parts.pop_back();
      }
    }
    return true;
  };
  if (!add(directory) || !add(relative)) return std::nullopt;
  std::string joined;
  for (std::string_view part : parts) {
    if (!joined.empty()) joined += '/';
    joined += part;
  }
  return joined;
}

}  // namespace

std::optional<std::string> find_in_package(std::string_view object_entry, const std::vector<std::string>& search_path,
                                           std::string_view soname,
                                           const std::function<bool(std::string_view)>& has_entry) {
  const std::size_t slash = object_entry.rfind('/');
  const std::string_view origin = slash == std::string_view::npos ? "" : object_entry.substr(0, slash);
  for (std::string_view directory : search_path) {
    std::string_view rest;
    if (directory.starts_with("$ORIGIN")) rest = directory.substr(7);
    else if (directory.starts_with("${ORIGIN}")) rest = directory.substr(9);
    else continue;                                       // an absolute directory is the system's, outside the package
    if (!rest.empty() && rest.front() != '/') continue;  // "$ORIGINAL": no $ORIGIN at all
    std::optional<std::string> inside = join_inside(origin, rest);
    if (!inside) continue;
    std::string candidate = inside->empty() ? std::string(soname) : *inside + "/" + std::string(soname);
    if (has_entry(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string_view entry_in_package(std::string_view object_path) {
  const std::size_t bang = object_path.find('!');
  return bang == std::string_view::npos ? std::string_view() : object_path.substr(bang + 1);
}

}  // namespace abicheck

#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abicheck {

// Where the dynamic loader finds, among the files of one package (a wheel's entries), a library that
// an object of it NEEDs: in the directories of the object's RUNPATH (else RPATH) that `$ORIGIN` (the
// object's own directory) puts inside the package, in their order. `object_entry` is the object's
// path inside the package ("pkg/_C.so"), `has_entry` says whether the package holds a path. Returns
// the library's path inside the package ("pkg.libs/libfoo-ab12cd34.so.1"), or nullopt where no such
// directory holds it: the loader then looks outside the package (a library loaded already under that
// soname, the system's). The one owner of "which of a wheel's files does this NEEDED name".
std::optional<std::string> find_in_package(std::string_view object_entry, const std::vector<std::string>& search_path,
                                           std::string_view soname,
                                           const std::function<bool(std::string_view)>& has_entry);

// The path inside its package of an object the audit names "<wheel>!pkg/_C.so": "pkg/_C.so"; "" for
// an object that is no package's entry.
std::string_view entry_in_package(std::string_view object_path);

}  // namespace abicheck

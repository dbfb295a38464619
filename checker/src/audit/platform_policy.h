#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "audit/binary_imports.h"

namespace abicheck {

// What a Linux platform tag promises of the systems it names (PEP 600's manylinux_X_Y and its
// legacy aliases manylinux1, manylinux2010, manylinux2014; PEP 656's musllinux_X_Y): the libraries
// every such system has, the symbol versions each library family defines there, and the symbols of
// such a library that some of those systems lack. The facts are auditwheel's policies (the reference
// tool), kept in platform_policies.json with where they came from (platform_policies.py writes it).
struct PlatformPolicy {
  std::string name;                  // "manylinux_2_17"
  std::vector<std::string> aliases;  // "manylinux2014"
  bool musl = false;
  std::set<std::string, std::less<>> libraries;  // sonames: "libc.so.6", "libstdc++.so.6"
  // Per machine ("x86_64", "aarch64") and family ("GLIBC", "GLIBCXX", "CXXABI", "GCC"), the versions
  // defined ("GLIBC_2.17"). A family the policy does not list is not judged.
  std::map<std::string, std::map<std::string, std::set<std::string>, std::less<>>, std::less<>> symbol_versions;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> missing_symbols;  // library -> symbols
};

// Every policy of the data file, the oldest systems first.
const std::vector<PlatformPolicy>& platform_policies();

// One tag of a wheel's platform field that promises a Linux system.
struct LinuxPlatformTag {
  std::string tag;                         // as written: "manylinux2014_x86_64"
  const PlatformPolicy* policy = nullptr;  // manylinux_2_17
  std::string machine;                     // "x86_64", "aarch64"
};

// The tag's promise, or nullopt for a tag that promises none the data knows: linux_x86_64,
// macosx_*, win_*, a machine other than x86_64 and aarch64, a manylinux_X_Y newer than the data.
std::optional<LinuxPlatformTag> parse_linux_platform_tag(std::string_view tag);

// What a platform tag judges of one ELF object of the wheel.
struct PlatformObject {
  std::string path;     // "<wheel>!pkg/_C.so"
  std::string machine;  // BinaryImports::machine: "x86-64", "AArch64"
  std::vector<std::string> needed;
  std::vector<std::string> library_search_path;  // BinaryImports::library_search_path
  std::vector<VersionNeed> version_needs;
  std::vector<std::string> imported;  // the names of its undefined symbols
};

// Why one object of a wheel does not load on the systems one of its tags names.
struct PlatformTagMisfit {
  std::string tag;     // as written in the file name
  std::string object;  // PlatformObject::path
  // Versions the tag's systems do not define: "GLIBC_2.34 (libc.so.6)", in the object's order.
  std::vector<std::string> versions;
  // NEEDed libraries the tag's systems need not have and nothing else brings, in NEEDED order: the
  // wheel does not ship them where the object's RUNPATH leads (package_search.h).
  std::vector<std::string> libraries;
  std::vector<std::string> missing_symbols;  // "uncompress2 (libz.so.1)"
  // The tag of the oldest systems whose symbol versions it fits ("manylinux_2_34"); "" where none does.
  std::string fits;
};

// Each tag of `platform` (a wheel file name's platform field, tags joined by '.') against the
// wheel's ELF objects of the tag's machine. A NEEDed library is the system's to bring only when
// nothing else does: the wheel's own files where the object's RUNPATH finds them (`entries`: every
// path inside the wheel), torch's libraries, the device runtime's and the driver's, libpython and the
// dynamic loader are not the tag's promise.
std::vector<PlatformTagMisfit> judge_platform_tags(std::string_view platform,
                                                   const std::vector<PlatformObject>& objects,
                                                   const std::set<std::string, std::less<>>& entries);

// The data file's text, compiled in at configure time (audit/CMakeLists.txt).
std::string_view platform_policies_json();

}  // namespace abicheck

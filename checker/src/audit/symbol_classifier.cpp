#include "audit/symbol_classifier.h"

#include <cxxabi.h>
#include <llvm/Demangle/Demangle.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>

namespace abicheck {
namespace {

constexpr std::array kTorchNamespaces = {std::string_view("c10"), std::string_view("at"), std::string_view("torch"),
                                         std::string_view("caffe2"), std::string_view("c10d")};
constexpr std::array kSystemNamespaces = {std::string_view("std"), std::string_view("__gnu_cxx"),
                                          std::string_view("__cxxabiv1")};
constexpr std::array kSystemVersionPrefixes = {std::string_view("GLIBC_"), std::string_view("GLIBCXX_"),
                                               std::string_view("CXXABI_"), std::string_view("GCC_")};
constexpr std::array kSystemLibraryPrefixes = {
    std::string_view("libc.so"), std::string_view("libm.so"), std::string_view("libstdc++.so"),
    std::string_view("libgcc_s.so"), std::string_view("libpthread.so"), std::string_view("libdl.so"),
    std::string_view("librt.so"), std::string_view("ld-linux"), std::string_view("libmvec.so"),
    // macOS (dylib file names) and Windows (import DLLs: the C runtime, the C++ runtime, the kernel).
    std::string_view("libSystem"), std::string_view("libc++"), std::string_view("libobjc"),
    std::string_view("KERNEL32"), std::string_view("kernel32"), std::string_view("api-ms-win-"),
    std::string_view("VCRUNTIME"), std::string_view("vcruntime"), std::string_view("MSVCP"), std::string_view("msvcp"),
    std::string_view("ucrtbase"), std::string_view("ntdll")};
// Symbols the toolchain's start files and C++ runtime reference without a version.
constexpr std::array kUnversionedSystemPrefixes = {std::string_view("__gmon_start__"),
                                                   std::string_view("_ITM_"),
                                                   std::string_view("__cxa_"),
                                                   std::string_view("_Unwind_"),
                                                   std::string_view("__gxx_personality"),
                                                   std::string_view("__stack_chk_fail"),
                                                   std::string_view("__tls_get_addr"),
                                                   std::string_view("_dl_"),
                                                   std::string_view("__pthread_"),
                                                   std::string_view("dlsym"),
                                                   std::string_view("dlopen"),
                                                   std::string_view("dlclose"),
                                                   std::string_view("dlerror"),
                                                   std::string_view("dladdr")};
constexpr std::array kDeviceLibraryPrefixes = {
    std::string_view("libcuda"), std::string_view("libcublas"), std::string_view("libcudnn"),
    std::string_view("libcufft"), std::string_view("libcurand"), std::string_view("libcusparse"),
    std::string_view("libcusolver"), std::string_view("libnccl"), std::string_view("libnvrtc"),
    std::string_view("libnvToolsExt"), std::string_view("libnvJitLink"), std::string_view("libcupti"),
    std::string_view("libamdhip64"), std::string_view("librocblas"), std::string_view("libhipblas"),
    std::string_view("libMIOpen"), std::string_view("libroctx"),
    // Windows names the CUDA DLLs without "lib": cudart64_12.dll, cublas64_12.dll.
    std::string_view("cudart64_"), std::string_view("cublas64_"), std::string_view("cublasLt64_"),
    std::string_view("cudnn64_"), std::string_view("cufft64_"), std::string_view("curand64_"),
    std::string_view("cusparse64_"), std::string_view("cusolver64_"), std::string_view("nvrtc64_"),
    std::string_view("nvJitLink_"), std::string_view("nvToolsExt64_")};
constexpr std::array kDeviceSymbolPrefixes = {
    std::string_view("cuda"),  std::string_view("__cuda"),  std::string_view("cublas"),   std::string_view("cudnn"),
    std::string_view("cufft"), std::string_view("curand"),  std::string_view("cusparse"), std::string_view("cusolver"),
    std::string_view("nccl"),  std::string_view("nvrtc"),   std::string_view("nvtx"),     std::string_view("hip"),
    std::string_view("__hip"), std::string_view("rocblas"), std::string_view("hipblas"),  std::string_view("miopen"),
    std::string_view("roctx")};
// operator new / new[] / delete / delete[]: the C++ runtime's, mangled outside any namespace.
constexpr std::array kOperatorNewDelete = {std::string_view("_Znw"), std::string_view("_Zna"), std::string_view("_Zdl"),
                                           std::string_view("_Zda")};
// The underscore names that the limited API's own macros and functions need.
constexpr std::array kLimitedPrivatePythonNames = {std::string_view("_Py_Dealloc"),
                                                   std::string_view("_Py_DecRef"),
                                                   std::string_view("_Py_IncRef"),
                                                   std::string_view("_Py_NoneStruct"),
                                                   std::string_view("_Py_NotImplementedStruct"),
                                                   std::string_view("_Py_TrueStruct"),
                                                   std::string_view("_Py_FalseStruct"),
                                                   std::string_view("_Py_EllipsisObject"),
                                                   std::string_view("_Py_SwappedOp"),
                                                   std::string_view("_Py_CheckRecursiveCall"),
                                                   std::string_view("_PyArg_ParseTuple_SizeT"),
                                                   std::string_view("_PyArg_ParseTupleAndKeywords_SizeT"),
                                                   std::string_view("_PyArg_Parse_SizeT"),
                                                   std::string_view("_PyArg_VaParse_SizeT"),
                                                   std::string_view("_PyArg_VaParseTupleAndKeywords_SizeT"),
                                                   std::string_view("_Py_BuildValue_SizeT"),
                                                   std::string_view("_Py_VaBuildValue_SizeT"),
                                                   std::string_view("_PyObject_CallFunction_SizeT"),
                                                   std::string_view("_PyObject_CallMethod_SizeT"),
                                                   std::string_view("_PyObject_New"),
                                                   std::string_view("_PyObject_NewVar"),
                                                   std::string_view("_PyObject_GC_New"),
                                                   std::string_view("_PyObject_GC_NewVar"),
                                                   std::string_view("_PyObject_GC_Resize"),
                                                   std::string_view("_PyErr_BadInternalCall"),
                                                   std::string_view("_PyWeakref_CallableProxyType"),
                                                   std::string_view("_PyWeakref_ProxyType"),
                                                   std::string_view("_PyWeakref_RefType"),
                                                   std::string_view("_Py_RefTotal")};

template <std::size_t N>
bool starts_with_any(std::string_view text, const std::array<std::string_view, N>& prefixes) {
  for (auto prefix : prefixes) {
    if (text.starts_with(prefix)) return true;
  }
  return false;
}

template <std::size_t N>
bool is_one_of(std::string_view text, const std::array<std::string_view, N>& names) {
  for (auto name : names) {
    if (text == name) return true;
  }
  return false;
}

bool is_shim_shaped(std::string_view name) { return name.starts_with("aoti_torch_") || name.starts_with("torch_"); }

// libtorch_python's C-era bindings (THPVariable_Wrap, THPVariableClass) live outside any namespace.
bool is_torch_python_binding(std::string_view identifier) {
  return identifier.starts_with("THP") || identifier.starts_with("THC") || identifier.starts_with("THS");
}

// Reads an Itanium <source-name> (length-prefixed identifier) at the front of `text`.
std::optional<std::string_view> read_source_name(std::string_view& text) {
  std::size_t length = 0;
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) && digits < 6) {
    length = length * 10 + static_cast<std::size_t>(text[digits] - '0');
    ++digits;
  }
  if (digits == 0 || length == 0 || text.size() - digits < length) return std::nullopt;
  std::string_view name = text.substr(digits, length);
  text.remove_prefix(digits + length);
  return name;
}

}  // namespace

std::string_view to_string(SymbolCategory category) {
  switch (category) {
    case SymbolCategory::StableShim: return "stable-shim";
    case SymbolCategory::System: return "system";
    case SymbolCategory::DeviceRuntime: return "device-runtime";
    case SymbolCategory::PythonCApi: return "python";
    case SymbolCategory::UnstableTorch: return "unstable-torch";
    case SymbolCategory::Unknown: return "unknown";
  }
  return "unknown";
}

std::string outermost_namespace(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return "";
  std::string_view rest = mangled.substr(2);
  // Special names wrap the entity they are about: vtables, typeinfo, guard variables, thunks.
  for (int depth = 0; depth < 4; ++depth) {
    if (rest.starts_with("TV") || rest.starts_with("TT") || rest.starts_with("TI") || rest.starts_with("TS") ||
        rest.starts_with("GV") || rest.starts_with("GR")) {
      rest.remove_prefix(2);
    } else if (rest.starts_with("Th") || rest.starts_with("Tv")) {
      int underscores = rest[1] == 'h' ? 1 : 2;
      rest.remove_prefix(2);
      while (underscores > 0 && !rest.empty()) {
        if (rest.front() == '_') --underscores;
        rest.remove_prefix(1);
      }
    } else if (rest.starts_with("L") || rest.starts_with("Z")) {
      rest.remove_prefix(1);  // internal linkage, or a local entity inside a function
    } else {
      break;
    }
  }
  if (rest.starts_with("N")) {
    rest.remove_prefix(1);
    while (!rest.empty() && (rest.front() == 'r' || rest.front() == 'V' || rest.front() == 'K' || rest.front() == 'R' ||
                             rest.front() == 'O')) {
      rest.remove_prefix(1);
    }
    if (rest.starts_with("L")) rest.remove_prefix(1);
  } else if (std::isdigit(static_cast<unsigned char>(rest.empty() ? 'x' : rest.front()))) {
    auto name = read_source_name(rest);
    // An unscoped name: a function or variable in the global namespace.
    if (name && is_torch_python_binding(*name)) return "(global: THP)";
    return "(global)";
  }
  if (rest.size() >= 2 && rest.front() == 'S' &&
      (rest[1] == 't' || rest[1] == 'a' || rest[1] == 'b' || rest[1] == 's' || rest[1] == 'i' || rest[1] == 'o' ||
       rest[1] == 'd')) {
    return "std";
  }
  if (auto name = read_source_name(rest)) return std::string(*name);
  return "(unparsed)";
}

namespace {

// The outermost namespace of the qualified name that MSVC-demangled text starts with (printed
// without access, calling convention, return and variable types): "c10::detail::torchCheckFail(...)"
// -> "c10"; "(global)" for a name outside any namespace.
std::string msvc_outermost_namespace(std::string_view demangled) {
  std::size_t end = demangled.find_first_of(":(<` ");
  if (end == std::string_view::npos || end == 0 || demangled.substr(end, 2) != "::") return "(global)";
  return std::string(demangled.substr(0, end));
}

std::string msvc_demangle(std::string_view name) {
  int status = 0;
  auto flags =
      static_cast<llvm::MSDemangleFlags>(llvm::MSDF_NoAccessSpecifier | llvm::MSDF_NoCallingConvention |
                                         llvm::MSDF_NoReturnType | llvm::MSDF_NoMemberType | llvm::MSDF_NoVariableType);
  std::unique_ptr<char, decltype(&std::free)> text(
      llvm::microsoftDemangle(std::string(name).c_str(), nullptr, nullptr, nullptr, &status, flags), &std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

}  // namespace

std::string demangle(std::string_view name) {
  if (name.starts_with('?')) return msvc_demangle(name);
  if (!name.starts_with("_Z")) return std::string(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

bool is_system_library(std::string_view library) { return starts_with_any(library, kSystemLibraryPrefixes); }

bool is_limited_python_api(std::string_view name) {
  if (!name.starts_with("_Py")) return true;
  return is_one_of(name, kLimitedPrivatePythonNames);
}

ClassifiedSymbol classify_import(const ImportedSymbol& symbol, const ShimCatalog& catalog) {
  ClassifiedSymbol result{
      symbol.name, demangle(symbol.name), SymbolCategory::Unknown, symbol.library, std::nullopt, "", symbol.library,
      symbol.weak};
  std::string space =
      symbol.name.starts_with('?') ? msvc_outermost_namespace(result.demangled) : outermost_namespace(symbol.name);
  if (!space.empty()) result.group = space;
  if (is_one_of(space, kTorchNamespaces) || space == "(global: THP)") {
    result.category = SymbolCategory::UnstableTorch;
  } else if (is_one_of(space, kSystemNamespaces) || is_one_of(symbol.name.substr(0, 4), kOperatorNewDelete)) {
    result.category = SymbolCategory::System;
  } else if (!space.empty() && !starts_with_any(symbol.version, kSystemVersionPrefixes)) {
    // Another library's C++ API: its version requirement (if any) was not a system one.
    return result;
  } else if (const ShimOrigin* origin = catalog.find(symbol.name)) {
    result.category = SymbolCategory::StableShim;
    result.introduced = origin->introduced;
    result.backend = origin->backend;
    result.group = "shim";
  } else if (is_shim_shaped(symbol.name)) {
    result.category = SymbolCategory::StableShim;
    result.group = "shim";
  } else if (is_torch_python_binding(symbol.name)) {
    result.category = SymbolCategory::UnstableTorch;
    result.group = "(global: THP)";
  } else if (starts_with_any(symbol.version, kSystemVersionPrefixes) ||
             starts_with_any(symbol.library, kSystemLibraryPrefixes) ||
             starts_with_any(symbol.name, kUnversionedSystemPrefixes)) {
    result.category = SymbolCategory::System;
  } else if (starts_with_any(symbol.library, kDeviceLibraryPrefixes) ||
             starts_with_any(symbol.version, kDeviceLibraryPrefixes) ||
             starts_with_any(symbol.name, kDeviceSymbolPrefixes) ||
             (symbol.name.size() > 2 && symbol.name.starts_with("cu") &&
              std::isupper(static_cast<unsigned char>(symbol.name[2])))) {
    result.category = SymbolCategory::DeviceRuntime;
  } else if (symbol.name.starts_with("Py") || symbol.name.starts_with("_Py") ||
             symbol.library.starts_with("libpython") || symbol.library.starts_with("python")) {
    result.category = SymbolCategory::PythonCApi;
    result.group = "python";
  }
  return result;
}

}  // namespace abicheck

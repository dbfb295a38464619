#pragma once

// libclang loaded on first use (see generate_libclang_stubs.py): the definitions of the clang_*
// functions that the build generates call through these.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <tuple>

namespace abicheck {

// The address of `name` in libclang, which is loaded with dlopen on the first call. Throws ToolError
// when libclang or the function cannot be found.
void* libclang_symbol(const char* name);

// The clang driver of the LLVM that libclang comes from (`<llvm>/bin/clang` beside its `lib/`), when
// that LLVM has one: it prints the command-line errors that libclang refuses a parse for silently.
std::optional<std::filesystem::path> libclang_driver();

template <class Function>
struct FunctionTraits;
template <class R, class... Arguments>
struct FunctionTraits<R(Arguments...)> {
  using result = R;
  using parameters = std::tuple<Arguments...>;
};

template <class Function>
using Result = typename FunctionTraits<Function>::result;
template <class Function, std::size_t Index>
using Parameter = std::tuple_element_t<Index, typename FunctionTraits<Function>::parameters>;

template <class Pointer>
Pointer libclang_function(const char* name) {
  return reinterpret_cast<Pointer>(libclang_symbol(name));
}

}  // namespace abicheck

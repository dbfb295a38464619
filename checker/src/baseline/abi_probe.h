#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inventory/shim_inventory.h"

namespace abicheck {

// The ABI model of a release's C shim: ABIXML that libabigail wrote from a probe shared object.
// The probe DEFINES every declared shim function with an empty body, so each one is an exported
// symbol with full DWARF types even though the wheel's libraries carry no debug information.
struct AbiModel {
  std::string abixml;
  std::vector<std::string> functions;  // names of the functions the model describes, sorted
};

// Generates the probe's source: the stable headers (all backend defines set, no target, so that
// every declaration is seen) followed by a definition of each inventory function, its parameters
// copied token for token from the header so typedef names survive into DWARF.
std::string generate_probe_source(const std::filesystem::path& include_dir, const ShimInventory& inventory);

// Compiles the probe at -O0 -g (no identical-code folding can merge two functions) and reads it
// with abidw into ABIXML without paths or locations, so the model is byte-identical wherever it is
// built. Throws ToolError with the compiler's or abidw's last lines when either fails.
AbiModel build_abi_model(const std::filesystem::path& include_dir, const ShimInventory& inventory);

// The configuration at which the C++ compiler compiles the stable headers, inline bodies included, for
// the ABI model's probe (no target, so that everything is visible, and every backend define).
inline constexpr std::string_view kCompilerConfiguration = "no TORCH_TARGET_VERSION, every backend define (c++)";

// "torch/csrc/stable/accelerator.h:59: invalid conversion ...": the first error of a compiler's output
// in a header under include_dir, placed as the inventory places its parses' errors; the whole output
// when no such line is there.
std::string first_compiler_error(const std::string& output, const std::filesystem::path& include_dir);

// The function names an ABIXML corpus describes (its elf-function-symbols), sorted.
std::vector<std::string> abi_model_functions(const std::string& abixml);

}  // namespace abicheck

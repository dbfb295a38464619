#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

namespace abicheck::testing {

// What a test's command wrote: the whole file (empty when there is none), or the JSON in it.
inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream stream(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline nlohmann::json read_json(const std::filesystem::path& file) {
  return nlohmann::json::parse(std::ifstream(file));
}

}  // namespace abicheck::testing

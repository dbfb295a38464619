#include "baseline/behaviour_probe.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "baseline/library_exports.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/scoped_temp_dir.h"
#include "core/tool_error.h"
#include "inventory/stable_header_tree.h"

namespace abicheck {
namespace {

constexpr std::chrono::minutes kProbeTimeout{5};
constexpr std::string_view kCaseMarker = "@case\t";
constexpr std::string_view kWrapperTree = "torch/csrc/stable/";

// "torch::headeronly::HeaderOnlyArrayRef<T>" -> "HeaderOnlyArrayRef", "std::nullopt_t" -> "nullopt_t".
std::string conversion_family(std::string_view specialised) {
  std::string_view name = specialised.substr(0, specialised.find('<'));
  std::size_t scope = name.rfind("::");
  return std::string(scope == std::string_view::npos ? name : name.substr(scope + 2));
}

// The headers an extension of the stable ABI includes (torch/csrc/stable/), which include the shims and
// headeronly parts they need; the rest of the trees refuses a TORCH_TARGET_VERSION (ATen/Config.h).
std::vector<std::string> stable_wrapper_headers(const std::filesystem::path& include_dir) {
  std::vector<std::string> headers = list_stable_headers(include_dir);
  std::erase_if(headers, [](const std::string& header) { return !header.starts_with(kWrapperTree); });
  return headers;
}

// A C++ string literal holding `text`.
std::string cpp_literal(std::string_view text) {
  std::string literal = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') literal += '\\';
    literal += c;
  }
  return literal + "\"";
}

// One probed value: its type and label as the baseline records them, the expression that makes it
// (the body of a lambda) and the type `to` decodes its bits as ("" when the release has no `to` for it).
struct ProbeCase {
  std::string type;
  std::string value;
  std::string make;
  std::string decoded;
};

struct PrimitiveValues {
  std::string_view type;
  std::vector<std::pair<std::string_view, std::string_view>> values;  // label, expression
  std::string_view sample;  // the label of the one value an optional of the type carries
};

// The small trivially copyable types the generic byte copy takes, with their edge values.
const std::vector<PrimitiveValues>& primitive_values() {
  static const std::vector<PrimitiveValues> values = {
      {"bool", {{"false", "false"}, {"true", "true"}}, "true"},
      {"int8_t", {{"-128", "INT8_MIN"}, {"-1", "-1"}, {"0", "0"}, {"1", "1"}, {"127", "INT8_MAX"}}, "-1"},
      {"int16_t", {{"-32768", "INT16_MIN"}, {"-1", "-1"}, {"0", "0"}, {"1", "1"}, {"32767", "INT16_MAX"}}, "-1"},
      {"int32_t",
       {{"-2147483648", "INT32_MIN"}, {"-1", "-1"}, {"0", "0"}, {"1", "1"}, {"2147483647", "INT32_MAX"}},
       "-1"},
      {"int64_t",
       {{"-9223372036854775808", "INT64_MIN"},
        {"-1", "-1"},
        {"0", "0"},
        {"1", "1"},
        {"42", "42"},
        {"9223372036854775807", "INT64_MAX"}},
       "42"},
      {"uint8_t", {{"0", "0"}, {"1", "1"}, {"255", "UINT8_MAX"}}, "255"},
      {"uint16_t", {{"0", "0"}, {"1", "1"}, {"65535", "UINT16_MAX"}}, "65535"},
      {"uint32_t", {{"0", "0"}, {"1", "1"}, {"4294967295", "UINT32_MAX"}}, "4294967295"},
      {"uint64_t", {{"0", "0"}, {"1", "1"}, {"18446744073709551615", "UINT64_MAX"}}, "18446744073709551615"},
      {"float",
       {{"0.0", "0.0f"},
        {"-0.0", "-0.0f"},
        {"1.5", "1.5f"},
        {"-2.25", "-2.25f"},
        {"max", "std::numeric_limits<float>::max()"},
        {"denorm_min", "std::numeric_limits<float>::denorm_min()"},
        {"inf", "std::numeric_limits<float>::infinity()"},
        {"-inf", "-std::numeric_limits<float>::infinity()"},
        {"nan", "std::numeric_limits<float>::quiet_NaN()"}},
       "1.5"},
      {"double",
       {{"0.0", "0.0"},
        {"-0.0", "-0.0"},
        {"1.5", "1.5"},
        {"-2.25", "-2.25"},
        {"max", "std::numeric_limits<double>::max()"},
        {"denorm_min", "std::numeric_limits<double>::denorm_min()"},
        {"inf", "std::numeric_limits<double>::infinity()"},
        {"-inf", "-std::numeric_limits<double>::infinity()"},
        {"nan", "std::numeric_limits<double>::quiet_NaN()"}},
       "-2.25"},
  };
  return values;
}

// The enumerators of the enum whose name ends in `::family` ("c10::ScalarType"), as the inventory
// lists them, and the enum's name.
std::pair<std::string, std::vector<std::string>> enumerators_of(const ShimInventory& inventory,
                                                                std::string_view family) {
  std::string suffix = "::" + std::string(family);
  std::string enum_name;
  for (const auto& declaration : inventory.declarations) {
    if (declaration.kind == DeclarationKind::Enum && declaration.backend.empty() &&
        declaration.name.ends_with(suffix)) {
      enum_name = declaration.name;
    }
  }
  std::vector<std::string> names;
  if (enum_name.empty()) return {enum_name, names};
  for (const auto& declaration : inventory.declarations) {
    if (declaration.kind == DeclarationKind::EnumConstant && declaration.backend.empty() &&
        declaration.name.starts_with(enum_name + "::")) {
      names.push_back(declaration.name);
    }
  }
  return {enum_name, names};
}

// The helpers every probe has: how bits and decoded values are written, and the record of one value.
constexpr std::string_view kProbePrelude = R"probe(
namespace probe {

std::string hex(StableIValue bits) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(bits));
  return text;
}

std::string quoted(const char* data, std::size_t size) {
  std::string text = "\"";
  for (std::size_t i = 0; i < size; ++i) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c == '"' || c == '\\') {
      text += '\\';
      text += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      text += escaped;
    } else {
      text += static_cast<char>(c);
    }
  }
  return text + "\"";
}

// What the bits of a T are: themselves, or for a pointer encoding what they point at.
template <typename T>
struct Encoding {
  static std::string of(StableIValue bits) { return hex(bits); }
};
template <typename T>
struct Encoding<std::optional<T>> {
  static std::string of(StableIValue bits) {
    if (bits == 0) return hex(bits);
    return "pointer to " + Encoding<T>::of(*reinterpret_cast<StableIValue*>(bits));
  }
};

// A shim code (an int32_t a getter of libtorch returns, copied into the low bytes) is named by the
// getters that return it: libtorch supplies the value at run time, so an extension built before gets the
// new value of the same getter. Bits no getter returns stay bits.
std::string getters_returning(StableIValue code, std::initializer_list<std::pair<const char*, int32_t>> codes) {
  std::string names;
  for (const auto& [getter, value] : codes) {
    if (code == static_cast<StableIValue>(static_cast<uint32_t>(value))) names += (names.empty() ? "" : " or ") + std::string(getter) + "()";
  }
  return names;
}

std::string shim_code(StableIValue bits, std::initializer_list<std::pair<const char*, int32_t>> codes) {
  std::string getters = getters_returning(bits, codes);
  return getters.empty() ? hex(bits) : getters + " = " + hex(bits);
}

// A device: its type's shim code in the high half, its index in the low half.
std::string device_code(StableIValue bits, std::initializer_list<std::pair<const char*, int32_t>> codes) {
  std::string getters = getters_returning(bits >> 32, codes);
  if (getters.empty()) return hex(bits);
  char index[16];
  std::snprintf(index, sizeof index, "0x%08llx", static_cast<unsigned long long>(bits & 0xffffffffULL));
  return getters + " << 32 | " + index + " = " + hex(bits);
}

template <typename T>
std::string show_integer(T value) {
  if constexpr (std::is_signed_v<T>) return std::to_string(static_cast<long long>(value));
  else return std::to_string(static_cast<unsigned long long>(value));
}
std::string show(bool value) { return value ? "true" : "false"; }
std::string show(int8_t value) { return show_integer(value); }
std::string show(int16_t value) { return show_integer(value); }
std::string show(int32_t value) { return show_integer(value); }
std::string show(int64_t value) { return show_integer(value); }
std::string show(uint8_t value) { return show_integer(value); }
std::string show(uint16_t value) { return show_integer(value); }
std::string show(uint32_t value) { return show_integer(value); }
std::string show(uint64_t value) { return show_integer(value); }
std::string show(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}
std::string show(float value) { return show(static_cast<double>(value)); }
std::string show(std::nullopt_t) { return "nullopt"; }
)probe";

constexpr std::string_view kProbeRecord = R"probe(
template <typename T>
std::string show(const std::optional<T>& value);
template <typename T>
std::string show(const std::vector<T>& value);
template <typename T>
std::string show(const std::optional<T>& value) {
  return value ? "optional(" + show(*value) + ")" : "nullopt";
}
template <typename T>
std::string show(const std::vector<T>& value) {
  std::string text = "[";
  for (std::size_t i = 0; i < value.size(); ++i) text += (i ? ", " : "") + show(value[i]);
  return text + "]";
}

void print(const char* type, const char* value, const std::string& from, const std::string& to) {
  std::printf("@case\t%s\t%s\t%s\t%s\n", type, value, from.c_str(), to.c_str());
}

struct NoDecoding {};

// from(value), what its bits are, and to<Decoded>(bits); a throw of either is "refused".
template <typename Decoded, typename Make>
void record(const char* type, const char* value, Make make) {
  using T = decltype(make());
  StableIValue bits = 0;
  std::string from;
  try {
    T made = make();
    bits = PROBE_CONVERSIONS from(made);
    from = Encoding<T>::of(bits);
  } catch (const std::exception&) {
    print(type, value, "refused", "");
    return;
  }
  std::string to;
  if constexpr (!std::is_same_v<Decoded, NoDecoding>) {
    try {
      to = show(PROBE_CONVERSIONS to<Decoded>(bits));
    } catch (const std::exception&) {
      to = "refused";
    }
  }
  print(type, value, from, to);
}
)probe";

// Lists are StableListHandles (2.10 on): their encoding is their items'.
constexpr std::string_view kListEncoding = R"probe(
template <typename T>
std::string list_encoding(StableIValue bits) {
  auto list = reinterpret_cast<StableListHandle>(bits);
  size_t size = 0;
  if (torch_list_size(list, &size) != AOTI_TORCH_SUCCESS) return "list (unreadable)";
  std::string text = "list [";
  for (size_t i = 0; i < size; ++i) {
    StableIValue item = 0;
    if (torch_list_get_item(list, i, &item) != AOTI_TORCH_SUCCESS) return "list (unreadable item)";
    text += (i ? ", " : "") + Encoding<T>::of(item);
  }
  return text + "]";
}
template <typename T>
struct Encoding<std::vector<T>> {
  static std::string of(StableIValue bits) { return list_encoding<T>(bits); }
};
template <typename T>
struct Encoding<torch::headeronly::HeaderOnlyArrayRef<T>> {
  static std::string of(StableIValue bits) { return list_encoding<T>(bits); }
};
)probe";

constexpr std::string_view kStringEncoding = R"probe(
template <>
struct Encoding<std::string> {
  static std::string of(StableIValue bits) {
    auto handle = reinterpret_cast<StringHandle>(bits);
    size_t length = 0;
    const char* data = nullptr;
    if (torch_string_length(handle, &length) != AOTI_TORCH_SUCCESS ||
        torch_string_c_str(handle, &data) != AOTI_TORCH_SUCCESS) {
      return "string (unreadable)";
    }
    return "string " + quoted(data, length);
  }
};
std::string show(const std::string& value) { return quoted(value.data(), value.size()); }
)probe";

// A tensor crosses as a handle: a new one of the same tensor, or something else.
constexpr std::string_view kTensorRecord = R"probe(
void record_tensor() {
  int64_t sizes[] = {2, 3};
  int64_t strides[] = {3, 1};
  AtenTensorHandle handle = nullptr;
  if (aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(), aoti_torch_device_type_cpu(), 0,
                               &handle) != AOTI_TORCH_SUCCESS) {
    print("torch::stable::Tensor", "empty 2x3 float32", "refused", "");
    return;
  }
  torch::stable::Tensor tensor(handle);
  std::string from, to;
  StableIValue bits = 0;
  try {
    bits = PROBE_CONVERSIONS from(tensor);
    auto encoded = reinterpret_cast<AtenTensorHandle>(bits);
    void* data = nullptr;
    void* encoded_data = nullptr;
    aoti_torch_get_data_ptr(handle, &data);
    if (encoded == handle) from = "the same handle";
    else if (encoded == nullptr || aoti_torch_get_data_ptr(encoded, &encoded_data) != AOTI_TORCH_SUCCESS)
      from = "no tensor handle";
    else from = encoded_data == data ? "new handle of the same tensor" : "handle of another tensor";
  } catch (const std::exception&) {
    print("torch::stable::Tensor", "empty 2x3 float32", "refused", "");
    return;
  }
  try {
    torch::stable::Tensor back = PROBE_CONVERSIONS to<torch::stable::Tensor>(bits);
    to = reinterpret_cast<StableIValue>(back.get()) == bits ? "Tensor owning that handle" : "Tensor of another handle";
  } catch (const std::exception&) {
    to = "refused";
  }
  print("torch::stable::Tensor", "empty 2x3 float32", from, to);
}
)probe";

class ProbeSource {
 public:
  ProbeSource(const std::filesystem::path& include_dir, const ShimInventory& inventory)
      : specializations_(find_conversion_specializations(include_dir)),
        inventory_(inventory),
        include_dir_(include_dir) {}

  std::string text() {
    std::string source =
        "// Generated by torch-abi-check baseline: runs the stable headers' from/to on every probed value.\n";
    source += umbrella_source(stable_wrapper_headers(include_dir_));
    source +=
        "#include <cstdint>\n#include <cstdio>\n#include <initializer_list>\n#include <limits>\n#include "
        "<optional>\n#include <string>\n";
    source += "#include <type_traits>\n#include <vector>\n";
    source += fmt::format("#define PROBE_CONVERSIONS {}\n",
                          specializations_.in_detail_namespace ? "torch::stable::detail::" : "::");
    source += kProbePrelude;
    collect_cases();
    if (converts("HeaderOnlyArrayRef") || converts("vector")) source += kListEncoding;
    if (converts("string")) source += kStringEncoding;
    source += enum_shows_;
    source += enum_encodings_;
    if (converts("Device")) {
      source += R"probe(std::string show(const torch::stable::Device& device) {
  return "torch::stable::Device(" + show(device.type()) + ", " + std::to_string(device.index()) + ")";
}
)probe";
    }
    source += kProbeRecord;
    if (converts("Tensor")) source += kTensorRecord;
    source += "}  // namespace probe\n\nint main() {\n";
    for (const auto& probe : cases_) {
      source += fmt::format("  probe::record<{}>({}, {}, [] {{ return {}; }});\n",
                            probe.decoded.empty() ? "probe::NoDecoding" : probe.decoded, cpp_literal(probe.type),
                            cpp_literal(probe.value), probe.make);
    }
    if (converts("Tensor")) source += "  probe::record_tensor();\n";
    source += "  return 0;\n}\n";
    return source;
  }

 private:
  bool converts(std::string_view family) const { return specializations_.from.contains(std::string(family)); }
  bool decodes(std::string_view family) const { return specializations_.to.contains(std::string(family)); }

  void add(std::string type, std::string value, std::string make, bool decoded) {
    std::string decoded_type = decoded ? type : "";
    cases_.push_back({std::move(type), std::move(value), std::move(make), std::move(decoded_type)});
  }

  void collect_cases() {
    for (const auto& primitive : primitive_values()) {
      for (const auto& [label, expression] : primitive.values) {
        add(std::string(primitive.type), std::string(label),
            fmt::format("static_cast<{}>({})", primitive.type, expression), decodes("generic"));
      }
    }
    for (std::string_view family : {"ScalarType", "DeviceType", "Layout", "MemoryFormat", "Tag"}) {
      auto [enum_name, enumerators] = enumerators_of(inventory_, family);
      if (enum_name.empty()) continue;
      enum_names_[std::string(family)] = enum_name;
      write_enum_show(enum_name, enumerators);
      if (!converts(family)) continue;
      write_enum_encoding(enum_name, family);
      for (const auto& enumerator : enumerators) add(enum_name, enumerator, enumerator, decodes(family));
    }
    if (converts("nullopt_t")) add("std::nullopt_t", "std::nullopt", "std::nullopt", decodes("nullopt_t"));
    if (converts("Device") && enum_names_.contains("DeviceType")) {
      for (const auto& device_type : enumerators_of(inventory_, "DeviceType").second) {
        for (int index : {-1, 0, 7}) {
          std::string device = fmt::format("torch::stable::Device({}, {})", device_type, index);
          add("torch::stable::Device", device, device, decodes("Device"));
        }
      }
    }
    collect_list_cases();
    if (converts("string")) {
      for (std::string_view bytes :
           {std::string_view(""), std::string_view("abc"), std::string_view("a\0b", 3), std::string_view("\xc3\xa9")}) {
        add("std::string", string_label(bytes), string_expression(bytes), decodes("string"));
      }
    }
    collect_optional_cases();
  }

  void collect_list_cases() {
    struct ListValue {
      std::string_view element, label, items;
    };
    const ListValue lists[] = {{"int64_t", "{}", ""},
                               {"int64_t", "{1, -2, 3}", "1, -2, 3"},
                               {"int64_t", "{INT64_MIN, INT64_MAX}", "INT64_MIN, INT64_MAX"},
                               {"double", "{1.5, -0.0}", "1.5, -0.0"}};
    for (const auto& list : lists) {
      std::string vector_type = fmt::format("std::vector<{}>", list.element);
      if (converts("vector")) {
        add(vector_type, std::string(list.label), fmt::format("{}{{{}}}", vector_type, list.items), decodes("vector"));
      }
      if (converts("HeaderOnlyArrayRef") && !list.items.empty()) {
        // The array ref views static storage, alive when from reads it.
        std::string type = fmt::format("torch::headeronly::HeaderOnlyArrayRef<{}>", list.element);
        cases_.push_back({type, std::string(list.label),
                          fmt::format("[] {{ static const {} items[] = {{{}}}; return {}(items); }}()", list.element,
                                      list.items, type),
                          decodes("vector") ? vector_type : ""});
      }
    }
  }

  void collect_optional_cases() {
    if (!converts("optional")) return;
    bool decoded = decodes("optional");
    auto add_optional = [&](const std::string& inner, const std::string& label, const std::string& expression,
                            bool inner_decoded) {
      std::string type = fmt::format("std::optional<{}>", inner);
      add(type, label, fmt::format("{}({})", type, expression), decoded && inner_decoded);
      add(type, "std::nullopt", fmt::format("{}()", type), decoded && inner_decoded);
    };
    for (const auto& primitive : primitive_values()) {
      auto sample =
          std::ranges::find(primitive.values, primitive.sample, &std::pair<std::string_view, std::string_view>::first);
      add_optional(std::string(primitive.type), std::string(sample->first),
                   fmt::format("static_cast<{}>({})", primitive.type, sample->second), decodes("generic"));
    }
    if (converts("ScalarType") && enum_names_.contains("ScalarType")) {
      std::string half = enum_names_["ScalarType"] + "::Half";
      add_optional(enum_names_["ScalarType"], half, half, decodes("ScalarType"));
    }
    if (converts("Device") && enum_names_.contains("DeviceType")) {
      std::string cpu = fmt::format("torch::stable::Device({}::CPU, 0)", enum_names_["DeviceType"]);
      add_optional("torch::stable::Device", cpu, cpu, decodes("Device"));
    }
    if (converts("vector")) {
      add_optional("std::vector<int64_t>", "{1, -2, 3}", "std::vector<int64_t>{1, -2, 3}", decodes("vector"));
    }
    if (converts("string")) add_optional("std::string", "\"abc\"", "std::string(\"abc\")", decodes("string"));
  }

  // The getters of libtorch's shim codes for an enum family ({"aoti_torch_dtype_float16",
  // aoti_torch_dtype_float16()}, ...), as the inventory declares them: `int32_t name(void)`.
  std::string shim_codes(std::string_view family) const {
    static const std::map<std::string, std::string, std::less<>> prefixes = {{"ScalarType", "dtype"},
                                                                             {"DeviceType", "device_type"},
                                                                             {"Layout", "layout"},
                                                                             {"MemoryFormat", "memory_format"},
                                                                             {"Tag", "tag"}};
    std::regex getter(fmt::format("(aoti_torch|torch)_{}_\\w+", prefixes.find(family)->second));
    std::vector<std::string> pairs;
    for (const auto& declaration : inventory_.declarations) {
      if (declaration.kind == DeclarationKind::Function && declaration.backend.empty() &&
          declaration.abi_type == "int ()" && std::regex_match(declaration.name, getter)) {
        pairs.push_back(fmt::format("{{\"{0}\", {0}()}}", declaration.name));
      }
    }
    return fmt::format("{{{}}}", fmt::join(pairs, ", "));
  }

  void write_enum_encoding(const std::string& enum_name, std::string_view family) {
    enum_encodings_ += fmt::format(
        "template <>\nstruct Encoding<{}> {{\n  static std::string of(StableIValue bits) {{ return shim_code(bits, "
        "{}); "
        "}}\n}};\n",
        enum_name, shim_codes(family));
    if (family == "DeviceType" && converts("Device")) {
      enum_encodings_ += fmt::format(
          "template <>\nstruct Encoding<torch::stable::Device> {{\n  static std::string of(StableIValue bits) {{ "
          "return "
          "device_code(bits, {}); }}\n}};\n",
          shim_codes(family));
    }
  }

  // show(): the enumerator's name, or the number of a value no enumerator has.
  void write_enum_show(const std::string& enum_name, const std::vector<std::string>& enumerators) {
    enum_shows_ += fmt::format("std::string show({} value) {{\n", enum_name);
    for (const auto& enumerator : enumerators) {
      enum_shows_ += fmt::format("  if (value == {0}) return \"{0}\";\n", enumerator);
    }
    enum_shows_ +=
        fmt::format("  return \"{}(\" + std::to_string(static_cast<long long>(value)) + \")\";\n}}\n", enum_name);
  }

  static std::string string_label(std::string_view bytes) {
    std::string label = "\"";
    for (unsigned char c : bytes) label += (c < 0x20 || c >= 0x7f) ? fmt::format("\\x{:02x}", c) : std::string(1, c);
    return label + "\"";
  }
  static std::string string_expression(std::string_view bytes) {
    std::string literal = "\"";
    for (unsigned char c : bytes) literal += fmt::format("\\x{:02x}", c);
    return fmt::format("std::string({}\", {})", literal, bytes.size());
  }

  ConversionSpecializations specializations_;
  const ShimInventory& inventory_;
  std::filesystem::path include_dir_;
  std::vector<ProbeCase> cases_;
  std::map<std::string, std::string> enum_names_;  // family -> the inventory's enum name
  std::string enum_shows_;
  std::string enum_encodings_;
};

std::vector<ConversionBehaviour> parse_probe_output(const std::string& output) {
  std::vector<ConversionBehaviour> conversions;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with(kCaseMarker)) continue;
    std::vector<std::string> fields;
    std::istringstream parts(line.substr(kCaseMarker.size()));
    for (std::string field; std::getline(parts, field, '\t');) fields.push_back(field);
    fields.resize(4);
    conversions.push_back({fields[0], fields[1], fields[2], fields[3]});
  }
  std::ranges::sort(conversions);
  return conversions;
}

std::string run_step(const std::vector<std::string>& argv, const std::filesystem::path& working_dir,
                     std::string_view step) {
  ProcessResult result = run_process({.argv = argv, .working_dir = working_dir, .timeout = kProbeTimeout});
  if (!result.succeeded()) {
    throw ToolError(fmt::format("behaviour probe: {} failed ({}): {}", step, result.describe(), result.tail(20)));
  }
  return result.output;
}

}  // namespace

ConversionSpecializations find_conversion_specializations(const std::filesystem::path& include_dir) {
  static const std::regex specialised(R"(struct\s+(FromImpl|ToImpl)\s*<(.*)>\s*\{)");
  static const std::regex primary(R"(struct\s+(FromImpl|ToImpl)\s*\{)");
  static const std::regex detail_namespace(R"(HIDDEN_NAMESPACE_BEGIN\(\s*torch\s*,\s*stable\s*,\s*detail\s*\)|)"
                                           R"(namespace\s+torch::stable::detail\b)");
  ConversionSpecializations found;
  for (const auto& header : list_stable_headers(include_dir)) {
    if (!header.starts_with(kWrapperTree)) continue;
    std::string text = read_file_text(include_dir / header);
    if (text.find("Impl") == std::string::npos) continue;
    auto insert = [&](const std::string& which, std::string family) {
      (which == "FromImpl" ? found.from : found.to).insert(std::move(family));
    };
    for (auto it = std::sregex_iterator(text.begin(), text.end(), specialised); it != std::sregex_iterator(); ++it) {
      insert((*it)[1].str(), conversion_family((*it)[2].str()));
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), primary); it != std::sregex_iterator(); ++it) {
      insert((*it)[1].str(), "generic");
    }
    if (std::regex_search(text, detail_namespace)) found.in_detail_namespace = true;
  }
  return found;
}

ProbeExtensionSymbols probe_extension_symbols(const std::filesystem::path& include_dir, TorchVersion target) {
  ScopedTempDir work("torch-abi-check-extension");
  { std::ofstream(work.path() / "extension.cpp") << umbrella_source(stable_wrapper_headers(include_dir)); }
  std::string include = std::filesystem::absolute(include_dir).lexically_normal().string();
  run_step({"c++", "-std=c++17", "-O0", "-w", "-fPIC", "-shared", "-fkeep-inline-functions",
            "-DTORCH_TARGET_VERSION=" + target.to_abi_hex(), "-I" + include, "extension.cpp", "-o", "extension.so"},
           work.path(), "extension compile");
  // A name of torch's namespaces, mangled: a function or object (_ZN5torch..., _ZNK5torch... for a const
  // member), a local static of one (_ZZN5torch...), a vtable, typeinfo or guard variable of one.
  static const std::regex in_torch(R"(_Z(?:T[VIS]|GV)?Z?N[rVK]*5torch.*)");
  ProbeExtensionSymbols symbols;
  for_each_exported_symbol(work.path() / "extension.so", [&](std::string_view name) {
    if (std::regex_match(name.begin(), name.end(), in_torch)) symbols.exports.emplace_back(name);
  });
  std::ranges::sort(symbols.exports);
  symbols.exports.erase(std::ranges::unique(symbols.exports).begin(), symbols.exports.end());
  symbols.imports = read_imported_shim_functions(work.path() / "extension.so");
  return symbols;
}

std::string generate_behaviour_probe(const std::filesystem::path& include_dir, const ShimInventory& inventory) {
  return ProbeSource(include_dir, inventory).text();
}

BehaviourBaseline probe_behaviour(const std::filesystem::path& include_dir, const std::filesystem::path& lib_dir,
                                  const ShimInventory& inventory) {
  ScopedTempDir work("torch-abi-check-behaviour");
  { std::ofstream(work.path() / "probe.cpp") << generate_behaviour_probe(include_dir, inventory); }
  TorchVersion target = inventory.release.minor_release();
  std::string include = std::filesystem::absolute(include_dir).lexically_normal().string();
  std::string lib = std::filesystem::absolute(lib_dir).lexically_normal().string();
  run_step({"c++", "-std=c++17", "-O0", "-w", "-DTORCH_TARGET_VERSION=" + target.to_abi_hex(), "-I" + include,
            "probe.cpp", "-o", "probe", "-L" + lib, "-Wl,-rpath," + lib, "-ltorch_cpu", "-lc10"},
           work.path(), "compile");
  std::string output = run_step({(work.path() / "probe").string()}, work.path(), "run");
  BehaviourBaseline behaviour{inventory.release, target, parse_probe_output(output),
                              probe_extension_symbols(include_dir, target)};
  auto same_key = [](const ConversionBehaviour& a, const ConversionBehaviour& b) {
    return a.type == b.type && a.value == b.value;
  };
  if (auto twice = std::ranges::adjacent_find(behaviour.conversions, same_key); twice != behaviour.conversions.end()) {
    throw ToolError(fmt::format("behaviour probe: {} {} printed twice", twice->type, twice->value));
  }
  if (behaviour.conversions.empty()) throw ToolError("behaviour probe: printed no conversion: " + output);
  return behaviour;
}

}  // namespace abicheck

// The streaming ELF reader against the whole-image reader: the same imports, strings, marker and
// errors from every fixture object, in any chunking and with any number of passes; and wheels whose
// ELF entry is stored, deflated, cut short, or has its .dynamic 12 MB in, behind a device-code section.
#include "audit/elf_stream_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "audit/elf_reader.h"
#include "audit/entry_stream.h"
#include "audit/wheel_reader.h"
#include "core/process.h"
#include "support/build_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

std::string read_file(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), {}};
}

// What a reader made of an object: its imports, or its error message.
struct Outcome {
  std::optional<BinaryImports> imports;
  std::string error;
};

template <typename Read>
Outcome outcome_of(Read read) {
  try {
    return {read(), ""};
  } catch (const BinaryReadError& error) {
    return {std::nullopt, error.what()};
  }
}

void expect_same(const Outcome& streamed, const Outcome& whole, const std::string& what) {
  ASSERT_EQ(streamed.error, whole.error) << what;
  if (!whole.imports) return;
  const BinaryImports& a = *streamed.imports;
  const BinaryImports& b = *whole.imports;
  EXPECT_EQ(a.machine, b.machine) << what;
  EXPECT_EQ(a.soname, b.soname) << what;
  EXPECT_EQ(a.needed, b.needed) << what;
  EXPECT_TRUE(a.undefined == b.undefined) << what;
  EXPECT_EQ(a.symbol_like_strings, b.symbol_like_strings) << what;
  EXPECT_EQ(a.operator_like_strings, b.operator_like_strings) << what;
  EXPECT_EQ(a.identifier_strings, b.identifier_strings) << what;
  EXPECT_EQ(a.target_marker, b.target_marker) << what;
  EXPECT_EQ(a.has_symtab, b.has_symtab) << what;
}

Outcome whole_image(std::string bytes) {
  return outcome_of([&] { return read_elf_imports(std::span<char>(bytes.data(), bytes.size())); });
}

// The limits with every object streamed, however small.
ElfStreamLimits always_streamed() {
  ElfStreamLimits limits;
  limits.whole_object_bytes = 0;
  return limits;
}

Outcome streamed(const std::string& bytes, std::size_t chunk, ElfStreamLimits limits = always_streamed()) {
  MemoryEntryStream stream(std::span<const char>(bytes.data(), bytes.size()), chunk);
  return outcome_of([&] { return read_elf_imports_streamed(stream, limits); });
}

// Counts the passes a reader makes over a stream.
class CountingStream : public MemoryEntryStream {
 public:
  using MemoryEntryStream::MemoryEntryStream;
  void rewind() override {
    ++passes;
    MemoryEntryStream::rewind();
  }
  int passes = 0;
};

class ElfStream : public ::testing::Test {
 protected:
  // A shared object with a 12 MB device-code section between .rodata and .dynamic (as nvcc's
  // .nv_fatbin lies in CUDA extensions), a shim name in .rodata, one in the device blob (never a
  // dlsym string), the target marker, and 4000 exported variables so that .dynsym and .dynstr
  // reach past the 64 KB of headers that are always kept.
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("elf-stream-" + std::to_string(getpid()));
    fs::create_directories(scratch_);
    std::ofstream source(scratch_ / "far_dynamic.c");
    for (int i = 0; i < 4000; ++i) source << "int exported_variable_" << i << " = " << i << ";\n";
    source << "#include <dlfcn.h>\n"
           << "__attribute__((section(\".nv_fatbin\"), used)) const char device_blob[12 << 20] =\n"
           << "    \"\\0torch_device_side_name\";\n"
           << "const char marker[] = \"torch-abi-check:target=0x020B000000000000\";\n"
           << "void* find_shim(void) { return dlsym(RTLD_DEFAULT, \"aoti_torch_get_device_index\"); }\n"
           << "const char* marker_text(void) { return marker; }\n";
    source.close();
    ProcessResult result = run_process({.argv = {"cc", "-shared", "-fPIC", "-O1", (scratch_ / "far_dynamic.c").string(),
                                                 "-o", (scratch_ / "far_dynamic.so").string()},
                                        .timeout = std::chrono::minutes(2)});
    ASSERT_TRUE(result.succeeded()) << result.output;
    far_dynamic_ = read_file(scratch_ / "far_dynamic.so");
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }

  static std::vector<fs::path> fixture_objects() {
    std::vector<fs::path> objects;
    for (const auto& entry : fs::directory_iterator(fs::path(TORCH_ABI_CHECK_FIXTURES) / "audit" / "bad")) {
      std::string bytes = read_file(entry.path());
      if (bytes.starts_with("\x7f"
                            "ELF"))
        objects.push_back(entry.path());
    }
    objects.push_back(scratch_ / "far_dynamic.so");
    return objects;
  }

  static inline fs::path scratch_;
  static inline std::string far_dynamic_;
};

TEST_F(ElfStream, FarDynamicObjectIsLaidOutAsCudaExtensionsAre) {
  // .dynamic lies past the 12 MB section: what the early bytes alone cannot tell.
  Outcome whole = whole_image(far_dynamic_);
  ASSERT_TRUE(whole.imports) << whole.error;
  EXPECT_GT(far_dynamic_.size(), std::size_t{12} << 20);
  EXPECT_EQ(whole.imports->symbol_like_strings, std::vector<std::string>{"aoti_torch_get_device_index"});
  EXPECT_EQ(whole.imports->target_marker, "0x020B000000000000");
}

TEST_F(ElfStream, MatchesTheWholeImageReaderOnEveryFixtureInAnyChunking) {
  for (const auto& path : fixture_objects()) {
    std::string bytes = read_file(path);
    Outcome whole = whole_image(bytes);
    for (std::size_t chunk : {std::size_t{1} << 20, std::size_t{4099}, std::size_t{61}}) {
      if (chunk < 4096 && bytes.size() > (1 << 20)) continue;  // the small chunks on the small objects only
      expect_same(streamed(bytes, chunk), whole, path.filename().string() + " in chunks of " + std::to_string(chunk));
    }
  }
}

TEST_F(ElfStream, OnePassWhenTheTablesLieInTheEarlySegmentAndMoreWhenTheyDoNot) {
  CountingStream one_pass(std::span<const char>(far_dynamic_.data(), far_dynamic_.size()));
  read_elf_imports_streamed(one_pass, always_streamed());
  EXPECT_EQ(one_pass.passes, 1);
  // Keeping no early segment leaves .dynsym and .dynstr to a second pass, with the same outcome.
  ElfStreamLimits no_early = always_streamed();
  no_early.max_early_bytes = 0;
  CountingStream two_passes(std::span<const char>(far_dynamic_.data(), far_dynamic_.size()));
  Outcome outcome = outcome_of([&] { return read_elf_imports_streamed(two_passes, no_early); });
  EXPECT_EQ(two_passes.passes, 2);
  expect_same(outcome, whole_image(far_dynamic_), "no early segment");
}

// Read-only sections laid side by side (assembler sections of alignment 1, in the order written):
// strings cut by a section's start, runs past the longest string taken, and a fat binary header
// in a section that is read (its bytes are read again); every chunking of the stream, and a bound
// on noted runs that leaves the later sections to a last pass.
TEST_F(ElfStream, ReadOnlyStringsAtSectionEdgesMatchTheWholeImageReader) {
  std::string fatbin("\x50\xed\x55\xba\x01\x00\x10\x00", 8);
  // Larger than the first 64 KB and the 64 KB before the section headers, which are kept whole.
  std::uint64_t fatbin_size = std::uint64_t{192} << 10;
  fatbin.append(reinterpret_cast<const char*>(&fatbin_size), sizeof(fatbin_size));
  fatbin += "\0inside_fake_fatbin"s + std::string(fatbin_size - 19, '\0');
  std::vector<std::pair<std::string, std::string>> sections{
      {".ro_a", "\0head_"s},  // ends without a NUL: the next section's first string is cut from it
      {".ro_b", "split_ident\0-notme\0aten::transpose\0int\0"s + std::string(300, 'a') + "\0"s + std::string(70, 'b') +
                    "\0ns::"s + std::string(200, 'o') + "\0"s},
      {".ro_c", std::string(280, 'q')},
      {".ro_d", "qqqq_tail\0"s},  // a run of 289 bytes, taken cut at the section's start
      {".ro_e", "x-"s},
      {".ro_f", "fresh_start\0"s + fatbin + "after_fatbin\0"s}};
  std::string source = "__asm__(\n";
  for (const auto& [name, bytes] : sections) {
    source += "\".section " + name + ",\\\"a\\\",@progbits\\n.byte ";
    for (std::size_t i = 0; i < bytes.size(); ++i)
      source += (i ? "," : "") + std::to_string(static_cast<unsigned char>(bytes[i]));
    source += "\\n\"\n";
  }
  source += "\".text\\n\");\nint use(void) { return 0; }\n";
  std::ofstream(scratch_ / "edges.c") << source;
  ProcessResult result = run_process(
      {.argv = {"cc", "-shared", "-fPIC", (scratch_ / "edges.c").string(), "-o", (scratch_ / "edges.so").string()},
       .timeout = std::chrono::minutes(2)});
  ASSERT_TRUE(result.succeeded()) << result.output;
  std::string bytes = read_file(scratch_ / "edges.so");
  ASSERT_NE(bytes.find("\0head_split_ident\0"s), std::string::npos) << "sections not side by side";
  ASSERT_NE(bytes.find(std::string(284, 'q') + "_tail"), std::string::npos);
  ASSERT_NE(bytes.find("x-fresh_start"), std::string::npos);

  Outcome whole = whole_image(bytes);
  ASSERT_TRUE(whole.imports) << whole.error;
  const std::vector<std::string>& identifiers = whole.imports->identifier_strings;
  auto has = [&](const std::string& text) {
    return std::find(identifiers.begin(), identifiers.end(), text) != identifiers.end();
  };
  for (const char* taken : {"split_ident", "int", "qqqq_tail", "fresh_start", "inside_fake_fatbin", "after_fatbin"})
    EXPECT_TRUE(has(taken)) << taken;
  for (const char* left : {"head_", "head_split_ident", "notme"}) EXPECT_FALSE(has(left)) << left;
  EXPECT_EQ(whole.imports->operator_like_strings,
            (std::vector<std::string>{"aten::transpose", "ns::" + std::string(200, 'o')}));

  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{61}, std::size_t{4099}, std::size_t{1} << 20}) {
    expect_same(streamed(bytes, chunk), whole, "in chunks of " + std::to_string(chunk));
    for (std::uint64_t run_bytes : {std::uint64_t{0}, std::uint64_t{2000}}) {
      ElfStreamLimits few_runs = always_streamed();
      few_runs.max_string_run_bytes = run_bytes;
      expect_same(streamed(bytes, chunk, few_runs), whole,
                  "in chunks of " + std::to_string(chunk) + " with " + std::to_string(run_bytes) + " bytes of runs");
    }
  }
  // The fake fat binary lies in a section that is read: one more pass reads it again.
  CountingStream passes(std::span<const char>(bytes.data(), bytes.size()));
  read_elf_imports_streamed(passes, always_streamed());
  EXPECT_EQ(passes.passes, 2);
}

TEST_F(ElfStream, RefusesToKeepMoreThanItsBound) {
  ElfStreamLimits tiny = always_streamed();
  tiny.max_kept_bytes = 1024;
  Outcome outcome = streamed(far_dynamic_, 1 << 20, tiny);
  EXPECT_FALSE(outcome.imports);
  EXPECT_NE(outcome.error.find("more than the 1024 read"), std::string::npos) << outcome.error;
}

// A wheel holding far_dynamic.so under the given compression; sizes patched when declared_size is set.
fs::path write_object_wheel(const fs::path& path, const std::string& object, zip_int32_t method,
                            std::optional<std::uint32_t> declared_size = std::nullopt) {
  fs::remove(path);
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  EXPECT_NE(archive, nullptr);
  zip_source_t* source = zip_source_buffer(archive, object.data(), object.size(), 0);
  zip_int64_t index = zip_file_add(archive, "pkg/_C.so", source, ZIP_FL_ENC_UTF_8);
  EXPECT_GE(index, 0);
  zip_set_file_compression(archive, index, method, 1);
  EXPECT_EQ(zip_close(archive), 0);
  if (declared_size) {
    // The uncompressed size in the local header (offset 22) and the central directory entry (24),
    // both, so the archive stays consistent and only the content disagrees with what it declares.
    std::string bytes = read_file(path);
    std::size_t central = bytes.rfind(std::string("PK\x01\x02", 4));
    for (std::size_t at : {std::size_t{22}, central + 24}) std::memcpy(bytes.data() + at, &*declared_size, 4);
    std::ofstream(path, std::ios::binary) << bytes;
  }
  return path;
}

Outcome audit_wheel_entry(const fs::path& wheel, std::string& wheel_error) {
  Outcome outcome;
  try {
    WheelReader reader = WheelReader::open_file(wheel);
    reader.for_each_binary_entry([&](const std::string&, EntryStream& entry) {
      outcome = outcome_of([&] { return read_binary_imports(entry).front(); });
    });
  } catch (const WheelReadError& error) {
    wheel_error = error.what();
  }
  return outcome;
}

TEST_F(ElfStream, StoredAndDeflatedWheelEntriesReadAsTheFileDoes) {
  // far_dynamic.so is past the size that is read whole, so the wheel's entry is streamed.
  ASSERT_GT(far_dynamic_.size(), ElfStreamLimits{}.whole_object_bytes);
  Outcome whole = whole_image(far_dynamic_);
  for (auto [method, name] : {std::pair{ZIP_CM_STORE, "stored"}, std::pair{ZIP_CM_DEFLATE, "deflated"}}) {
    std::string wheel_error;
    Outcome entry = audit_wheel_entry(
        write_object_wheel(scratch_ / (std::string(name) + "-1.0-py3-none-linux_x86_64.whl"), far_dynamic_, method),
        wheel_error);
    EXPECT_EQ(wheel_error, "") << name;
    expect_same(entry, whole, name);
  }
}

TEST_F(ElfStream, EntryShorterOrLongerThanItDeclaresFailsTheWheel) {
  auto size = static_cast<std::uint32_t>(far_dynamic_.size());
  for (auto [declared, problem] : {std::pair{size + 4096, "is corrupt"}, std::pair{size - 4096, "is corrupt"}}) {
    std::string wheel_error;
    audit_wheel_entry(
        write_object_wheel(scratch_ / "cut-1.0-py3-none-linux_x86_64.whl", far_dynamic_, ZIP_CM_DEFLATE, declared),
        wheel_error);
    EXPECT_NE(wheel_error.find("entry 'pkg/_C.so' " + std::string(problem)), std::string::npos)
        << declared << ": " << wheel_error;
  }
}

TEST_F(ElfStream, DeflatedEntryWithAWrongCrcOrBrokenDataFailsTheWheel) {
  // A deflated entry is inflated by ISA-L, which must still check what libzip checked: the CRC the
  // archive records (local header offset 14, central directory entry 16) and the deflate data itself.
  const fs::path wheel = scratch_ / "crc-1.0-py3-none-linux_x86_64.whl";
  const std::string good = read_file(write_object_wheel(wheel, far_dynamic_, ZIP_CM_DEFLATE));
  const std::size_t central = good.rfind(std::string("PK\x01\x02", 4));
  std::string wrong_crc = good;
  for (std::size_t at : {std::size_t{14}, central + 16}) wrong_crc[at] = static_cast<char>(wrong_crc[at] ^ 0x5a);
  std::string broken_data = good;
  for (std::size_t at = 1000; at < 1064; ++at) broken_data[at] = static_cast<char>(0xff);
  for (const auto& [bytes, problem] : {std::pair{wrong_crc, "CRC error"}, std::pair{broken_data, ""}}) {
    std::ofstream(wheel, std::ios::binary | std::ios::trunc) << bytes;
    std::string wheel_error;
    audit_wheel_entry(wheel, wheel_error);
    EXPECT_NE(wheel_error.find("entry 'pkg/_C.so' is corrupt: " + std::string(problem)), std::string::npos)
        << problem << ": " << wheel_error;
  }
}

// Raw deflate of `bytes`; without its last block (a sync flush instead of the end) when `final` is false.
std::string raw_deflate(const std::string& bytes, bool final) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&stream, bytes.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, final ? Z_FINISH : Z_SYNC_FLUSH), final ? Z_STREAM_END : Z_OK);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// A zip written byte by byte, so that an entry's deflate data can be what libzip would never write:
// each entry is {name, content, compressed bytes}, method deflate, the CRC and sizes of its content.
fs::path write_hand_made_wheel(const fs::path& path, const std::vector<std::array<std::string, 3>>& entries) {
  std::string out;
  std::string central;
  auto put = [](std::string& to, std::uint64_t value, int bytes) {
    for (int at = 0; at < bytes; ++at) to.push_back(static_cast<char>((value >> (8 * at)) & 0xff));
  };
  for (const auto& [name, content, compressed] : entries) {
    std::uint64_t offset = out.size();
    auto crc = crc32(0, reinterpret_cast<const Bytef*>(content.data()), static_cast<uInt>(content.size()));
    for (std::string* header : {&out, &central}) {
      put(*header, header == &out ? 0x04034b50 : 0x02014b50, 4);
      if (header == &central) put(*header, 20, 2);                          // made by
      for (std::uint64_t field : {20, 0, 8, 0, 0}) put(*header, field, 2);  // version, flags, method, time, date
      put(*header, crc, 4);
      put(*header, compressed.size(), 4);
      put(*header, content.size(), 4);
      put(*header, name.size(), 2);
      put(*header, 0, 2);  // extra field
      if (header == &central) {
        for (int field = 0; field < 3; ++field) put(*header, 0, 2);  // comment, disk, internal attributes
        put(*header, 0, 4);                                          // external attributes
        put(*header, offset, 4);
      }
      *header += name;
    }
    out += compressed;
  }
  std::uint64_t central_offset = out.size();
  out += central;
  put(out, 0x06054b50, 4);
  for (std::uint64_t field : {0UL, 0UL, entries.size(), entries.size()}) put(out, field, 2);
  put(out, central.size(), 4);
  put(out, central_offset, 4);
  put(out, 0, 2);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << out;
  return path;
}

TEST_F(ElfStream, DeflatedEntryWhoseDataEndsEarlyIsJudgedByItsSizeAndCrc) {
  // As libzip had it before ISA-L inflated the entries: where the compressed bytes end, the data
  // ends, last block or not, and the size and CRC judge what came out. An object whose last block is
  // missing but whose content is whole reads as the file does; one cut in half is a CRC error; an
  // empty deflated entry with no bytes at all (beside the object) is no error.
  const std::string whole_data = raw_deflate(far_dynamic_, true);
  const Outcome whole = whole_image(far_dynamic_);
  struct Case {
    std::string what;
    std::string compressed;
    std::string problem;  // empty: the wheel reads as the file does
  };
  for (const Case& each : {Case{"no last block", raw_deflate(far_dynamic_, false), ""},
                           Case{"cut in half", whole_data.substr(0, whole_data.size() / 2), "CRC error"}}) {
    std::string wheel_error;
    Outcome entry = audit_wheel_entry(
        write_hand_made_wheel(scratch_ / "hand-1.0-py3-none-linux_x86_64.whl",
                              {{"pkg/__init__.py", "", ""}, {"pkg/_C.so", far_dynamic_, each.compressed}}),
        wheel_error);
    if (each.problem.empty()) {
      EXPECT_EQ(wheel_error, "") << each.what;
      expect_same(entry, whole, each.what);
    } else {
      EXPECT_NE(wheel_error.find("entry 'pkg/_C.so' is corrupt: " + each.problem), std::string::npos)
          << each.what << ": " << wheel_error;
    }
  }
}

}  // namespace
}  // namespace abicheck

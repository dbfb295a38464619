// Inflates every deflated ELF entry of each wheel named, twice: through libzip (zlib; CRC checked by
// libzip), as the audit did before issue 19's ISA-L change, and as raw deflate through ISA-L's
// isal_inflate (CRC by ISA-L, compared with the archive's), as it does now. Prints the CPU of each
// per wheel, so the ratio is the inflate's alone, without the audit around it. Built and run by
// bench/bench_inflate.sh.
#include <isa-l/igzip_lib.h>
#include <sys/resource.h>
#include <zip.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

bool is_deflated_elf(zip_t* archive, zip_uint64_t index) {
  zip_stat_t stat;
  if (zip_stat_index(archive, index, 0, &stat) != 0 || stat.comp_method != ZIP_CM_DEFLATE || stat.size < 4) {
    return false;
  }
  zip_file_t* file = zip_fopen_index(archive, index, 0);
  char magic[4];
  bool elf = file && zip_fread(file, magic, 4) == 4 && std::memcmp(magic, "\177ELF", 4) == 0;
  if (file) zip_fclose(file);
  return elf;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::uint8_t> input(256 * 1024);
  std::vector<std::uint8_t> output(1 << 20);
  auto state = std::make_unique<inflate_state>();
  std::printf("| wheel | ELF entries | inflated MB | zlib (libzip) CPU s | ISA-L CPU s | zlib / ISA-L |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int arg = 1; arg < argc; ++arg) {
    int code = 0;
    zip_t* archive = zip_open(argv[arg], ZIP_RDONLY, &code);
    if (!archive) {
      std::fprintf(stderr, "inflate_zlib_isal: %s: not a zip\n", argv[arg]);
      return 2;
    }
    std::vector<zip_uint64_t> entries;
    double inflated = 0;
    for (zip_int64_t index = 0; index < zip_get_num_entries(archive, 0); ++index) {
      if (!is_deflated_elf(archive, index)) continue;
      zip_stat_t stat;
      zip_stat_index(archive, index, 0, &stat);
      entries.push_back(index);
      inflated += static_cast<double>(stat.size);
    }
    double start = cpu_seconds();
    for (zip_uint64_t index : entries) {
      zip_file_t* file = zip_fopen_index(archive, index, 0);
      while (zip_fread(file, output.data(), output.size()) > 0) {
      }
      zip_fclose(file);
    }
    double zlib_cpu = cpu_seconds() - start;
    start = cpu_seconds();
    for (zip_uint64_t index : entries) {
      zip_stat_t stat;
      zip_stat_index(archive, index, 0, &stat);
      zip_file_t* file = zip_fopen_index(archive, index, ZIP_FL_COMPRESSED);
      isal_inflate_init(state.get());
      state->crc_flag = ISAL_GZIP_NO_HDR;
      std::uint64_t total = 0;
      while (state->block_state != ISAL_BLOCK_FINISH) {
        if (state->avail_in == 0) {
          zip_int64_t got = zip_fread(file, input.data(), input.size());
          if (got <= 0) break;
          state->next_in = input.data();
          state->avail_in = static_cast<std::uint32_t>(got);
        }
        state->next_out = output.data();
        state->avail_out = static_cast<std::uint32_t>(output.size());
        if (isal_inflate(state.get()) != ISAL_DECOMP_OK) break;
        total += output.size() - state->avail_out;
      }
      zip_fclose(file);
      if (total != stat.size || state->crc != stat.crc) {
        std::fprintf(stderr, "inflate_zlib_isal: %s: entry %llu: size or CRC differs\n", argv[arg],
                     static_cast<unsigned long long>(index));
        return 2;
      }
    }
    double isal_cpu = cpu_seconds() - start;
    std::string name = argv[arg];
    name = name.substr(name.rfind('/') + 1);
    std::printf("| %s | %zu | %.0f | %.3f | %.3f | %.2fx |\n", name.c_str(), entries.size(), inflated / 1e6, zlib_cpu,
                isal_cpu, isal_cpu > 0 ? zlib_cpu / isal_cpu : 0.0);
    zip_close(archive);
  }
  return 0;
}

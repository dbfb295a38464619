#include "audit/elf_stream_reader.h"

#include <elf.h>
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "audit/elf_reader.h"
#include "audit/entry_stream.h"

namespace abicheck {
namespace {

// The ELF and program headers are read from these first bytes before the pass decides what to keep.
constexpr std::uint64_t kHeaderWindow = std::uint64_t{64} << 10;
// GNU ld and LLD put .shstrtab just before the section header table.
constexpr std::uint64_t kSectionNamesWindow = std::uint64_t{64} << 10;
// scan_read_only_string_at looks at most 6 bytes back ("aoti_" and the byte before it) and under
// 300 ahead (256 name characters and a terminator; a marker's prefix and 64 characters).
constexpr std::size_t kLookBehind = 6;
constexpr std::size_t kLookAhead = 300;
constexpr std::size_t kChunk = 1 << 20;
constexpr int kMaxPasses = 3;

struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// [offset, offset + length) within the object, or an empty range where it overflows or runs past it.
ByteRange range_within(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  if (offset > size || length > size - offset) return {};
  return {offset, offset + length};
}

bool covered(std::vector<ByteRange> kept, ByteRange wanted) {
  std::sort(kept.begin(), kept.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  std::uint64_t reached = wanted.begin;
  for (ByteRange range : kept) {
    if (range.begin > reached) break;
    reached = std::max(reached, range.end);
  }
  return reached >= wanted.end;
}

// The object's address range, of which only the kept ranges are ever written: untouched pages of an
// anonymous mapping take no memory, so resident size is what was kept, not the object's size.
class SparseImage {
 public:
  explicit SparseImage(std::uint64_t size) : size_(size) {
    address_ = mmap(nullptr, std::max<std::uint64_t>(size, 1), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (address_ == MAP_FAILED) throw ElfReadError(fmt::format("cannot reserve {} bytes of address space", size));
  }
  ~SparseImage() { munmap(address_, std::max<std::uint64_t>(size_, 1)); }
  SparseImage(const SparseImage&) = delete;
  SparseImage& operator=(const SparseImage&) = delete;

  std::span<char> bytes() const { return {static_cast<char*>(address_), size_}; }

 private:
  void* address_ = nullptr;
  std::uint64_t size_ = 0;
};

// What the first pass notes of the bytes going by, for the read-only data sections to be judged
// from afterwards: which sections those are is known only from the section headers at the object's
// end, so everything that some section could turn into a string that scan_read_only_strings takes
// is noted, with its offset, and judged per section by the same rules (scan_read_only_string_at,
// classify_read_only_string).
class NotedStrings {
 public:
  NotedStrings(std::uint64_t object_size, const ElfStreamLimits& limits)
      : object_size_(object_size),
        max_bytes_(limits.max_string_hit_bytes),
        max_run_bytes_(limits.max_string_run_bytes) {}

  // An occurrence of "torch" at data[match] that may be a shim-shaped string or the target marker,
  // with the bytes around it that scan_read_only_string_at looks at. data holds at least kLookAhead
  // bytes after it unless the object ends sooner; data_offset is data[0]'s offset in the object.
  void note_torch(std::string_view data, std::uint64_t data_offset, std::size_t match) {
    std::string_view rest = data.substr(match);
    std::size_t end = 0;
    if (rest.starts_with(kTargetMarkerPrefix)) {
      end = std::min(data.size(), match + kTargetMarkerPrefix.size() + 65);
    } else if (rest.starts_with("torch_")) {
      // A name is only ever taken when its identifier characters end on a NUL within 256 bytes.
      std::size_t run = match;
      while (run < data.size() && run - match <= 256 && is_identifier_char(data[run])) ++run;
      if (run >= data.size() || run - match > 256 || data[run] != '\0') return;
      end = run + 1;
    } else {
      return;
    }
    std::size_t begin = match >= kLookBehind ? match - kLookBehind : 0;
    count(end - begin + sizeof(TorchHit));
    torch_hits_.push_back({data_offset + match, data_offset + begin, std::string(data.substr(begin, end - begin))});
  }

  // The next bytes of the object, in order, each byte once: notes every run of string bytes
  // ([A-Za-z0-9_:.], is_read_only_string_char) that ends on a NUL. A section's C string that ends
  // on that NUL is the run, or where the section starts inside the run, the run's part in the
  // section; scan_read_only_strings can take it only if it is at most kLongestReadOnlyString bytes,
  // so a run keeps its last kLongestReadOnlyString bytes and its length up to kLongRun.
  // Runs are not noted where device code was found (note_device_code), nor after the runs' bound was
  // reached: a section there is answered from its bytes after another pass (answers).
  void note_runs(std::string_view chunk, std::uint64_t chunk_offset) {
    while (!chunk.empty() && !runs_full_) {
      const ByteRange* skip = nullptr;  // the first skipped range not yet behind
      for (const ByteRange& range : skipped_) {
        if (range.end > chunk_offset && (!skip || range.begin < skip->begin)) skip = &range;
      }
      if (!skip) {
        note_runs_in(chunk, chunk_offset);
        return;
      }
      std::uint64_t until = chunk_offset < skip->begin ? skip->begin : skip->end;
      std::size_t length = std::min<std::uint64_t>(until - chunk_offset, chunk.size());
      if (chunk_offset < skip->begin) note_runs_in(chunk.substr(0, length), chunk_offset);
      chunk.remove_prefix(length);
      chunk_offset += length;
      if (chunk_offset == skip->end) {
        // A run open here began in the skipped bytes: any section that judges it starts here or later
        // (answers), so it is only ever taken cut at that section's start; its earlier bytes are never read.
        open_length_ = kLongRun;
        open_preceded_ = false;
        open_tail_.assign(kLongestReadOnlyString, '\0');
      }
    }
  }

  // Bytes known from the program headers to be code (an executable PT_LOAD that does not start the
  // object): runs there are not noted either.
  void skip_code(ByteRange code) {
    if (code.end > code.begin) skipped_.push_back(code);
  }

  // Looks for nvcc's fat binary containers (what .nv_fatbin holds, most of a CUDA object) starting in
  // data[.., limit), data holding at least their 16-byte header after limit unless the object ends:
  // the runs inside them are not noted. Which section they lie in is known only at the end; should a
  // section that is judged reach into one, it is read again (answers).
  void note_device_code(std::string_view data, std::uint64_t data_offset, std::size_t limit) {
    constexpr std::string_view kFatbinMagic("\x50\xed\x55\xba", 4);
    constexpr std::size_t kHeader = 16;
    std::size_t at = device_search_at_ > data_offset ? device_search_at_ - data_offset : 0;
    while (at < limit) {
      std::size_t found = data.find(kFatbinMagic, at);
      if (found == std::string_view::npos || found >= limit) break;
      at = found + 1;
      if (data.size() - found < kHeader) continue;
      std::uint16_t header_size = 0;
      std::uint64_t size = 0;
      std::memcpy(&header_size, data.data() + found + 6, sizeof(header_size));
      std::memcpy(&size, data.data() + found + 8, sizeof(size));
      std::uint64_t begin = data_offset + found;
      if (header_size < kHeader || size < kLeastDeviceCode || header_size > object_size_ - begin ||
          size > object_size_ - begin - header_size)
        continue;
      skipped_.push_back({begin, begin + header_size + size});
      device_search_at_ = skipped_.back().end;
      return;
    }
    device_search_at_ = std::max(device_search_at_, data_offset + limit);
  }
  // Where the search for device code goes on.
  std::uint64_t device_search_at() const { return device_search_at_; }

  // Whether the section at [offset, offset + size) can be judged from what was noted: it reaches
  // into no skipped bytes.
  bool answers(std::uint64_t offset, std::uint64_t size) const {
    return std::none_of(skipped_.begin(), skipped_.end(),
                        [&](ByteRange skip) { return size > 0 && offset < skip.end && skip.begin < offset + size; });
  }

 private:
  void note_runs_in(std::string_view chunk, std::uint64_t chunk_offset) {
    if (chunk.empty()) return;
    std::size_t at = 0;
    while (const void* found = std::memchr(chunk.data() + at, 0, chunk.size() - at)) {
      if (runs_full_) return;
      std::size_t nul = static_cast<const char*>(found) - chunk.data();
      std::size_t floor = nul - std::min<std::size_t>(nul, kLongRun);
      std::size_t begin = nul;
      while (begin > floor && is_read_only_string_char(chunk[begin - 1])) --begin;
      if (begin > 0 || nul - begin == kLongRun) {
        bool preceded = begin > 0 && nul - begin < kLongRun && chunk[begin - 1] == '\0';
        if (begin < nul) note_run(chunk_offset + nul, nul - begin, preceded, {}, chunk.substr(begin, nul - begin));
      } else if (nul + open_length_ > 0) {  // the run began before this chunk
        note_run(chunk_offset + nul, std::min(nul + open_length_, kLongRun), open_preceded_, open_tail_,
                 chunk.substr(0, nul));
      }
      at = nul + 1;
      while (at < chunk.size() && chunk[at] == '\0') ++at;  // the strings these NULs end are empty
    }
    // The run still open at the chunk's end, for the next chunk.
    std::size_t open = 0;
    while (open < chunk.size() && open < kLongRun && is_read_only_string_char(chunk[chunk.size() - 1 - open])) ++open;
    if (open < chunk.size() && open < kLongRun) {
      open_length_ = open;
      open_preceded_ = chunk[chunk.size() - 1 - open] == '\0';
      open_tail_.assign(chunk.substr(chunk.size() - open));
    } else {
      open_length_ = std::min(open_length_ + open, kLongRun);
      open_tail_.append(chunk.substr(chunk.size() - open));
      if (open == kLongRun) open_preceded_ = false;
    }
    if (open_tail_.size() > kLongestReadOnlyString) open_tail_.erase(0, open_tail_.size() - kLongestReadOnlyString);
  }

 public:
  // What scan_read_only_strings would find in the section at [offset, offset + size), which answers.
  void judge_section(std::uint64_t offset, std::uint64_t size, ReadOnlyStrings& found) const {
    std::uint64_t section_end = offset + size;
    auto hit = std::lower_bound(torch_hits_.begin(), torch_hits_.end(), offset,
                                [](const TorchHit& hit, std::uint64_t at) { return hit.match < at; });
    for (; hit != torch_hits_.end() && hit->match < section_end; ++hit) {
      std::uint64_t begin = std::max(offset, hit->base);
      std::uint64_t end = std::min(section_end, hit->base + hit->bytes.size());
      std::string_view window(hit->bytes.data() + (begin - hit->base), end - begin);
      scan_read_only_string_at(window, hit->match - begin, found);
    }
    auto run = std::lower_bound(runs_.begin(), runs_.end(), offset,
                                [](const Run& run, std::uint64_t at) { return run.nul < at; });
    for (; run != runs_.end() && run->nul < section_end; ++run) {
      std::uint64_t from_section_start = run->nul - offset;
      std::size_t length = 0;
      if (from_section_start < run->length) {
        length = from_section_start;  // the section starts inside the run: its first string is the rest
      } else if (from_section_start == run->length || run->preceded) {
        length = run->length;  // the run starts the section or follows a NUL: a string of its own
      } else {
        continue;  // another byte precedes the run in the section: part of a longer string
      }
      if (length == 0 || length > kLongestReadOnlyString) continue;
      classify_read_only_string(std::string_view(tails_).substr(run->tail_end - length, length), found);
    }
  }

 private:
  // A run of this length or more is only ever taken cut at a section's start.
  static constexpr std::size_t kLongRun = kLongestReadOnlyString + 1;

  // A fat binary container smaller than this is noted as any other bytes.
  static constexpr std::uint64_t kLeastDeviceCode = std::uint64_t{64} << 10;

  // A run ending at object offset nul, of length (kLongRun: that or more), whose last bytes are
  // head followed by rest.
  void note_run(std::uint64_t nul, std::size_t length, bool preceded, std::string_view head, std::string_view rest) {
    std::size_t keep = std::min(length, kLongestReadOnlyString);
    if (bytes_ + keep + sizeof(Run) > max_run_bytes_) {
      // The runs' bound: from this NUL on, sections are read again rather than judged from notes.
      runs_full_ = true;
      skipped_.push_back({nul, object_size_});
      return;
    }
    if (rest.size() >= keep) {
      tails_.append(rest.substr(rest.size() - keep));
    } else {
      tails_.append(head.substr(head.size() - (keep - rest.size())));
      tails_.append(rest);
    }
    count(keep + sizeof(Run));
    runs_.push_back({nul, static_cast<std::uint32_t>(tails_.size()), static_cast<std::uint16_t>(length), preceded});
  }

  void count(std::uint64_t bytes) {
    bytes_ += bytes;
    if (bytes_ > max_bytes_) {
      throw ElfReadError(fmt::format("more than {} bytes of noted strings: not an extension object", max_bytes_));
    }
  }

  struct TorchHit {
    std::uint64_t match;  // the offset of "torch" in the object
    std::uint64_t base;   // the offset of bytes[0]
    std::string bytes;
  };
  struct Run {
    std::uint64_t nul;       // the offset of the NUL that ends it
    std::uint32_t tail_end;  // where its last bytes end in tails_ (under max_run_bytes_)
    std::uint16_t length;    // up to kLongRun
    bool preceded;           // a NUL, or the object's start, precedes it
  };
  std::vector<TorchHit> torch_hits_;  // in offset order, as the stream delivered them
  std::vector<Run> runs_;             // the same
  std::string tails_;
  // The run of string bytes at the end of what has arrived (its length up to kLongRun, whether a NUL
  // or the object's start precedes it, its last bytes).
  std::size_t open_length_ = 0;
  bool open_preceded_ = true;
  std::string open_tail_;
  std::vector<ByteRange> skipped_;  // where runs were not noted
  std::uint64_t device_search_at_ = 0;
  bool runs_full_ = false;
  std::uint64_t bytes_ = 0;
  std::uint64_t object_size_;
  std::uint64_t max_bytes_;
  std::uint64_t max_run_bytes_;
};

template <typename T>
T read_struct(std::span<const char> image, std::uint64_t offset) {
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

bool is_elf64_little_endian(std::span<const char> image) {
  return image.size() >= sizeof(Elf64_Ehdr) && looks_like_elf(image) && image[EI_CLASS] == ELFCLASS64 &&
         image[EI_DATA] == ELFDATA2LSB;
}

// What the first pass keeps beyond the header window, decided from the ELF and program headers; and
// the code segments (executable PT_LOADs but one that starts the object) into code.
std::vector<ByteRange> first_pass_ranges(std::span<const char> image, std::uint64_t header_bytes,
                                         const ElfStreamLimits& limits, std::vector<ByteRange>& code) {
  std::vector<ByteRange> ranges;
  if (header_bytes < sizeof(Elf64_Ehdr) || !is_elf64_little_endian(image)) return ranges;
  auto header = read_struct<Elf64_Ehdr>(image, 0);
  std::uint64_t size = image.size();
  ByteRange program_headers =
      range_within(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), header_bytes);
  if (header.e_phentsize == sizeof(Elf64_Phdr) && program_headers.end > program_headers.begin) {
    bool early_segment_seen = false;
    for (std::uint64_t at = program_headers.begin; at < program_headers.end; at += sizeof(Elf64_Phdr)) {
      auto segment = read_struct<Elf64_Phdr>(image, at);
      if (segment.p_type == PT_DYNAMIC) ranges.push_back(range_within(segment.p_offset, segment.p_filesz, size));
      if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X) && segment.p_offset > 0)
        code.push_back(range_within(segment.p_offset, segment.p_filesz, size));
      if (segment.p_type == PT_LOAD && !early_segment_seen) {
        early_segment_seen = true;
        if (segment.p_offset == 0 && !(segment.p_flags & PF_X)) {
          ranges.push_back({0, std::min({segment.p_filesz, limits.max_early_bytes, size})});
        }
      }
    }
  }
  if (header.e_shoff != 0 && header.e_shoff < size) {
    std::uint64_t names = header.e_shoff - std::min(header.e_shoff, kSectionNamesWindow);
    std::uint64_t table = std::uint64_t{std::max<std::uint16_t>(header.e_shnum, 1)} * sizeof(Elf64_Shdr);
    ranges.push_back({names, header.e_shoff + std::min(table, size - header.e_shoff)});
  }
  return ranges;
}

// The ranges read_elf_imports will read (other than read-only data, which the string hits answer):
// the section header table, then the dynamic sections, their string tables and the section names.
// Empty where the headers are damaged: read_elf_imports then says what is wrong.
std::vector<ByteRange> needed_ranges(std::span<const char> image, const std::vector<ByteRange>& kept) {
  if (!is_elf64_little_endian(image)) return {};
  auto header = read_struct<Elf64_Ehdr>(image, 0);
  std::uint64_t size = image.size();
  if (header.e_shoff == 0 || header.e_shentsize != sizeof(Elf64_Shdr)) return {};
  ByteRange first_entry = range_within(header.e_shoff, sizeof(Elf64_Shdr), size);
  if (first_entry.end == 0) return {};
  if (!covered(kept, first_entry)) return {first_entry};
  auto first = read_struct<Elf64_Shdr>(image, header.e_shoff);
  std::uint64_t count = header.e_shnum != 0 ? header.e_shnum : first.sh_size;
  if (count > size / sizeof(Elf64_Shdr)) return {};
  ByteRange table = range_within(header.e_shoff, count * sizeof(Elf64_Shdr), size);
  if (table.end == 0) return {};
  if (!covered(kept, table)) return {table};
  std::vector<ByteRange> ranges{table};
  auto section_range = [&](std::uint64_t index) {
    if (index >= count) return;
    auto section = read_struct<Elf64_Shdr>(image, header.e_shoff + index * sizeof(Elf64_Shdr));
    if (section.sh_type == SHT_NOBITS) return;
    ByteRange range = range_within(section.sh_offset, section.sh_size, size);
    if (range.end > range.begin) ranges.push_back(range);
  };
  for (std::uint64_t index = 0; index < count; ++index) {
    auto section = read_struct<Elf64_Shdr>(image, header.e_shoff + index * sizeof(Elf64_Shdr));
    if (section.sh_type == SHT_DYNSYM || section.sh_type == SHT_GNU_versym || section.sh_type == SHT_GNU_verneed ||
        section.sh_type == SHT_DYNAMIC) {
      section_range(index);
      section_range(section.sh_link);
    }
  }
  section_range(header.e_shstrndx == SHN_XINDEX ? first.sh_link : header.e_shstrndx);
  std::sort(ranges.begin(), ranges.end(),
            [](ByteRange a, ByteRange b) { return std::tie(a.begin, a.end) < std::tie(b.begin, b.end); });
  ranges.erase(std::unique(ranges.begin(), ranges.end(),
                           [](ByteRange a, ByteRange b) { return a.begin == b.begin && a.end == b.end; }),
               ranges.end());
  return ranges;
}

// One pass from byte 0 to stop_at: copies the wanted bytes into the image and, when hits is given,
// notes every string occurrence. plan (first pass only) adds wanted ranges once the header window
// has arrived. Returns how far the pass read.
std::uint64_t read_pass(EntryStream& stream, SparseImage& image, std::vector<ByteRange>& wanted, std::uint64_t stop_at,
                        NotedStrings* hits, const std::function<void(std::uint64_t header_bytes)>& plan) {
  std::uint64_t size = image.bytes().size();
  std::vector<char> buffer(kLookBehind + kLookAhead + std::min<std::uint64_t>(kChunk, size));
  std::size_t carry = 0;         // bytes kept at buffer's front from before
  std::uint64_t next_match = 0;  // where the search for "torch" goes on
  std::uint64_t position = 0;
  bool planned = !plan;
  stream.rewind();
  while (position < stop_at) {
    std::size_t room = buffer.size() - carry;
    if (!planned) room = std::min<std::uint64_t>(room, std::max<std::uint64_t>(kHeaderWindow - position, 1));
    std::size_t got = stream.read(std::span<char>(buffer.data() + carry, room));
    if (got == 0) break;
    for (ByteRange range : wanted) {
      std::uint64_t begin = std::max(range.begin, position);
      std::uint64_t end = std::min(range.end, position + got);
      if (begin < end)
        std::memcpy(image.bytes().data() + begin, buffer.data() + carry + (begin - position), end - begin);
    }
    position += got;
    if (!planned && position >= std::min(size, kHeaderWindow)) {
      plan(position);
      planned = true;
    }
    if (!hits) continue;
    std::string_view data(buffer.data(), carry + got);
    std::uint64_t data_offset = position - data.size();
    bool at_end = position == size;
    std::size_t limit = at_end ? data.size() : data.size() - std::min(data.size(), kLookAhead);
    hits->note_device_code(data, data_offset, limit);
    hits->note_runs(data.substr(carry), position - got);
    std::size_t match = next_match - data_offset;
    while ((match = data.find("torch", match)) != std::string_view::npos && match < limit) {
      hits->note_torch(data, data_offset, match);
      match += 5;
    }
    // The next search starts at an occurrence too close to the end to judge, or where a partial one may begin.
    std::size_t resume =
        match != std::string_view::npos ? match : std::max(limit, data.size() - std::min<std::size_t>(data.size(), 4));
    next_match = data_offset + std::max<std::size_t>(resume, next_match - data_offset);
    std::size_t keep_from = std::min<std::size_t>(next_match - data_offset, data.size());
    keep_from -= std::min(keep_from, kLookBehind);
    keep_from = std::min<std::uint64_t>(keep_from, hits->device_search_at() - data_offset);
    carry = data.size() - keep_from;
    std::memmove(buffer.data(), buffer.data() + keep_from, carry);
  }
  return position;
}

}  // namespace

BinaryImports read_elf_imports_streamed(EntryStream& stream, const ElfStreamLimits& limits) {
  std::uint64_t size = stream.size();
  if (size <= limits.whole_object_bytes) {
    std::vector<char> whole = read_whole_entry(stream);
    return read_elf_imports(whole);
  }
  SparseImage image(size);
  NotedStrings hits(size, limits);
  std::vector<ByteRange> wanted{{0, std::min(size, kHeaderWindow)}};
  std::vector<ByteRange> kept;
  auto plan = [&](std::uint64_t header_bytes) {
    std::vector<ByteRange> code;
    for (ByteRange range : first_pass_ranges(image.bytes(), header_bytes, limits, code)) wanted.push_back(range);
    for (ByteRange range : code) hits.skip_code(range);
  };
  // The first pass reads to the end: read-only data may lie anywhere, and only the whole entry
  // proves its declared size (and CRC).
  std::uint64_t reached = read_pass(stream, image, wanted, size, &hits, plan);
  for (int pass = 1;; ++pass) {
    for (ByteRange range : wanted) kept.push_back({range.begin, std::min(range.end, std::max(range.begin, reached))});
    std::vector<ByteRange> missing;
    std::uint64_t needed_bytes = 0;
    for (ByteRange range : needed_ranges(image.bytes(), kept)) {
      needed_bytes += range.end - range.begin;
      if (!covered(kept, range)) missing.push_back(range);
    }
    if (needed_bytes > limits.max_kept_bytes) {
      throw ElfReadError(fmt::format("the section headers and dynamic tables take {} bytes, more than the {} read",
                                     needed_bytes, limits.max_kept_bytes));
    }
    if (missing.empty()) break;
    if (pass == kMaxPasses) throw ElfReadError("the section headers or dynamic tables could not be located");
    std::uint64_t stop_at = 0;
    for (ByteRange range : missing) stop_at = std::max(stop_at, range.end);
    wanted = missing;
    reached = read_pass(stream, image, wanted, stop_at, nullptr, {});
  }
  // Read-only data is judged from the notes; a section that reaches where runs were not noted is
  // read from its bytes, which a last pass copies (only device code seen where such a section lies,
  // or an object past the runs' bound, costs it).
  std::vector<ByteRange> unanswered;
  auto scan = [&](std::uint64_t offset, std::uint64_t length, ReadOnlyStrings& found) {
    if (hits.answers(offset, length)) {
      hits.judge_section(offset, length, found);
    } else if (covered(kept, {offset, offset + length})) {
      scan_read_only_strings(std::string_view(image.bytes().data() + offset, length), found);
    } else {
      unanswered.push_back({offset, offset + length});
    }
  };
  BinaryImports imports = read_elf_imports(image.bytes(), scan);
  if (unanswered.empty()) return imports;
  std::uint64_t stop_at = 0;
  std::uint64_t unanswered_bytes = 0;
  for (ByteRange range : unanswered) {
    stop_at = std::max(stop_at, range.end);
    unanswered_bytes += range.end - range.begin;
  }
  if (unanswered_bytes > limits.max_kept_bytes) {
    throw ElfReadError(fmt::format("the read-only data to read again takes {} bytes, more than the {} read",
                                   unanswered_bytes, limits.max_kept_bytes));
  }
  read_pass(stream, image, unanswered, stop_at, nullptr, {});
  for (ByteRange range : unanswered) kept.push_back(range);
  unanswered.clear();
  return read_elf_imports(image.bytes(), scan);
}

}  // namespace abicheck

#include "audit/entry_stream.h"

#include <fmt/format.h>
#include <isa-l/igzip_lib.h>
#include <zip.h>

#include <algorithm>
#include <cstring>

namespace abicheck {

std::vector<char> read_whole_entry(EntryStream& stream) {
  stream.rewind();
  std::vector<char> bytes(stream.size());
  std::size_t done = 0;
  while (done < bytes.size()) {
    std::size_t got = stream.read(std::span<char>(bytes).subspan(done));
    if (got == 0) break;
    done += got;
  }
  bytes.resize(done);
  return bytes;
}

std::size_t MemoryEntryStream::read(std::span<char> into) {
  std::size_t count = std::min({into.size(), chunk_, bytes_.size() - position_});
  std::memcpy(into.data(), bytes_.data() + position_, count);
  position_ += count;
  return count;
}

namespace {

std::string describe_inflate_error(int code) {
  switch (code) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid deflate distance";
    default: return fmt::format("inflate error {}", code);
  }
}

}  // namespace

// ISA-L's inflate of one pass over a deflated entry: the raw compressed bytes come from libzip
// (ZIP_FL_COMPRESSED), the CRC-32 of what was inflated is kept by ISA-L as it goes.
class ZipEntryStream::Inflater {
 public:
  // Compressed bytes are read in growing blocks, so that looking at a small entry's first bytes
  // does not read 256 KB of it.
  static constexpr std::size_t kFirstInput = 4096;
  static constexpr std::size_t kMaxInput = std::size_t{256} << 10;

  // isal_inflate_init sets what the state needs; the 87 KB of tables are not cleared first.
  Inflater() {  // NOLINT(cppcoreguidelines-pro-type-member-init)
    isal_inflate_init(&state_);
    state_.crc_flag = ISAL_GZIP_NO_HDR;
  }

  // Inflates into `into` until it is full or the data ends; says how many bytes came out. The data
  // ends at the deflate stream's last block or, as libzip has it, where the compressed bytes end
  // (what came out is then judged by its size and CRC). `problem` is set (and 0 returned) where the
  // data is not valid deflate.
  std::size_t inflate(zip_file_t* file, std::span<char> into, std::string& problem) {
    state_.next_out = reinterpret_cast<std::uint8_t*>(into.data());
    state_.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(into.size(), UINT32_MAX));
    const std::uint32_t wanted = state_.avail_out;
    while (state_.avail_out > 0 && !finished()) {
      if (state_.avail_in == 0 && !input_ended_) refill(file, problem);
      if (!problem.empty()) return 0;
      std::uint32_t out_before = state_.avail_out;
      std::uint32_t in_before = state_.avail_in;
      int result = isal_inflate(&state_);
      if (result < 0) {
        problem = describe_inflate_error(result);
        return 0;
      }
      if (state_.avail_out != out_before || state_.avail_in != in_before) continue;
      if (input_ended_) break;
      if (state_.avail_in > 0) {
        problem = "its deflate data does not decode";
        return 0;
      }
    }
    return wanted - state_.avail_out;
  }

  bool finished() const { return state_.block_state == ISAL_BLOCK_FINISH; }
  std::uint32_t crc() const { return state_.crc; }

 private:
  void refill(zip_file_t* file, std::string& problem) {
    input_.resize(std::min(input_.empty() ? kFirstInput : input_.size() * 2, kMaxInput));
    zip_int64_t got = zip_fread(file, input_.data(), input_.size());
    if (got < 0) {
      problem = zip_file_strerror(file);
      return;
    }
    if (got == 0) input_ended_ = true;
    state_.next_in = input_.data();
    state_.avail_in = static_cast<std::uint32_t>(got);
  }

  inflate_state state_;
  std::vector<std::uint8_t> input_;
  bool input_ended_ = false;
};

void ZipEntryStream::FileCloser::operator()(zip_file_t* file) const { zip_fclose(file); }

ZipEntryStream::ZipEntryStream(zip* archive, std::uint64_t index) : archive_(archive), index_(index) {
  zip_stat_t stat;
  zip_stat_init(&stat);
  zip_stat_index(archive_, index_, 0, &stat);
  if (stat.valid & ZIP_STAT_NAME) name_ = stat.name;
  size_ = stat.size;
  crc_ = stat.crc;
  inflate_here_ = (stat.valid & ZIP_STAT_COMP_METHOD) && stat.comp_method == ZIP_CM_DEFLATE &&
                  (stat.valid & ZIP_STAT_CRC) && (stat.valid & ZIP_STAT_ENCRYPTION_METHOD) &&
                  stat.encryption_method == ZIP_EM_NONE;
}

ZipEntryStream::~ZipEntryStream() = default;

void ZipEntryStream::rewind() {
  close();
  file_.reset(zip_fopen_index(archive_, index_, inflate_here_ ? ZIP_FL_COMPRESSED : 0));
  if (!file_) throw WheelReadError(fmt::format("entry '{}': {}", name_, zip_strerror(archive_)));
  if (inflate_here_) inflater_ = std::make_unique<Inflater>();
  position_ = 0;
}

std::size_t ZipEntryStream::read(std::span<char> into) {
  if (!file_) rewind();
  std::uint64_t wanted = std::min<std::uint64_t>(into.size(), size_ - position_);
  if (wanted == 0) {
    if (position_ == size_) check_ends_here();
    return 0;
  }
  std::uint64_t got = 0;
  if (inflater_) {
    std::string problem;
    got = inflater_->inflate(file_.get(), into.first(wanted), problem);
    if (!problem.empty()) fail(problem);
    if (got == 0) fail(inflater_->crc() != crc_ ? "CRC error" : "ends before its declared size");
  } else {
    zip_int64_t read = zip_fread(file_.get(), into.data(), wanted);
    if (read <= 0) fail(read < 0 ? zip_file_strerror(file_.get()) : "ends before its declared size");
    got = static_cast<std::uint64_t>(read);
  }
  position_ += got;
  if (position_ == size_) check_ends_here();
  return static_cast<std::size_t>(got);
}

void ZipEntryStream::check_ends_here() {
  if (checked_end_) return;
  char extra;
  if (inflater_) {
    std::string problem;
    std::size_t more = inflater_->inflate(file_.get(), {&extra, 1}, problem);
    if (more != 0) fail("inflates past its declared size (zip bomb?)");
    if (!problem.empty()) fail(problem);
    if (inflater_->crc() != crc_) fail("CRC error");
  } else {
    zip_int64_t more = zip_fread(file_.get(), &extra, 1);
    if (more != 0) fail(more < 0 ? zip_file_strerror(file_.get()) : "inflates past its declared size (zip bomb?)");
  }
  checked_end_ = true;
}

void ZipEntryStream::fail(const std::string& problem) const {
  throw WheelReadError(fmt::format("entry '{}' is corrupt: {}", name_, problem));
}

void ZipEntryStream::close() {
  file_.reset();
  inflater_.reset();
  checked_end_ = false;
}

}  // namespace abicheck

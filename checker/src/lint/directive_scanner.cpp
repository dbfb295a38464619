#include "lint/directive_scanner.h"

#include "core/file_text.h"

namespace abicheck {
namespace {

// Replaces comments by spaces (keeping newlines, so lines stay where they were) and leaves string
// and character literals alone.
std::string blank_comments(std::string_view text) {
  std::string out(text);
  enum class State { Code, LineComment, BlockComment, String, Char } state = State::Code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    char next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case State::Code:
        if (c == '/' && next == '/') {
          state = State::LineComment;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = State::BlockComment;
          out[i] = ' ';
          out[++i] = ' ';
        } else if (c == '"') state = State::String;
        else if (c == '\'') state = State::Char;
        break;
      case State::LineComment:
        if (c == '\n') state = State::Code;
        else if (c == '\\' && next == '\n') {
          out[i] = ' ';
          ++i;
        } else out[i] = ' ';
        break;
      case State::BlockComment:
        if (c == '*' && next == '/') {
          out[i] = ' ';
          out[++i] = ' ';
          state = State::Code;
        } else if (c != '\n') out[i] = ' ';
        break;
      case State::String:
      case State::Char:
        if (c == '\\') ++i;
        else if ((state == State::String && c == '"') || (state == State::Char && c == '\'') || c == '\n')
          state = State::Code;
        break;
    }
  }
  return out;
}

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

std::vector<PreprocessorDirective> scan_preprocessor_directives(std::string_view text) {
  std::string code = blank_comments(text);
  std::vector<PreprocessorDirective> directives;
  std::size_t position = 0;
  int line = 1;
  while (position < code.size()) {
    std::size_t end = code.find('\n', position);
    if (end == std::string::npos) end = code.size();
    int first_line = line;
    std::string logical = code.substr(position, end - position);
    // A backslash at the end continues the directive on the next physical line.
    while (!logical.empty() && logical.back() == '\\' && end < code.size()) {
      logical.pop_back();
      std::size_t next_end = code.find('\n', end + 1);
      if (next_end == std::string::npos) next_end = code.size();
      logical += code.substr(end + 1, next_end - end - 1);
      end = next_end;
      ++line;
    }
    auto hash = logical.find_first_not_of(" \t\r");
    if (hash != std::string::npos && logical[hash] == '#') {
      std::string rest = trim(std::string_view(logical).substr(hash + 1));
      auto name_end = rest.find_first_of(" \t(<\"");
      PreprocessorDirective directive;
      directive.line = first_line;
      directive.column = static_cast<int>(hash) + 1;
      directive.name = rest.substr(0, name_end);
      directive.argument = name_end == std::string::npos ? "" : trim(std::string_view(rest).substr(name_end));
      directives.push_back(std::move(directive));
    }
    position = end + 1;
    ++line;
  }
  return directives;
}

std::vector<PreprocessorDirective> scan_preprocessor_directives_of(const std::filesystem::path& file) {
  return scan_preprocessor_directives(read_file_text(file));
}

}  // namespace abicheck

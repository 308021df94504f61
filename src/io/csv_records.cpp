#include "io/csv_records.hpp"

#include "io/diagnostics.hpp"

namespace apsp::io::detail {

std::string csv_field(std::string s) {
  const bool needs_quotes = s.find_first_of(",\"\r\n") != std::string::npos || s.empty() ||
                            s.front() == ' ' || s.back() == ' ';
  if (!needs_quotes)
    return s;
  std::string q = "\"";
  for (char c : s) {
    q += c;
    if (c == '"')
      q += '"';
  }
  q += '"';
  return q;
}

csv_records::csv_records(std::string_view text, const std::filesystem::path& p)
    : text_(text), path_(p) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF")
    pos_ = 3;
}

void csv_records::read_quoted(std::string& field) {
  const std::int64_t start_line = line_;
  ++pos_; // opening quote
  for (;;) {
    const std::size_t q = text_.find('"', pos_);
    if (q == std::string_view::npos) {
      fail_line(path_, start_line, "quoted field is never closed");
    }
    for (std::size_t i = pos_; i < q; ++i)
      line_ += text_[i] == '\n';
    field.append(text_.substr(pos_, q - pos_));
    pos_ = q + 1;
    if (pos_ < text_.size() && text_[pos_] == '"') { // "" is a literal quote
      field += '"';
      ++pos_;
      continue;
    }
    return;
  }
}

bool csv_records::next(std::vector<std::string>& fields) {
  for (;;) {
    if (pos_ >= text_.size())
      return false;
    record_line_ = line_;
    fields.clear();
    bool record_done = false;
    while (!record_done) {
      std::string& field = fields.emplace_back();
      if (pos_ < text_.size() && text_[pos_] == '"') {
        read_quoted(field);
        if (pos_ < text_.size() && text_[pos_] == '\r' &&
            (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n')) {
          ++pos_;
        }
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n') {
          fail_line(path_, line_, "unexpected character after a closing quote");
        }
      } else {
        const std::size_t end = text_.find_first_of(",\n", pos_);
        const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
        field.assign(text_.substr(pos_, stop - pos_));
        pos_ = stop;
        // "\r\n" line ends: the '\r' is not data.
        if (!field.empty() && field.back() == '\r' &&
            (stop == text_.size() || text_[stop] == '\n')) {
          field.pop_back();
        }
      }
      if (pos_ >= text_.size()) {
        record_done = true;
      } else if (text_[pos_] == ',') {
        ++pos_;
      } else { // '\n'
        ++pos_;
        ++line_;
        record_done = true;
      }
    }
    const bool blank = fields.size() == 1 && fields[0].empty();
    if (!blank)
      return true;
  }
}

} // namespace apsp::io::detail

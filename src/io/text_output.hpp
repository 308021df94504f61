#pragma once
// Text output without streams: numbers formatted with std::to_chars into large buffers, which
// worker threads fill for consecutive ranges of items and which are written in order.

#include <omp.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "io/atomic_output.hpp"

namespace apsp::io::detail {

inline void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

/// Shortest text that reads back to the same value ("0.1" for 0.1f, not the double's
/// "0.10000000149011612"), and integral values up to 2^53 as plain integers ("100000", never
/// "1e+05": integer parsers, and the formats that declare integer weights, read them as written).
template <class F> void append_real(std::string& out, F v) {
  static_assert(std::is_floating_point_v<F>);
  if (std::trunc(v) == v && std::fabs(static_cast<double>(v)) <= 9007199254740992.0) {
    append_int(out, static_cast<std::int64_t>(v));
    return;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

/// Calls format(text, begin, end) for consecutive ranges of [0, count) of `chunk` items, in
/// parallel, and writes the texts in order. `format` must not throw.
template <class Format>
void write_chunked(atomic_output& out, std::int64_t count, std::int64_t chunk, Format&& format) {
  const std::int64_t slots = 4 * static_cast<std::int64_t>(omp_get_max_threads());
  std::vector<std::string> texts(static_cast<std::size_t>(slots));
  for (std::int64_t first = 0; first < count; first += slots * chunk) {
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t s = 0; s < slots; ++s) {
      std::string& text = texts[static_cast<std::size_t>(s)];
      text.clear();
      const std::int64_t begin = first + s * chunk;
      const std::int64_t end = begin + chunk < count ? begin + chunk : count;
      if (begin < end)
        format(text, begin, end);
    }
    for (const std::string& text : texts)
      out.write(text);
  }
}

} // namespace apsp::io::detail

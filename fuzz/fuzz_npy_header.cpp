// The .npy header parser alone, as read_matrix calls it: the header bytes at the start of a file
// whose size may be larger. Input: 4 bytes (little-endian) of extra file size, then the bytes
// the parser sees. An accepted header describes a square matrix whose data exactly fills the
// rest of the file, and make_npy_header writes a header that parses back to the same array.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "contract.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace apsp;
  if (size < 4)
    return 0;
  std::uint32_t extra = 0;
  std::memcpy(&extra, data, sizeof extra);
  const std::string_view head(reinterpret_cast<const char*>(data) + 4, size - 4);
  const std::size_t file_size = head.size() + extra;
  static const std::filesystem::path name = "fuzz-input.npy";
  io::detail::npy_header h;
  try {
    h = io::detail::parse_npy_header(head, file_size, name);
  } catch (const invalid_input_error& e) {
    // Offsets may point past the bytes seen (the file is longer): check against the file.
    fuzz::check_rejection(e, name, head, file_size);
    return 0;
  }
  fuzz::expect(h.data_offset <= head.size(), "data offset beyond the header bytes");
  fuzz::expect(h.rows == h.cols && h.rows >= 0 && h.rows <= io::detail::max_vertices,
               "accepted a non-square or oversized shape");
  const auto need = static_cast<std::size_t>(h.rows * h.cols) * size_of(h.type);
  fuzz::expect(h.data_offset + need == file_size, "data does not fill the file exactly");

  const std::string again = io::detail::make_npy_header(h.type, h.rows, h.cols);
  fuzz::expect(again.size() % 64 == 0, "written header is not a multiple of 64 bytes");
  const io::detail::npy_header back =
      io::detail::parse_npy_header(again, again.size() + need, name);
  fuzz::expect(back.type == h.type && back.rows == h.rows && back.cols == h.cols &&
                   !back.fortran_order && back.data_offset == again.size(),
               "make_npy_header does not parse back");
  return 0;
}

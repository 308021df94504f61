#include "histogram_svg.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>

namespace apsp::cli {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

/// Text for an SVG element's content: the five characters XML reserves, escaped.
std::string escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

} // namespace

std::string histogram_svg(const distance_histogram& h, const std::string& title) {
  // The plot area inside margins for the axis labels, in SVG user units.
  constexpr double left = 70, right = 20, top = 40, bottom = 50, width = 640, height = 320;
  const std::uint64_t most =
      h.counts.empty() ? 0 : *std::max_element(h.counts.begin(), h.counts.end());
  const std::uint64_t pairs = std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0});
  const double bar = h.counts.empty() ? width : width / static_cast<double>(h.counts.size());
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    number(left + width + right) + "\" height=\"" +
                    number(top + height + bottom) + "\" font-family=\"sans-serif\" " +
                    "font-size=\"12\">\n";
  svg += "<title>" + escaped("distances of " + title) + "</title>\n";
  svg += "<text x=\"" + number(left) + "\" y=\"20\">" +
         escaped("distances of " + title + ": " + std::to_string(pairs) + " pairs in " +
                 std::to_string(h.counts.size()) + " bins of width " + number(h.width) +
                 (h.negative ? ", " + std::to_string(h.negative) + " below 0 (not shown)" : "")) +
         "</text>\n";
  for (std::size_t k = 0; k < h.counts.size(); ++k) {
    const double share =
        most == 0 ? 0 : static_cast<double>(h.counts[k]) / static_cast<double>(most);
    const double tall = share * height;
    const double lo = static_cast<double>(k) * h.width;
    svg += "<rect x=\"" + number(left + static_cast<double>(k) * bar) + "\" y=\"" +
           number(top + height - tall) + "\" width=\"" + number(std::max(bar - 1, 0.5)) +
           "\" height=\"" + number(tall) + "\" fill=\"#4477aa\"><title>[" + number(lo) + ", " +
           number(lo + h.width) + "): " + std::to_string(h.counts[k]) + "</title></rect>\n";
  }
  // Axes and their end labels: distance 0 to bins * width along x, 0 to the largest count up y.
  const std::string x0 = number(left), x1 = number(left + width), y0 = number(top + height);
  svg += "<line x1=\"" + x0 + "\" y1=\"" + y0 + "\" x2=\"" + x1 + "\" y2=\"" + y0 +
         "\" stroke=\"black\"/>\n";
  svg += "<line x1=\"" + x0 + "\" y1=\"" + number(top) + "\" x2=\"" + x0 + "\" y2=\"" + y0 +
         "\" stroke=\"black\"/>\n";
  svg += "<text x=\"" + x0 + "\" y=\"" + number(top + height + 18) + "\">0</text>\n";
  svg += "<text x=\"" + x1 + "\" y=\"" + number(top + height + 18) + "\" text-anchor=\"end\">" +
         number(h.width * static_cast<double>(h.counts.size())) + "</text>\n";
  svg += "<text x=\"" + number(left + width / 2) + "\" y=\"" + number(top + height + 40) +
         "\" text-anchor=\"middle\">distance</text>\n";
  svg += "<text x=\"" + number(left - 6) + "\" y=\"" + number(top + 4) +
         "\" text-anchor=\"end\">" + std::to_string(most) + "</text>\n";
  svg += "<text x=\"" + number(left - 6) + "\" y=\"" + y0 + "\" text-anchor=\"end\">0</text>\n";
  svg += "<text x=\"16\" y=\"" + number(top + height / 2) +
         "\" transform=\"rotate(-90 16 " + number(top + height / 2) +
         ")\" text-anchor=\"middle\">pairs</text>\n";
  svg += "</svg>\n";
  return svg;
}

} // namespace apsp::cli

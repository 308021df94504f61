#pragma once
// `apsp metrics --plot FILE.svg`: the distance histogram as a picture, a plain SVG bar chart
// that a browser or any image viewer shows, with no plotting library.

#include <string>

#include "apsp/metrics.hpp"

namespace apsp::cli {

/// `h` (the distances of `title`'s graph) as an SVG bar chart: one bar per bin, its range and
/// count on hover (an SVG <title>), the bins' distance range on the x axis and the largest
/// count on the y axis.
[[nodiscard]] std::string histogram_svg(const distance_histogram& h, const std::string& title);

} // namespace apsp::cli

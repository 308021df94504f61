#include "core/metrics_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "apsp/error.hpp"

namespace apsp::detail {
namespace {

/// The narrowest float width: 2^-20 keeps bins of distances around 1e-6 apart without letting
/// a stray 1e-300 make the width underflow.
constexpr int float_min_exponent = -20;

} // namespace

histogram_builder::histogram_builder(int bins, bool integral)
    : counts_(static_cast<std::size_t>(bins), 0),
      exponent_(integral ? 0 : float_min_exponent), integral_(integral) {
  APSP_EXPECTS(bins >= 1, invalid_argument_error,
               "histogram_bins must be >= 1, got " + std::to_string(bins));
}

histogram_builder::histogram_builder(int bins, bool integral, int exponent,
                                     std::vector<std::uint64_t> counts, std::uint64_t negative)
    : histogram_builder(bins, integral) {
  APSP_EXPECTS(counts.size() == counts_.size() && exponent >= exponent_, internal_error,
               "histogram counts of another shape");
  counts_ = std::move(counts);
  negative_ = negative;
  exponent_ = exponent;
  seen_ = std::any_of(counts_.begin(), counts_.end(), [](std::uint64_t c) { return c != 0; });
}

int histogram_builder::exponent_for(double largest, int bins, bool integral) {
  int exponent = integral ? 0 : float_min_exponent;
  while (std::ldexp(largest, -exponent) >= static_cast<double>(bins))
    ++exponent;
  return exponent;
}

void histogram_builder::add(double v) {
  if (v < 0) {
    ++negative_;
    return;
  }
  // v / 2^k is exact (a power-of-two scaling), so the bin is the same however v arrived.
  double bin = std::floor(std::ldexp(v, -exponent_));
  if (bin >= static_cast<double>(bins())) {
    widen_for(v);
    bin = std::floor(std::ldexp(v, -exponent_));
  }
  ++counts_[static_cast<std::size_t>(bin)];
  seen_ = true;
}

void histogram_builder::widen_for(double v) {
  int times = 0;
  while (std::ldexp(v, -(exponent_ + times)) >= static_cast<double>(bins()))
    ++times;
  widen(times);
}

void histogram_builder::widen(int times) {
  for (int t = 0; t < times; ++t) {
    const std::size_t n = counts_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t c = counts_[i];
      counts_[i] = 0;
      counts_[i / 2] += c;
    }
    ++exponent_;
  }
}

void histogram_builder::merge(const histogram_builder& other) {
  APSP_EXPECTS(other.counts_.size() == counts_.size() && other.integral_ == integral_,
               internal_error, "histograms of different shapes cannot merge");
  histogram_builder wider = other;
  if (wider.exponent_ < exponent_)
    wider.widen(exponent_ - wider.exponent_);
  else
    widen(wider.exponent_ - exponent_);
  for (std::size_t i = 0; i < counts_.size(); ++i)
    counts_[i] += wider.counts_[i];
  negative_ += other.negative_;
  seen_ = seen_ || other.seen_;
}

distance_histogram histogram_builder::result() const {
  distance_histogram h;
  h.counts = counts_;
  h.negative = negative_;
  h.width = seen_ ? std::ldexp(1.0, exponent_) : 0.0;
  return h;
}

} // namespace apsp::detail

#pragma once
// The streaming distance histogram of apsp::compute_metrics (apsp::distance_histogram): equal
// bins from 0 whose width is a power of two, doubled (neighbouring bins merged in pairs) when a
// value falls beyond the last bin. Internal: not installed.

#include <cstdint>
#include <vector>

#include "apsp/metrics.hpp"

namespace apsp::detail {

/// Value v >= 0 goes to bin floor(v / 2^k); 2^k is the smallest power of two of at least
/// 2^min_exponent with v < bins * 2^k for every v seen. So the state depends on the values only,
/// not on their order: histograms of any parts of the data merge into that of the whole.
class histogram_builder {
public:
  /// `integral`: values are whole numbers, and the width is at least 1 (else at least 2^-20).
  histogram_builder(int bins, bool integral);
  /// The state of a builder that was given values whose largest (>= 0) is `largest`, each
  /// counted elsewhere in bin floor(v / 2^exponent) (matrix_partials): `counts` has `bins`
  /// entries, `negative` counts values < 0.
  histogram_builder(int bins, bool integral, int exponent, std::vector<std::uint64_t> counts,
                    std::uint64_t negative);

  /// The exponent of the width a builder reaches when `largest` (>= 0) is the largest value
  /// it was given (the order does not matter, see above).
  [[nodiscard]] static int exponent_for(double largest, int bins, bool integral);

  /// A whole number (integral types).
  void add(std::int64_t v) {
    if (v < 0) {
      ++negative_;
      return;
    }
    std::int64_t bin = v >> exponent_;
    if (bin >= bins()) {
      int times = 0;
      while ((v >> (exponent_ + times)) >= bins())
        ++times;
      widen(times);
      bin = v >> exponent_;
    }
    ++counts_[static_cast<std::size_t>(bin)];
    seen_ = true;
  }
  /// A float value.
  void add(double v);

  /// Adds another builder's values (any width: the narrower is widened first).
  void merge(const histogram_builder& other);
  /// Combines the builders of several processes into the one of all their values, on every
  /// process: `all` reduces across them (all.max(int*, 1), all.sum(std::uint64_t*, count)).
  /// Widening each to the widest and adding the counts is what merge() does.
  template <class Reduce> void combine(Reduce&& all) {
    int exponent = exponent_;
    all.max(&exponent, 1);
    widen(exponent - exponent_);
    all.sum(counts_.data(), counts_.size());
    all.sum(&negative_, 1);
    int seen = seen_ ? 1 : 0;
    all.max(&seen, 1);
    seen_ = seen != 0;
  }
  [[nodiscard]] distance_histogram result() const;

private:
  [[nodiscard]] std::int64_t bins() const noexcept {
    return static_cast<std::int64_t>(counts_.size());
  }
  /// Widens until `v` falls in the last bin or before.
  void widen_for(double v);
  /// Doubles the width `times` times, merging bins in pairs each time.
  void widen(int times);

  std::vector<std::uint64_t> counts_;
  std::uint64_t negative_ = 0;
  int exponent_; ///< width = 2^exponent_
  bool integral_;
  bool seen_ = false; ///< some value >= 0 was added
};

} // namespace apsp::detail

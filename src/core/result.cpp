#include "apsp/result.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"

namespace apsp {
namespace {

void check_pair(std::int64_t n, std::int64_t i, std::int64_t j) {
  APSP_EXPECTS(i >= 0 && i < n && j >= 0 && j < n, invalid_argument_error,
               "vertex pair (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside 0.." +
                   std::to_string(n - 1));
}

} // namespace

std::int64_t result::n() const noexcept {
  return std::visit([](const auto& m) { return m.n(); }, distances_);
}

template <class T> const dense_matrix<T>& result::distances_as() const {
  const auto* m = std::get_if<dense_matrix<T>>(&distances_);
  APSP_EXPECTS(m != nullptr, invalid_argument_error,
               "the result holds " + std::string(to_string(type())) + " distances, not " +
                   std::string(to_string(weight_traits<T>::type)));
  return *m;
}
template const dense_matrix<std::int32_t>& result::distances_as() const;
template const dense_matrix<float>& result::distances_as() const;
template const dense_matrix<std::int64_t>& result::distances_as() const;
template const dense_matrix<double>& result::distances_as() const;

const via_matrix& result::via() const {
  APSP_EXPECTS(via_.has_value(), invalid_argument_error,
               "this result has no path matrix: solve with paths enabled");
  return *via_;
}

double result::distance(std::int64_t i, std::int64_t j) const {
  check_pair(n(), i, j);
  return std::visit(
      [&](const auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        const T v = m(i, j);
        if constexpr (std::is_integral_v<T>) {
          if (v >= weight_traits<T>::infinity)
            return HUGE_VAL;
        }
        return static_cast<double>(v);
      },
      distances_);
}

bool result::reachable(std::int64_t i, std::int64_t j) const {
  return std::isfinite(distance(i, j));
}

result::result(any_matrix distances, std::optional<via_matrix> via, plan p, solve_timings t)
    : distances_(std::move(distances)), via_(std::move(via)), plan_(std::move(p)), timings_(t) {
  APSP_EXPECTS(!via_ || via_->n() == n(), invalid_argument_error,
               "the path matrix is " + std::to_string(via_ ? via_->n() : 0) + " x " +
                   std::to_string(via_ ? via_->n() : 0) + ", the distances " + std::to_string(n()) +
                   " x " + std::to_string(n()));
}

std::vector<std::int64_t> expand_via_path(const via_matrix& via, std::int64_t i, std::int64_t j) {
  const std::int64_t n = via.n();
  check_pair(n, i, j);
  if (i == j)
    return {i};
  std::vector<std::int64_t> out{i};
  std::vector<std::pair<std::int64_t, std::int64_t>> pending{{i, j}};
  // A valid via matrix expands into a binary tree with one leaf per edge of the path; bound the
  // work so that a corrupt (cyclic) via matrix fails instead of looping.
  const std::int64_t max_steps = 8 * n + 8;
  std::int64_t steps = 0;
  while (!pending.empty()) {
    auto [a, b] = pending.back();
    pending.pop_back();
    const std::int32_t k = via(a, b);
    if (k < no_via || k >= n || ++steps > max_steps) {
      throw invalid_input_error("not a valid path matrix (entry [" + std::to_string(a) + "][" +
                                std::to_string(b) + "] = " + std::to_string(k) + ")");
    }
    if (k == no_via) {
      out.push_back(b);
    } else {
      pending.emplace_back(k, b);
      pending.emplace_back(a, k);
    }
  }
  return out;
}

std::vector<std::int64_t> result::path(std::int64_t i, std::int64_t j) const {
  const via_matrix& v = via();
  check_pair(n(), i, j);
  if (i != j && !reachable(i, j))
    return {};
  try {
    return expand_via_path(v, i, j);
  } catch (const invalid_input_error& e) {
    // The solve made this matrix: an inconsistency is a bug, not bad input.
    throw internal_error("path reconstruction from " + std::to_string(i) + " to " +
                         std::to_string(j) + " failed: " + e.what());
  }
}

dense_matrix<std::int32_t> result::predecessors() const {
  const via_matrix& v = via();
  const std::int64_t n = this->n();
  dense_matrix<std::int32_t> pred(n);
  constexpr std::int32_t unknown = -1;
  for (auto& p : pred.values())
    p = unknown;
  bool looped = false;
  bool outside = false;
  // pred(i, j) = i for a direct edge, else pred(via(i, j), j): memoised walk per column.
#pragma omp parallel for schedule(dynamic, 16) reduction(|| : looped, outside)
  for (std::int64_t j = 0; j < n; ++j) {
    std::vector<std::int64_t> chain;
    for (std::int64_t i = 0; i < n; ++i) {
      if (pred(i, j) != unknown)
        continue;
      if (i == j || !reachable(i, j)) {
        pred(i, j) = no_predecessor;
        continue;
      }
      chain.clear();
      std::int64_t x = i;
      std::int32_t answer = unknown;
      while (true) {
        chain.push_back(x);
        if (static_cast<std::int64_t>(chain.size()) > n + 1) {
          looped = true;
          answer = no_predecessor;
          break;
        }
        const std::int32_t k = v(x, j);
        if (k == no_via) {
          answer = static_cast<std::int32_t>(x);
          break;
        }
        if (k < 0 || k >= n) {
          outside = true;
          answer = no_predecessor;
          break;
        }
        if (pred(k, j) != unknown) {
          answer = pred(k, j);
          break;
        }
        x = k;
      }
      for (std::int64_t y : chain)
        pred(y, j) = answer;
    }
  }
  APSP_EXPECTS(!outside, internal_error, "the path matrix has an entry outside 0..n-1");
  APSP_EXPECTS(!looped, internal_error, "the path matrix has a cycle");
  return pred;
}

} // namespace apsp

#pragma once
/// @file matrix.hpp
/// Dense row-major n x n matrices, owned, 64-byte aligned, not zero-initialised.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <utility>
#include <variant>

namespace apsp {

/// An n x n row-major matrix of T. Storage is uninitialised on construction (so a 10 GB matrix
/// costs no single-threaded page-touching pass); every solver writes every element.
template <class T> class dense_matrix {
public:
  using value_type = T;

  dense_matrix() = default;
  /// Allocates n*n elements. Throws std::bad_alloc when the allocation fails (the library's
  /// entry points turn that into out_of_memory_error) and std::bad_array_new_length for n < 0.
  explicit dense_matrix(std::int64_t n) : n_(n) {
    if (n < 0)
      throw std::bad_array_new_length();
    if (n == 0)
      return;
    const auto side = static_cast<std::size_t>(n);
    if (side > (~std::size_t{0}) / side || side * side > (~std::size_t{0}) / sizeof(T) - 64)
      throw std::bad_array_new_length(); // n * n elements would not fit in size_t bytes
    const std::size_t count = side * side;
    std::size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, bytes);
    if (p == nullptr)
      throw std::bad_alloc();
    data_ = std::unique_ptr<T[], storage_deleter>(static_cast<T*>(p), storage_deleter{{}, true});
  }

  /// An n x n matrix over storage that `owner` keeps alive (for example a memory-mapped file);
  /// `data` must hold n*n elements. The storage is released when the last owner goes; with an
  /// empty `owner` the caller keeps it alive for the matrix's lifetime (never freed here).
  static dense_matrix adopt(std::int64_t n, T* data, std::shared_ptr<void> owner) {
    dense_matrix m;
    m.n_ = n;
    m.data_ = std::unique_ptr<T[], storage_deleter>(data, storage_deleter{std::move(owner), false});
    return m;
  }

  /// Moves leave the source empty (n() == 0), never a size without storage.
  dense_matrix(dense_matrix&& other) noexcept
      : n_(std::exchange(other.n_, 0)), data_(std::move(other.data_)) {}
  dense_matrix& operator=(dense_matrix&& other) noexcept {
    n_ = std::exchange(other.n_, 0);
    data_ = std::move(other.data_);
    return *this;
  }
  ~dense_matrix() = default;

  [[nodiscard]] std::int64_t n() const noexcept { return n_; }
  [[nodiscard]] std::size_t size() const noexcept {
    return static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_);
  }
  [[nodiscard]] T* data() noexcept { return data_.get(); }
  [[nodiscard]] const T* data() const noexcept { return data_.get(); }
  [[nodiscard]] T* row(std::int64_t i) noexcept { return data_.get() + i * n_; }
  [[nodiscard]] const T* row(std::int64_t i) const noexcept { return data_.get() + i * n_; }
  [[nodiscard]] T& operator()(std::int64_t i, std::int64_t j) noexcept {
    return data_[static_cast<std::size_t>(i * n_ + j)];
  }
  [[nodiscard]] const T& operator()(std::int64_t i, std::int64_t j) const noexcept {
    return data_[static_cast<std::size_t>(i * n_ + j)];
  }
  [[nodiscard]] std::span<T> values() noexcept { return {data(), size()}; }
  [[nodiscard]] std::span<const T> values() const noexcept { return {data(), size()}; }

private:
  struct storage_deleter {
    std::shared_ptr<void> owner; // external storage (adopt), kept alive while the matrix is
    bool aligned = false;        // the memory came from aligned_alloc
    void operator()(T* p) const noexcept {
      if (aligned)
        std::free(p);
    }
  };
  std::int64_t n_ = 0;
  std::unique_ptr<T[], storage_deleter> data_;
};

/// A distance matrix whose element type is chosen at run time.
using any_matrix = std::variant<dense_matrix<std::int32_t>, dense_matrix<float>,
                                dense_matrix<std::int64_t>, dense_matrix<double>>;

/// The path ("construction") matrix: via(i, j) is an intermediate vertex on a shortest i->j
/// path (the pivot that last improved d[i][j]), or `no_via` when the shortest path is the
/// direct edge, i == j, or j is unreachable.
using via_matrix = dense_matrix<std::int32_t>;
inline constexpr std::int32_t no_via = -1;

} // namespace apsp

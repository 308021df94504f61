#pragma once
// Priority queues for Dijkstra's algorithm (Johnson's second phase), one per thread.
//
// All three offer the same calls, so the Dijkstra loop is written once:
//   push(key, vertex)  a new tentative distance for `vertex` (lower than any it had before);
//   pop()              the entry with the smallest key;
//   next_vertex()      the vertex the next pop() will most likely return, or -1 (a hint for
//                      prefetching its arcs while the current vertex is relaxed);
//   empty(), clear().
// bucket_queue and radix_heap may hand out stale entries (a vertex pushed twice); the caller
// skips an entry whose key is no longer the vertex's distance. dary_heap decreases keys in
// place, so it never does.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp::cpu {

/// Dial's bucket queue for unsigned integer keys whose pushes stay within `max_step` of the last
/// key popped (Dijkstra with integer weights 0..max_step): one bucket per key value, kept in a
/// circular array of at least max_step + 1 buckets, so that a bucket holds one key only and an
/// entry needs no key. A pop takes from the current bucket and, when it is empty, finds the
/// next non-empty one in a bitmap of the buckets (64 per word). Push and pop are O(1) plus
/// that scan, at most buckets / 64 words: the queue pays only for small max_step
/// (fits(max_step)); above it, radix_heap.
template <class Key> class bucket_queue {
  static_assert(std::is_unsigned_v<Key>);

public:
  using key_type = Key;
  struct entry {
    key_type key;
    std::int32_t vertex;
  };
  /// The most buckets a queue keeps: a pop's scan reads at most max_buckets / 64 words.
  static constexpr std::uint64_t max_buckets = std::uint64_t{1} << 14;

  /// Whether keys that grow by at most `max_step` per push fit the circular array.
  [[nodiscard]] static constexpr bool fits(std::uint64_t max_step) noexcept {
    return max_step < max_buckets;
  }

  /// Precondition: fits(max_step).
  explicit bucket_queue(std::uint64_t max_step = 0)
      : buckets_(std::max<std::size_t>(64, std::bit_ceil(static_cast<std::size_t>(max_step) + 1))),
        mask_(buckets_.size() - 1), bits_(buckets_.size() / 64, 0) {}

  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  /// Precondition: last popped key <= key <= last popped key + max_step (0 before any pop),
  /// unless the queue is empty: then any key, and the keys after it count from it.
  void push(key_type key, std::int32_t vertex) {
    if (size_ == 0 && static_cast<key_type>(key - current_) > mask_)
      restart(key);
    const std::size_t b = static_cast<std::size_t>(key) & mask_;
    buckets_[b].push_back(vertex);
    bits_[b >> 6] |= std::uint64_t{1} << (b & 63);
    ++size_;
  }

  /// The smallest entry (among equal keys, the last pushed). Precondition: !empty().
  entry pop() {
    std::vector<std::int32_t>* bucket = &buckets_[static_cast<std::size_t>(current_) & mask_];
    if (bucket->empty())
      bucket = advance();
    const std::int32_t v = bucket->back();
    bucket->pop_back();
    --size_;
    return {current_, v};
  }

  [[nodiscard]] std::int32_t next_vertex() const noexcept {
    const auto& bucket = buckets_[static_cast<std::size_t>(current_) & mask_];
    return bucket.empty() ? -1 : bucket.back();
  }

  /// Empties the queue.
  void clear() noexcept {
    if (size_ != 0) {
      for (auto& b : buckets_)
        b.clear();
    }
    std::fill(bits_.begin(), bits_.end(), std::uint64_t{0});
    size_ = 0;
    current_ = 0;
  }

private:
  /// Makes `key` the current key of the empty queue. Its old current bucket, empty, may still
  /// have its bit set (pop clears it only on leaving): cleared here.
  void restart(key_type key) noexcept {
    const std::size_t at = static_cast<std::size_t>(current_) & mask_;
    bits_[at >> 6] &= ~(std::uint64_t{1} << (at & 63));
    current_ = key;
  }

  /// Moves current_ to the next non-empty bucket (one exists: size_ > 0) and returns it.
  std::vector<std::int32_t>* advance() noexcept {
    const std::size_t at = static_cast<std::size_t>(current_) & mask_;
    bits_[at >> 6] &= ~(std::uint64_t{1} << (at & 63));
    const std::size_t words = bits_.size();
    std::size_t w = at >> 6;
    std::uint64_t word = bits_[w] & (~std::uint64_t{0} << (at & 63));
    // Circular: after the last word the first, whose low bits are keys above those at its end.
    while (word == 0) {
      w = (w + 1) & (words - 1);
      word = bits_[w];
    }
    const std::size_t next = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
    current_ += static_cast<key_type>((next - at) & mask_);
    return &buckets_[next];
  }

  std::vector<std::vector<std::int32_t>> buckets_;
  std::size_t mask_;
  std::vector<std::uint64_t> bits_; ///< bit b: bucket b may be non-empty (exact but for current_'s)
  std::size_t size_ = 0;
  key_type current_ = 0;
};

/// Monotone radix heap for unsigned integer keys (Key: std::uint32_t or std::uint64_t): every
/// key pushed is >= the last key popped, which Dijkstra guarantees with non-negative weights.
/// Entries live in bits + 1 buckets by the highest bit in which their key differs from the last
/// popped key; a pop empties the lowest non-empty bucket into lower ones, so each entry moves at
/// most `bits` times and a push is O(1).
template <class Key> class radix_heap {
  static_assert(std::is_unsigned_v<Key>);
  static constexpr int bits = static_cast<int>(sizeof(Key) * 8);

public:
  using key_type = Key;
  struct entry {
    key_type key;
    std::int32_t vertex;
  };

  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  void push(key_type key, std::int32_t vertex) {
    buckets_[bucket_of(key)].push_back({key, vertex});
    ++size_;
  }

  /// The smallest entry. Precondition: !empty().
  entry pop() {
    if (buckets_[0].empty()) {
      std::size_t b = 1;
      while (buckets_[b].empty())
        ++b;
      auto& from = buckets_[b];
      last_ = std::min_element(from.begin(), from.end(), [](const entry& x, const entry& y) {
                return x.key < y.key;
              })->key;
      // Every entry of bucket b now differs from last_ in a lower bit than b: it moves down.
      for (const entry& e : from)
        buckets_[bucket_of(e.key)].push_back(e);
      from.clear();
    }
    const entry top = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return top;
  }

  [[nodiscard]] std::int32_t next_vertex() const noexcept {
    return buckets_[0].empty() ? -1 : buckets_[0].back().vertex;
  }

  /// Empties the heap and forgets the last key (the next source starts again at 0).
  void clear() noexcept {
    for (auto& b : buckets_)
      b.clear();
    size_ = 0;
    last_ = 0;
  }

private:
  [[nodiscard]] std::size_t bucket_of(key_type key) const noexcept {
    return key == last_ ? 0 : static_cast<std::size_t>(bits - std::countl_zero(key ^ last_));
  }

  std::vector<entry> buckets_[bits + 1];
  std::size_t size_ = 0;
  key_type last_ = 0;
};

/// Indexed D-ary min-heap with decrease-key, for floating-point keys (no monotone integer
/// structure to exploit). A wide node (D = 4) halves the depth of a binary heap and keeps a
/// node's children in one cache line.
template <class Key, int D = 4> class dary_heap {
public:
  using key_type = Key;
  struct entry {
    Key key;
    std::int32_t vertex;
  };

  /// Vertices 0..n-1.
  explicit dary_heap(std::int64_t n = 0) : position_(static_cast<std::size_t>(n), absent) {}

  [[nodiscard]] bool empty() const noexcept { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return heap_.size(); }

  /// Inserts `vertex`, or lowers its key when it is already in the heap.
  void push(Key key, std::int32_t vertex) {
    std::size_t at = position_[static_cast<std::size_t>(vertex)];
    if (at == absent) {
      at = heap_.size();
      heap_.push_back({key, vertex});
    } else {
      heap_[at].key = key;
    }
    sift_up(at);
  }

  /// The smallest entry. Precondition: !empty().
  entry pop() {
    const entry top = heap_.front();
    position_[static_cast<std::size_t>(top.vertex)] = absent;
    const entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = last;
      sift_down(0);
    }
    return top;
  }

  [[nodiscard]] std::int32_t next_vertex() const noexcept {
    return heap_.empty() ? -1 : heap_.front().vertex;
  }

  void clear() noexcept {
    for (const entry& e : heap_)
      position_[static_cast<std::size_t>(e.vertex)] = absent;
    heap_.clear();
  }

private:
  static constexpr std::size_t absent = ~std::size_t{0};

  void place(std::size_t at, const entry& e) {
    heap_[at] = e;
    position_[static_cast<std::size_t>(e.vertex)] = at;
  }

  void sift_up(std::size_t at) {
    const entry moving = heap_[at];
    while (at > 0) {
      const std::size_t parent = (at - 1) / D;
      if (!(moving.key < heap_[parent].key))
        break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, moving);
  }

  void sift_down(std::size_t at) {
    const entry moving = heap_[at];
    const std::size_t size = heap_.size();
    for (;;) {
      const std::size_t first = at * D + 1;
      if (first >= size)
        break;
      const std::size_t last = std::min(first + D, size);
      std::size_t best = first;
      for (std::size_t c = first + 1; c < last; ++c) {
        if (heap_[c].key < heap_[best].key)
          best = c;
      }
      if (!(heap_[best].key < moving.key))
        break;
      place(at, heap_[best]);
      at = best;
    }
    place(at, moving);
  }

  std::vector<entry> heap_;
  std::vector<std::size_t> position_;
};

} // namespace apsp::cpu

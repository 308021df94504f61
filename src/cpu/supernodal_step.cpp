#include "cpu/supernodal_step.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "cpu/blocked_fw.hpp"

namespace apsp::cpu {
namespace {

/// Runs of consecutive labels at least this long become blocks in place; shorter ones are
/// gathered (an in-place block narrower than a micro-tile would run on padded copies anyway).
constexpr int shortest_run = 32;
/// Block widths in place are multiples of this: every ISA's kernel strip (tile_kernels.hpp:
/// NR vectors of lanes) divides it.
constexpr std::int64_t block_align = 64;
static_assert(supernodal_tile % block_align == 0, "whole blocks must stay whole strips");

template <class T> constexpr T inf = weight_traits<T>::infinity;

} // namespace

template <class T>
step_executor<T>::step_executor(dense_matrix<T>& d, via_matrix* via, detail::cpu::isa kernels,
                                bool negative)
    : n_(d.n()), d_(d.data()), via_(via != nullptr ? via->data() : nullptr),
      ops_(detail::cpu::select_tile_ops<T>(kernels, negative, via != nullptr)),
      ld_(detail::cpu::packed_stride(supernodal_tile, sizeof(T))) {
  const std::int64_t tile = supernodal_tile * ld_ + detail::cpu::packed_slack;
  // Kernels read the padding of snapshots and of the pivot tile: it must hold bounded values.
  pivot_ = detail::cpu::make_filled<T>(tile, inf<T>);
  row_snap_ = detail::cpu::make_filled<T>(tile, inf<T>);
  col_snap_ = detail::cpu::make_filled<T>(tile, inf<T>);
  if (via_ != nullptr)
    pivot_via_ = detail::cpu::make_filled<std::int32_t>(tile, no_via);
}

template <class T> void step_executor<T>::reserve(int team, int kb) {
  const std::int64_t tile = supernodal_tile * ld_ + detail::cpu::packed_slack;
  while (static_cast<int>(work_.size()) < team) {
    work_.push_back(detail::cpu::make_filled<T>(tile, inf<T>));
    if (via_ != nullptr)
      work_via_.push_back(detail::cpu::make_filled<std::int32_t>(tile, no_via));
  }
  const std::int64_t need =
      2 * static_cast<std::int64_t>(blocks_.size()) * kb * ld_ + detail::cpu::packed_slack;
  if (need > snap_capacity_) {
    snap_capacity_ = std::max(need, snap_capacity_ * 3 / 2);
    snaps_ = detail::cpu::make_filled<T>(snap_capacity_, inf<T>);
  }
}

template <class T>
void step_executor<T>::add_block(std::int32_t first, int len, std::int64_t offset, bool shared) {
  blocks_.push_back({first, len, offset, shared});
}

template <class T>
void step_executor<T>::add_runs(const std::int32_t* labels, std::int64_t count, bool shared) {
  // Long runs are split evenly into blocks of at most supernodal_tile; the short ones are
  // collected and gathered, supernodal_tile labels to a block.
  gathered_.clear();
  for (std::int64_t a = 0; a < count;) {
    std::int64_t e = a + 1;
    while (e < count && labels[e] == labels[e - 1] + 1)
      ++e;
    const std::int64_t len = e - a;
    if (len >= shortest_run) {
      // Blocks of an equal width rounded up to whole strips of the kernels, the last one
      // shorter: a block edge inside a strip would send that strip to the padded copies.
      const std::int64_t parts = (len + supernodal_tile - 1) / supernodal_tile;
      const std::int64_t per = (len + parts - 1) / parts;
      const std::int64_t width = std::min<std::int64_t>(
          supernodal_tile, (per + block_align - 1) / block_align * block_align);
      for (std::int64_t lo = 0; lo < len; lo += width) {
        const std::int64_t hi = std::min(len, lo + width);
        add_block(labels[a] + static_cast<std::int32_t>(lo), static_cast<int>(hi - lo), 0, shared);
      }
    } else {
      gathered_.insert(gathered_.end(), labels + a, labels + e);
    }
    a = e;
  }
  const auto g = static_cast<std::int64_t>(gathered_.size());
  for (std::int64_t lo = 0; lo < g; lo += supernodal_tile) {
    const int len = static_cast<int>(std::min<std::int64_t>(supernodal_tile, g - lo));
    add_block(-1, len, static_cast<std::int64_t>(labels_.size()), shared);
    labels_.insert(labels_.end(), gathered_.begin() + lo, gathered_.begin() + lo + len);
  }
}

template <class T>
void step_executor<T>::make_blocks(const elimination_plan& plan, const supernode_step& s,
                                   const std::int32_t* k, int kb) {
  blocks_.clear();
  labels_.clear();
  // [first, top] without this round's pivots (ascending), then the ancestors. A step's
  // members come in elimination order, which need not be ascending (merged children).
  sorted_.assign(k, k + kb);
  std::sort(sorted_.begin(), sorted_.end());
  pivots_in_place_ =
      sorted_.back() - sorted_.front() == kb - 1 && std::equal(k, k + kb, sorted_.begin());
  rows_.clear();
  std::int32_t next = s.first;
  for (const std::int32_t pivot : sorted_) {
    for (; next < pivot; ++next)
      rows_.push_back(next);
    next = pivot + 1;
  }
  for (; next <= s.top(); ++next)
    rows_.push_back(next);
  add_runs(rows_.data(), static_cast<std::int64_t>(rows_.size()), false);
  add_runs(plan.ancestors.data() + s.ancestors_begin, s.ancestors_end - s.ancestors_begin, true);
}

template <class T>
step_executor<T>::row_locks::row_locks(merge_locks* locks, const block* rows,
                                       const step_executor& e)
    : locks_(rows != nullptr ? locks : nullptr) {
  if (locks_ == nullptr)
    return;
  for (int x = 0; x < rows->len; ++x)
    stripes_ |= std::uint64_t{1} << merge_locks::stripe(e.label(*rows, x));
  for (int t = 0; t < merge_locks::stripes; ++t) {
    if (stripes_ >> t & 1)
      locks_->at(t).lock();
  }
}

template <class T> step_executor<T>::row_locks::~row_locks() {
  if (locks_ == nullptr)
    return;
  for (int t = merge_locks::stripes - 1; t >= 0; --t) {
    if (stripes_ >> t & 1)
      locks_->at(t).unlock();
  }
}

template <class T> void step_executor<T>::pivot(const std::int32_t* k, int kb, std::int32_t k0) {
  T* w = pivot_.get();
  std::int32_t* vw = pivot_via_.get();
  for (int a = 0; a < kb; ++a) {
    const T* row = d_ + k[a] * n_;
    for (int b = 0; b < kb; ++b)
      w[a * ld_ + b] = row[k[b]];
    std::fill(w + a * ld_ + kb, w + (a + 1) * ld_, inf<T>);
    if (vw != nullptr) {
      const std::int32_t* vrow = via_ + k[a] * n_;
      for (int b = 0; b < kb; ++b)
        vw[a * ld_ + b] = vrow[k[b]];
    }
  }
  ops_.pivot(w, vw, ld_, kb, row_snap_.get(), col_snap_.get(), k0);
  for (int a = 0; a < kb; ++a) {
    T* row = d_ + k[a] * n_;
    for (int b = 0; b < kb; ++b)
      row[k[b]] = w[a * ld_ + b];
    if (vw != nullptr) {
      std::int32_t* vrow = via_ + k[a] * n_;
      for (int b = 0; b < kb; ++b)
        vrow[k[b]] = vw[a * ld_ + b];
    }
  }
}

template <class T>
void step_executor<T>::row_panel(const block& bl, std::int64_t index, const std::int32_t* k, int kb,
                                 std::int32_t k0, int thread) {
  // w[a][x] = D[k[a]][block x]: the pivots' rows over the block, then back.
  T* w = work_[static_cast<std::size_t>(thread)].get();
  std::int32_t* vw = via_ != nullptr ? work_via_[static_cast<std::size_t>(thread)].get() : nullptr;
  const int len = bl.len;
  for (int a = 0; a < kb; ++a) {
    const T* row = d_ + k[a] * n_;
    T* out = w + a * ld_;
    if (bl.first >= 0) {
      std::memcpy(out, row + bl.first, static_cast<std::size_t>(len) * sizeof(T));
    } else {
      for (int x = 0; x < len; ++x)
        out[x] = row[label(bl, x)];
    }
    std::fill(out + len, out + ld_, inf<T>);
    if (vw != nullptr) {
      const std::int32_t* vrow = via_ + k[a] * n_;
      std::int32_t* vout = vw + a * ld_;
      for (int x = 0; x < len; ++x)
        vout[x] = vrow[label(bl, x)];
    }
  }
  ops_.panel(w, vw, ld_, kb, len, col_snap_.get(), b_snap(index, kb), k0);
  for (int a = 0; a < kb; ++a) {
    T* row = d_ + k[a] * n_;
    const T* in = w + a * ld_;
    if (bl.first >= 0) {
      std::memcpy(row + bl.first, in, static_cast<std::size_t>(len) * sizeof(T));
    } else {
      for (int x = 0; x < len; ++x)
        row[label(bl, x)] = in[x];
    }
    if (vw != nullptr) {
      std::int32_t* vrow = via_ + k[a] * n_;
      const std::int32_t* vin = vw + a * ld_;
      for (int x = 0; x < len; ++x)
        vrow[label(bl, x)] = vin[x];
    }
  }
}

template <class T>
void step_executor<T>::column_panel(const block& bl, std::int64_t index, const std::int32_t* k,
                                    int kb, std::int32_t k0, int thread) {
  // w[a][x] = D[block x][k[a]]: the pivots' columns over the block, transposed so that the panel
  // routine sees rows, then back.
  T* w = work_[static_cast<std::size_t>(thread)].get();
  std::int32_t* vw = via_ != nullptr ? work_via_[static_cast<std::size_t>(thread)].get() : nullptr;
  const int len = bl.len;
  const bool dense = bl.first >= 0 && pivots_in_place_;
  if (dense) {
    ops_.transpose(d_ + bl.first * n_ + k[0], n_, w, ld_, len, kb);
    if (vw != nullptr)
      ops_.transpose_via(via_ + bl.first * n_ + k[0], n_, vw, ld_, len, kb);
  } else {
    for (int x = 0; x < len; ++x) {
      const std::int64_t i = label(bl, x);
      for (int a = 0; a < kb; ++a)
        w[a * ld_ + x] = d_[i * n_ + k[a]];
      if (vw != nullptr) {
        for (int a = 0; a < kb; ++a)
          vw[a * ld_ + x] = via_[i * n_ + k[a]];
      }
    }
  }
  for (int a = 0; a < kb; ++a)
    std::fill(w + a * ld_ + len, w + (a + 1) * ld_, inf<T>);
  ops_.panel(w, vw, ld_, kb, len, row_snap_.get(), a_snap(index, kb), k0);
  if (dense) {
    ops_.transpose(w, ld_, d_ + bl.first * n_ + k[0], n_, kb, len);
    if (vw != nullptr)
      ops_.transpose_via(vw, ld_, via_ + bl.first * n_ + k[0], n_, kb, len);
  } else {
    for (int x = 0; x < len; ++x) {
      const std::int64_t i = label(bl, x);
      for (int a = 0; a < kb; ++a)
        d_[i * n_ + k[a]] = w[a * ld_ + x];
      if (vw != nullptr) {
        for (int a = 0; a < kb; ++a)
          via_[i * n_ + k[a]] = vw[a * ld_ + x];
      }
    }
  }
}

template <class T>
void step_executor<T>::product(std::int64_t bi, std::int64_t bj, int kb, std::int32_t k0,
                               int thread, merge_locks* locks) {
  const block& I = blocks_[static_cast<std::size_t>(bi)];
  const block& J = blocks_[static_cast<std::size_t>(bj)];
  const T* a = a_snap(bi, kb);
  const T* b = b_snap(bj, kb);
  // Without vias a merge is a plain minimum, which the kernel takes in place as well: then
  // only the rows' locks are needed, held over the whole tile.
  const bool merged = I.shared && J.shared && via_ != nullptr;
  const row_locks hold(locks, I.shared && J.shared && !merged ? &I : nullptr, *this);
  const bool shared = merged;
  if (!shared && I.first >= 0 && J.first >= 0) {
    const std::int64_t at = I.first * n_ + J.first;
    ops_.product_sparse(a, b, ld_, kb, d_ + at, via_ != nullptr ? via_ + at : nullptr, n_, I.len,
                        J.len, k0, nullptr, nullptr);
    return;
  }
  T* c = work_[static_cast<std::size_t>(thread)].get();
  std::int32_t* vc = via_ != nullptr ? work_via_[static_cast<std::size_t>(thread)].get() : nullptr;
  for (int x = 0; x < I.len; ++x) {
    T* out = c + x * ld_;
    std::int32_t* vout = vc != nullptr ? vc + x * ld_ : nullptr;
    if (shared) {
      std::fill(out, out + J.len, inf<T>);
      if (vout != nullptr)
        std::fill(vout, vout + J.len, no_via);
      continue;
    }
    const std::int64_t i = label(I, x);
    for (int y = 0; y < J.len; ++y)
      out[y] = d_[i * n_ + label(J, y)];
    if (vout != nullptr) {
      for (int y = 0; y < J.len; ++y)
        vout[y] = via_[i * n_ + label(J, y)];
    }
  }
  ops_.product(a, b, ld_, kb, c, vc, ld_, I.len, J.len, k0, nullptr, nullptr);
  for (int x = 0; x < I.len; ++x) {
    const std::int64_t i = label(I, x);
    const T* in = c + x * ld_;
    T* row = d_ + i * n_;
    if (!shared) {
      // Only what the pivots lowered (the via changes with it), so unchanged lines stay clean.
      for (int y = 0; y < J.len; ++y) {
        const std::int32_t j = label(J, y);
        if (!(in[y] < row[j]))
          continue;
        row[j] = in[y];
        if (vc != nullptr)
          via_[i * n_ + j] = vc[x * ld_ + y];
      }
      continue;
    }
    std::unique_lock<std::mutex> hold;
    if (locks != nullptr)
      hold = std::unique_lock<std::mutex>(locks->row(i));
    if (vc == nullptr) {
      for (int y = 0; y < J.len; ++y) {
        T& cell = row[label(J, y)];
        cell = in[y] < cell ? in[y] : cell;
      }
      continue;
    }
    // The smaller distance; on a tie the earlier pivot (no_via, the direct edge, is earliest).
    std::int32_t* vrow = via_ + i * n_;
    const std::int32_t* vin = vc + x * ld_;
    for (int y = 0; y < J.len; ++y) {
      const std::int32_t j = label(J, y);
      if (in[y] < row[j] || (in[y] == row[j] && vin[y] < vrow[j])) {
        row[j] = in[y];
        vrow[j] = vin[y];
      }
    }
  }
}

template <class T>
void step_executor<T>::run(const elimination_plan& plan, const supernode_step& s,
                           std::int32_t position, int team, merge_locks* locks) {
  const auto w = static_cast<std::int64_t>(s.members.size());
  const std::int64_t rounds = (w + supernodal_tile - 1) / supernodal_tile;
  for (std::int64_t r = 0; r < rounds; ++r) {
    const std::int64_t t0 = w * r / rounds;
    const int kb = static_cast<int>(w * (r + 1) / rounds - t0);
    const std::int32_t* k = s.members.data() + t0;
    const auto k0 = static_cast<std::int32_t>(position + t0);
    make_blocks(plan, s, k, kb);
    reserve(team, kb);
    const auto nb = static_cast<std::int64_t>(blocks_.size());
#pragma omp parallel num_threads(team) if (team > 1)
    {
      const int thread = omp_get_thread_num();
#pragma omp single
      pivot(k, kb, k0);
#pragma omp for schedule(dynamic)
      for (std::int64_t p = 0; p < 2 * nb; ++p) {
        if (p < nb)
          row_panel(blocks_[static_cast<std::size_t>(p)], p, k, kb, k0, thread);
        else
          column_panel(blocks_[static_cast<std::size_t>(p - nb)], p - nb, k, kb, k0, thread);
      }
#pragma omp for schedule(dynamic)
      for (std::int64_t t = 0; t < nb * nb; ++t)
        product(t / nb, t % nb, kb, k0, thread, locks);
    }
  }
}

template class step_executor<std::int32_t>;
template class step_executor<float>;
template class step_executor<std::int64_t>;
template class step_executor<double>;

} // namespace apsp::cpu

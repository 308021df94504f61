#pragma once
// Whether the cuda back end can run here, and the skip of a GPU test where it cannot: every
// test under tests/cuda that needs a device starts with APSP_SKIP_WITHOUT_GPU().

#include <gtest/gtest.h>

#include "apsp/apsp.hpp"

namespace apsp::cuda_test {

inline bool have_gpu() {
  for (const auto& s : apsp::list_backends()) {
    if (s.kind == apsp::backend_kind::cuda)
      return s.available;
  }
  return false;
}

} // namespace apsp::cuda_test

#define APSP_SKIP_WITHOUT_GPU()                                                                    \
  if (!::apsp::cuda_test::have_gpu())                                                              \
  GTEST_SKIP() << "no usable CUDA device: the cuda back end is unavailable"

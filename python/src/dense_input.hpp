#pragma once
// SciPy-style dense input (NumPy array, optional mask) -> the library's initial matrix.

#include <pybind11/numpy.h>

#include <functional>

#include "apsp/matrix.hpp"
#include "apsp/types.hpp"
#include "bindings.hpp"

namespace apsp_py {

/// Builds the initial distance matrix; safe to call without the GIL.
using matrix_builder = std::function<apsp::any_matrix()>;

/// Checks `values` (2-D, square, float64/float32/int32/int64, any strides) and `mask` (None or a
/// bool array of the same shape), and returns a builder applying SciPy's dense rules:
/// masked, 0 and non-finite off-diagonal entries mean "no edge"; the diagonal is 0 unless
/// negative (a negative self-loop, later reported as a negative cycle); `unweighted` makes every
/// edge weigh 1; `directed == false` keeps min(a[i][j], a[j][i]) both ways.
/// The arrays must outlive the builder (it reads them in place, without copying).
[[nodiscard]] matrix_builder dense_builder(const py::array& values, const py::object& mask,
                                           apsp::dtype out, bool directed, bool unweighted);

} // namespace apsp_py

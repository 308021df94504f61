#pragma once
// Progress, cancel and Ctrl-C for solves that run with the GIL released.

#include <Python.h>

#include "apsp/options.hpp"
#include "bindings.hpp"

namespace apsp_py {

/// Owns the Python side of apsp::solve_options::progress. Each round it re-acquires the GIL,
/// runs pending signal handlers (so Ctrl-C raises KeyboardInterrupt there) and calls the user's
/// callback(rounds_done, rounds_total, updates_per_second); a raised exception or a returned
/// False stops the solve (apsp then throws cancelled_error). Create and destroy it with the
/// GIL held.
class progress_bridge {
public:
  explicit progress_bridge(py::object callback) : callback_(std::move(callback)) {}
  progress_bridge(const progress_bridge&) = delete;
  progress_bridge& operator=(const progress_bridge&) = delete;
  ~progress_bridge() {
    Py_XDECREF(type_);
    Py_XDECREF(value_);
    Py_XDECREF(traceback_);
  }

  [[nodiscard]] apsp::progress_callback callback() {
    return [this](const apsp::progress_info& info) { return on_round(info); };
  }

  /// After cancelled_error, with the GIL held: re-raises the Python exception that stopped the
  /// solve (KeyboardInterrupt, or whatever the callback raised), if any; else returns.
  void raise_pending() {
    if (type_ == nullptr)
      return;
    PyErr_Restore(type_, value_, traceback_);
    type_ = value_ = traceback_ = nullptr;
    throw py::error_already_set();
  }

private:
  bool on_round(const apsp::progress_info& info) {
    py::gil_scoped_acquire gil;
    if (type_ != nullptr)
      return false;
    if (PyErr_CheckSignals() != 0)
      return stash();
    // A stage announced before the rounds: a point to cancel at; the callback counts rounds.
    if (callback_.is_none() || !info.stage.empty())
      return true;
    PyObject* r =
        PyObject_CallFunction(callback_.ptr(), "LLd", static_cast<long long>(info.rounds_done),
                              static_cast<long long>(info.rounds_total), info.updates_per_second);
    if (r == nullptr)
      return stash();
    // None (a callback that returns nothing) goes on; any false value cancels (False,
    // numpy.False_, 0).
    const int truth = r == Py_None ? 1 : PyObject_IsTrue(r);
    Py_DECREF(r);
    if (truth < 0)
      return stash();
    return truth != 0;
  }
  bool stash() {
    PyErr_Fetch(&type_, &value_, &traceback_);
    return false;
  }

  py::object callback_;
  PyObject* type_ = nullptr;
  PyObject* value_ = nullptr;
  PyObject* traceback_ = nullptr;
};

} // namespace apsp_py

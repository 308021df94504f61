// apsp's C++ exceptions -> Python exceptions. The exception classes themselves are defined in
// apsp/_errors.py, so that NegativeCycleError can derive from SciPy's class when SciPy exists.

#include <Python.h>

#include <exception>
#include <string>

#include "apsp/error.hpp"
#include "bindings.hpp"

namespace apsp_py {
namespace {

// Leaked on purpose: the translator can run until interpreter shutdown, after static
// destructors would have dropped these references without the GIL.
py::object* negative_cycle_class = nullptr;
py::object* cancelled_class = nullptr;
py::object* unavailable_class = nullptr;
py::object* overflow_risk_class = nullptr;

/// The library's messages give CLI advice ("--dtype int64"); Python users pass dtype=.
std::string python_message(const char* what) {
  std::string s(what);
  // The library's advice names the command line's options; here they are keywords.
  for (const char* name : {"dtype", "backend", "algorithm", "devices", "threads", "block"}) {
    const std::string flag = std::string("--") + name + " ";
    const std::string keyword = std::string(name) + "=";
    for (auto pos = s.find(flag); pos != std::string::npos; pos = s.find(flag, pos))
      s.replace(pos, flag.size(), keyword);
  }
  return s;
}

void set_error(PyObject* type, const char* what) {
  PyErr_SetString(type, python_message(what).c_str());
}

void translate(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (const apsp::negative_cycle_error& e) {
    py::list vertices;
    for (auto v : e.vertices())
      vertices.append(v);
    py::list cycle;
    for (auto v : e.cycle())
      cycle.append(v);
    py::object weight = e.cycle().empty() ? py::none() : py::object(py::float_(e.cycle_weight()));
    py::object instance =
        (*negative_cycle_class)(python_message(e.what()), vertices, cycle, weight);
    PyErr_SetObject(negative_cycle_class->ptr(), instance.ptr());
  } catch (const apsp::cancelled_error& e) {
    set_error(cancelled_class->ptr(), e.what());
  } catch (const apsp::backend_unavailable_error& e) {
    set_error(unavailable_class->ptr(), e.what());
  } catch (const apsp::out_of_memory_error& e) {
    set_error(PyExc_MemoryError, e.what());
  } catch (const apsp::io_error& e) {
    set_error(PyExc_OSError, e.what());
  } catch (const apsp::overflow_risk_error& e) {
    set_error(overflow_risk_class->ptr(), e.what());
  } catch (const apsp::invalid_argument_error& e) {
    set_error(PyExc_ValueError, e.what());
  } catch (const apsp::invalid_input_error& e) {
    set_error(PyExc_ValueError, e.what());
  } catch (const apsp::error& e) {
    set_error(PyExc_RuntimeError, e.what());
  }
}

} // namespace

void register_errors(py::module_& m) {
  py::module_ errors = py::module_::import("apsp._errors");
  negative_cycle_class = new py::object(errors.attr("NegativeCycleError"));
  cancelled_class = new py::object(errors.attr("Cancelled"));
  unavailable_class = new py::object(errors.attr("BackendUnavailable"));
  overflow_risk_class = new py::object(errors.attr("OverflowRisk"));
  py::register_exception_translator(&translate);
  (void)m;
}

} // namespace apsp_py

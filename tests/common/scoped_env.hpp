#pragma once
// Sets an environment variable for one scope and restores its previous value (or its absence).

#include <cstdlib>
#include <optional>
#include <string>

namespace apsp::testing {

class scoped_env {
public:
  scoped_env(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str()))
      old_ = old;
    ::setenv(name_.c_str(), value, 1);
  }
  ~scoped_env() {
    if (old_) {
      ::setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

} // namespace apsp::testing

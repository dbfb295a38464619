#pragma once

// The Python object shims (2.14+) take a PyObject* and need the GIL, which torch.ops releases around
// a kernel. The kernels take it back, and drop the references those shims hand them, through the
// interpreter's own exported functions found with dlsym, so they need no Python header and no
// libpython at link time.
#include <dlfcn.h>
#include <torch/headeronly/util/Exception.h>

#include <cstdint>

namespace abiref {

// Holds the GIL for its lifetime (PyGILState_Ensure / PyGILState_Release).
class GilHold {
 public:
  GilHold() {
    ensure_ = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "PyGILState_Ensure"));
    release_ = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "PyGILState_Release"));
    STD_TORCH_CHECK(ensure_ != nullptr && release_ != nullptr, "no Python interpreter in this process");
    state_ = ensure_();
  }
  ~GilHold() { release_(state_); }
  GilHold(const GilHold&) = delete;
  GilHold& operator=(const GilHold&) = delete;

 private:
  int (*ensure_)() = nullptr;
  void (*release_)(int) = nullptr;
  int state_ = 0;
};

// The object at a CPython id() (its address), as the shims take it.
inline void* as_object(std::int64_t address) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(address)); }

inline std::int64_t address_of(void* object) {
  return static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(object));
}

// Drops one reference to `object` (Py_DecRef); the GIL must be held.
inline void drop_reference(void* object) {
  static auto* decref = reinterpret_cast<void (*)(void*)>(dlsym(RTLD_DEFAULT, "Py_DecRef"));
  STD_TORCH_CHECK(decref != nullptr, "no Python interpreter in this process");
  decref(object);
}

}  // namespace abiref

/*
 * gmrace_pytorch.h -- the part of PyTorch's C++ API (ATen, c10, torch, pybind11) that a CUDA
 * extension's host functions use around their launches, declared only: tensors' sizes and data
 * pointers, tensor creation, streams, the checks, the type dispatch and the registration macros.
 *
 * A kernel template of an extension is often instantiated only by the host function that takes
 * `at::Tensor`s, so without these declarations the kernel is never instantiated and not
 * analysed. Every value a tensor gives (`size(0)`, `numel()`, `data_ptr()`) is unknown here, as
 * it is to the extension until Python calls it. The headers in `pytorch/` (ATen/ATen.h,
 * torch/extension.h, ...) include this one; the directory is searched after every other
 * (`-idirafter`), so PyTorch's own headers, given with -I, are read instead.
 */
#ifndef GMRACE_PYTORCH_H
#define GMRACE_PYTORCH_H

/* What PyTorch's headers bring of the C++ library, which extensions use without including it. */
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace c10 {

enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat,
  ComplexDouble, Bool, QInt8, QUInt8, QInt32, BFloat16, Float8_e5m2, Float8_e4m3fn,
  UInt16, UInt32, UInt64
};
constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char, kInt8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short, kInt16 = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int, kInt32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long, kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half, kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double, kFloat64 = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;

/* PyTorch's own 16-bit types convert to and from CUDA's; the kernels see CUDA's. */
using Half = __half;
using BFloat16 = __nv_bfloat16;

namespace impl {
template <ScalarType S> struct ScalarTypeToCPPType;
template <> struct ScalarTypeToCPPType<ScalarType::Byte> { using type = uint8_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Char> { using type = int8_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Short> { using type = int16_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Int> { using type = int32_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Long> { using type = int64_t; };
template <> struct ScalarTypeToCPPType<ScalarType::Half> { using type = Half; };
template <> struct ScalarTypeToCPPType<ScalarType::Float> { using type = float; };
template <> struct ScalarTypeToCPPType<ScalarType::Double> { using type = double; };
template <> struct ScalarTypeToCPPType<ScalarType::Bool> { using type = bool; };
template <> struct ScalarTypeToCPPType<ScalarType::BFloat16> { using type = BFloat16; };
} // namespace impl

enum class DeviceType : int8_t { CPU, CUDA };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA;

struct Device {
  Device(DeviceType type = kCPU, int index = -1);
  DeviceType type() const;
  int index() const;
  bool is_cuda() const;
  bool is_cpu() const;
};

template <class T> struct ArrayRef {
  ArrayRef();
  ArrayRef(std::initializer_list<T> values);
  ArrayRef(const T *data, size_t size);
  template <class C> ArrayRef(const C &container);
  size_t size() const;
  bool empty() const;
  const T *data() const;
  const T *begin() const;
  const T *end() const;
  const T &front() const;
  const T &back() const;
  const T &operator[](size_t i) const;
  bool operator==(ArrayRef other) const;
  bool operator!=(ArrayRef other) const;
};
using IntArrayRef = ArrayRef<int64_t>;

/* What c10 prints: the checks of extensions print the types and shapes they expected. */
std::ostream &operator<<(std::ostream &out, ScalarType type);
template <class T> std::ostream &operator<<(std::ostream &out, ArrayRef<T> list);
using IntList = IntArrayRef;

struct TensorOptions {
  TensorOptions();
  TensorOptions(ScalarType dtype);
  TensorOptions(Device device);
  TensorOptions dtype(ScalarType dtype) const;
  template <class T> TensorOptions dtype() const;
  ScalarType dtype() const;
  TensorOptions device(Device device) const;
  TensorOptions device(DeviceType type, int index = -1) const;
  TensorOptions requires_grad(bool on) const;
};

[[noreturn]] void gmrace_check_failed();

namespace cuda {
struct CUDAStream {
  cudaStream_t stream() const;
  operator cudaStream_t() const;
};
CUDAStream getCurrentCUDAStream(int device = -1);
CUDAStream getDefaultCUDAStream(int device = -1);
struct CUDAGuard {
  explicit CUDAGuard(Device device);
  explicit CUDAGuard(int device);
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(Device device);
};
} // namespace cuda
} // namespace c10

namespace at {
using namespace c10;

class Tensor {
public:
  Tensor();
  void *data_ptr() const;
  template <class T> T *data_ptr() const;
  template <class T> T *mutable_data_ptr() const;
  template <class T> const T *const_data_ptr() const;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t dim) const;
  IntArrayRef strides() const;
  int64_t numel() const;
  int64_t dim() const;
  int64_t ndimension() const;
  size_t nbytes() const;
  int64_t element_size() const;
  bool defined() const;
  bool is_contiguous() const;
  bool is_cuda() const;
  bool is_cpu() const;
  ScalarType scalar_type() const;
  ScalarType dtype() const;
  Device device() const;
  /* PyTorch's is int64_t; `CUDAGuard guard{t.get_device()}` narrows it, which nvcc accepts
     and clang does not: an int here, as `CUDAGuard` takes. */
  int get_device() const;
  TensorOptions options() const;
  template <class T> T item() const;
  Tensor contiguous() const;
  Tensor clone() const;
  Tensor view(IntArrayRef sizes) const;
  Tensor reshape(IntArrayRef sizes) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor t() const;
  Tensor to(ScalarType dtype) const;
  Tensor to(Device device) const;
  Tensor to(TensorOptions options) const;
  Tensor &zero_();
  Tensor &fill_(double value);
  Tensor &copy_(const Tensor &src);
  Tensor operator[](int64_t i) const;
};

std::ostream &operator<<(std::ostream &out, const Tensor &t);

Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
Tensor full(IntArrayRef sizes, double value, TensorOptions options = {});
Tensor empty_like(const Tensor &t, TensorOptions options = {});
Tensor zeros_like(const Tensor &t, TensorOptions options = {});
Tensor ones_like(const Tensor &t, TensorOptions options = {});

/* `at::acc_type<T, is_cuda>`: what a kernel accumulates values of T in. */
template <class T, bool is_cuda> struct AccumulateType { using type = T; };
template <bool is_cuda> struct AccumulateType<Half, is_cuda> { using type = float; };
template <bool is_cuda> struct AccumulateType<BFloat16, is_cuda> { using type = float; };
template <bool is_cuda> struct AccumulateType<float, is_cuda> { using type = float; };
template <class T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;

namespace cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::CUDAGuard;
using c10::cuda::OptionalCUDAGuard;
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int device);
} // namespace cuda
} // namespace at

namespace torch {
using namespace at;
struct Library {
  Library &def(const char *schema);
  template <class F> Library &def(const char *name, F &&f);
  template <class F> Library &impl(const char *name, F &&f);
};
} // namespace torch

namespace pybind11 {
struct arg {
  arg(const char *name);
  template <class T> arg &operator=(T &&value);
};
struct module_ {
  template <class F, class... Extra> module_ &def(const char *name, F &&f, Extra &&...extra);
};
using module = module_;
} // namespace pybind11
namespace py = pybind11;

#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME gmrace_extension
#endif
#define PYBIND11_MODULE(name, m) static void gmrace_pybind11_##name(::pybind11::module_ &m)
#define TORCH_LIBRARY(ns, m) static void gmrace_torch_library_##ns(::torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, key, m)                                                        \
  static void gmrace_torch_library_impl_##ns##_##key(::torch::Library &m)

/* The checks throw on the host when false: the code after them runs only where they held. */
#define TORCH_CHECK(cond, ...) ((cond) ? (void)0 : ::c10::gmrace_check_failed())
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond)
#define AT_ERROR(...) ::c10::gmrace_check_failed()
#define C10_CUDA_CHECK(e) ((void)(e))
#define AT_CUDA_CHECK(e) ((void)(e))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)

/* The type dispatch: the lambda once for each type, with `scalar_t` that type. */
#define GMRACE_DISPATCH_CASE(S, ...)                                                          \
  case S: {                                                                                   \
    using scalar_t = typename ::c10::impl::ScalarTypeToCPPType<S>::type;                     \
    return __VA_ARGS__();                                                                     \
  }
#define GMRACE_DISPATCH(TYPE, CASES)                                                          \
  [&] {                                                                                       \
    switch (TYPE) {                                                                           \
      CASES                                                                                   \
    default:                                                                                  \
      ::c10::gmrace_check_failed();                                                          \
    }                                                                                         \
  }()
#define GMRACE_FLOATING_CASES(...)                                                            \
  GMRACE_DISPATCH_CASE(::c10::ScalarType::Double, __VA_ARGS__)                                \
  GMRACE_DISPATCH_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                                           \
  GMRACE_DISPATCH(TYPE, GMRACE_FLOATING_CASES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(S1, TYPE, NAME, ...)                                   \
  GMRACE_DISPATCH(TYPE, GMRACE_FLOATING_CASES(__VA_ARGS__) GMRACE_DISPATCH_CASE(S1, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                                  \
  AT_DISPATCH_FLOATING_TYPES_AND(::c10::ScalarType::Half, TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...)                              \
  GMRACE_DISPATCH(TYPE, GMRACE_FLOATING_CASES(__VA_ARGS__) GMRACE_DISPATCH_CASE(S1, __VA_ARGS__) \
                            GMRACE_DISPATCH_CASE(S2, __VA_ARGS__))
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...)                                   \
  GMRACE_DISPATCH(TYPE, GMRACE_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__)           \
                            GMRACE_DISPATCH_CASE(::c10::ScalarType::BFloat16, __VA_ARGS__))
#define GMRACE_INT_LONG_CASES(...)                                                            \
  GMRACE_DISPATCH_CASE(::c10::ScalarType::Int, __VA_ARGS__)                                   \
  GMRACE_DISPATCH_CASE(::c10::ScalarType::Long, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...)                                           \
  GMRACE_DISPATCH(TYPE, GMRACE_DISPATCH_CASE(::c10::ScalarType::Byte, __VA_ARGS__)           \
                            GMRACE_DISPATCH_CASE(::c10::ScalarType::Char, __VA_ARGS__)       \
                                GMRACE_DISPATCH_CASE(::c10::ScalarType::Short, __VA_ARGS__)  \
                                    GMRACE_INT_LONG_CASES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...)                                                \
  GMRACE_DISPATCH(TYPE, GMRACE_FLOATING_CASES(__VA_ARGS__) GMRACE_INT_LONG_CASES(__VA_ARGS__))

#endif

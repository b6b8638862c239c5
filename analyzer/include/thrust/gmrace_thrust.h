/*
 * gmrace stand-in for Thrust, used when no CUDA toolkit is installed (with one, its own Thrust
 * is read instead). Every <thrust/...> header gmrace provides includes this one.
 *
 * Why a stand-in at all: a file that includes Thrust and finds nothing loses far more than its
 * Thrust calls. Kernels and device functors use thrust::tuple, thrust::complex, zip iterators
 * and the sequential algorithms (thrust::seq) in device code, and such a kernel cannot be
 * read; host code that calls thrust::sort does not compile, and host code with errors is not
 * read, so the launches it makes are not known either.
 *
 * What each entity computes is Thrust's: tuples and pairs, complex arithmetic, the fancy
 * iterators, the random engines and distributions (Thrust's formulas, so a seeded engine gives
 * Thrust's numbers) and every algorithm below as a sequential loop, on the host or in a device
 * thread (thrust::seq). Execution policies are accepted and ignored: device_vector is host
 * memory here (gmrace's CPU device has no other), and a device algorithm's internal kernels are
 * not modelled, since gmrace checks the user's kernels, not Thrust's. Sorting is a heap sort
 * (stable_sort an insertion sort): the same order as Thrust's for sort_by_key only where
 * keys are distinct.
 *
 * Internal names start with __gmr or an underscore and a capital, which users cannot define as
 * macros; template parameters too (a user's `#define T float` must not reach them).
 */
#ifndef GMRACE_THRUST_H
#define GMRACE_THRUST_H

#include "../gmrace_cuda.h"
#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#define THRUST_VERSION 200301
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 3
#define THRUST_SUBMINOR_VERSION 1
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CUDA
#define THRUST_HOST_SYSTEM_CPP 1
#define THRUST_HOST_SYSTEM THRUST_HOST_SYSTEM_CPP
#define THRUST_NAMESPACE_BEGIN namespace thrust {
#define THRUST_NAMESPACE_END }
#define __GMR_HD __host__ __device__ inline

namespace thrust {

/* ---- execution policies ------------------------------------------------------------------ */

namespace __gmr {
struct policy_tag {};
template <class _Tp> struct is_policy : std::is_base_of<policy_tag, _Tp> {};
} // namespace __gmr

namespace detail {
template <class _Derived> struct execution_policy_base : __gmr::policy_tag {};
} // namespace detail
template <class _Derived> struct execution_policy : detail::execution_policy_base<_Derived> {};

/* Plain enumerators, not objects: a kernel passing thrust::seq then names a constant, which
 * gmrace reads like any other, instead of a namespace-scope object. */
enum device_execution_policy { device };
enum host_execution_policy { host };
enum sequential_execution_policy { seq };
namespace __gmr {
template <> struct is_policy<device_execution_policy> : std::true_type {};
template <> struct is_policy<host_execution_policy> : std::true_type {};
template <> struct is_policy<sequential_execution_policy> : std::true_type {};
} // namespace __gmr
struct __gmr_stream_policy : execution_policy<__gmr_stream_policy> {
  __GMR_HD __gmr_stream_policy on(cudaStream_t) const { return *this; }
};
namespace cuda {
static constexpr __gmr_stream_policy par{};
static constexpr __gmr_stream_policy par_nosync{};
} // namespace cuda
namespace cuda_cub = cuda;
namespace system {
namespace cuda = ::thrust::cuda;
} // namespace system

/* ---- pair and tuple ---------------------------------------------------------------------- */

template <class _T1, class _T2> struct pair {
  typedef _T1 first_type;
  typedef _T2 second_type;
  _T1 first;
  _T2 second;
  __GMR_HD pair() : first(), second() {}
  __GMR_HD pair(const _T1 &__a, const _T2 &__b) : first(__a), second(__b) {}
  template <class _U1, class _U2>
  __GMR_HD pair(const pair<_U1, _U2> &__p) : first(__p.first), second(__p.second) {}
};
template <class _T1, class _T2> __GMR_HD pair<_T1, _T2> make_pair(_T1 __a, _T2 __b) {
  return pair<_T1, _T2>(__a, __b);
}
template <class _T1, class _T2>
__GMR_HD bool operator==(const pair<_T1, _T2> &__a, const pair<_T1, _T2> &__b) {
  return __a.first == __b.first && __a.second == __b.second;
}
template <class _T1, class _T2>
__GMR_HD bool operator<(const pair<_T1, _T2> &__a, const pair<_T1, _T2> &__b) {
  return __a.first < __b.first || (!(__b.first < __a.first) && __a.second < __b.second);
}

template <class... _Ts> struct tuple;
template <> struct tuple<> {
  __GMR_HD tuple() {}
};
/* A head and the tuple of the rest: members, so that references are held as references. */
template <class _Head, class... _Tail> struct tuple<_Head, _Tail...> {
  _Head __head;
  tuple<_Tail...> __tail;
  __GMR_HD tuple() : __head(), __tail() {}
  __GMR_HD tuple(const tuple &) = default;
  __GMR_HD tuple(const _Head &__h, const _Tail &...__t) : __head(__h), __tail(__t...) {}
  template <class... _Us, class = typename std::enable_if<sizeof...(_Us) == 1 + sizeof...(_Tail)>::type>
  __GMR_HD tuple(const tuple<_Us...> &__o) : __head(__o.__head), __tail(__o.__tail) {}
  template <class _U1, class _U2>
  __GMR_HD tuple(const pair<_U1, _U2> &__p) : __head(__p.first), __tail(__p.second) {}
  /* Written out: a tuple of references must assign through them (the implicit one is deleted). */
  __GMR_HD tuple &operator=(const tuple &__o) {
    __head = __o.__head;
    __tail = __o.__tail;
    return *this;
  }
  template <class... _Us> __GMR_HD tuple &operator=(const tuple<_Us...> &__o) {
    __head = __o.__head;
    __tail = __o.__tail;
    return *this;
  }
  template <class _U1, class _U2> __GMR_HD tuple &operator=(const pair<_U1, _U2> &__p) {
    __head = __p.first;
    __tail.__head = __p.second;
    return *this;
  }
};

template <class _Tuple> struct tuple_size;
template <class... _Ts>
struct tuple_size<tuple<_Ts...>> : std::integral_constant<std::size_t, sizeof...(_Ts)> {};
template <class _T1, class _T2> struct tuple_size<pair<_T1, _T2>> : std::integral_constant<std::size_t, 2> {};

template <std::size_t _Ip, class _Tuple> struct tuple_element;
template <class _Head, class... _Tail> struct tuple_element<0, tuple<_Head, _Tail...>> {
  typedef _Head type;
};
template <std::size_t _Ip, class _Head, class... _Tail>
struct tuple_element<_Ip, tuple<_Head, _Tail...>> : tuple_element<_Ip - 1, tuple<_Tail...>> {};
template <class _T1, class _T2> struct tuple_element<0, pair<_T1, _T2>> { typedef _T1 type; };
template <class _T1, class _T2> struct tuple_element<1, pair<_T1, _T2>> { typedef _T2 type; };
template <std::size_t _Ip, class _Tuple> struct tuple_element<_Ip, const _Tuple> {
  typedef const typename tuple_element<_Ip, _Tuple>::type type;
};

namespace __gmr {
template <std::size_t _Ip> struct tuple_at {
  template <class _Tuple> __GMR_HD static auto &of(_Tuple &__t) { return tuple_at<_Ip - 1>::of(__t.__tail); }
};
template <> struct tuple_at<0> {
  template <class _Tuple> __GMR_HD static auto &of(_Tuple &__t) { return __t.__head; }
};
} // namespace __gmr

template <std::size_t _Ip, class... _Ts>
__GMR_HD typename tuple_element<_Ip, tuple<_Ts...>>::type &get(tuple<_Ts...> &__t) {
  return __gmr::tuple_at<_Ip>::of(__t);
}
template <std::size_t _Ip, class... _Ts>
__GMR_HD const typename tuple_element<_Ip, tuple<_Ts...>>::type &get(const tuple<_Ts...> &__t) {
  return __gmr::tuple_at<_Ip>::of(__t);
}
namespace __gmr {
template <std::size_t _Ip> struct pair_at;
template <> struct pair_at<0> {
  template <class _Pair> __GMR_HD static auto &of(_Pair &__p) { return __p.first; }
};
template <> struct pair_at<1> {
  template <class _Pair> __GMR_HD static auto &of(_Pair &__p) { return __p.second; }
};
} // namespace __gmr
template <std::size_t _Ip, class _T1, class _T2>
__GMR_HD typename tuple_element<_Ip, pair<_T1, _T2>>::type &get(pair<_T1, _T2> &__p) {
  return __gmr::pair_at<_Ip>::of(__p);
}
template <std::size_t _Ip, class _T1, class _T2>
__GMR_HD const typename tuple_element<_Ip, pair<_T1, _T2>>::type &get(const pair<_T1, _T2> &__p) {
  return __gmr::pair_at<_Ip>::of(__p);
}

template <class... _Ts> __GMR_HD tuple<typename std::decay<_Ts>::type...> make_tuple(const _Ts &...__v) {
  return tuple<typename std::decay<_Ts>::type...>(__v...);
}
template <class... _Ts> __GMR_HD tuple<_Ts &...> tie(_Ts &...__v) { return tuple<_Ts &...>(__v...); }

__GMR_HD bool operator==(const tuple<> &, const tuple<> &) { return true; }
__GMR_HD bool operator<(const tuple<> &, const tuple<> &) { return false; }
template <class... _Ts, class... _Us>
__GMR_HD bool operator==(const tuple<_Ts...> &__a, const tuple<_Us...> &__b) {
  return __a.__head == __b.__head && __a.__tail == __b.__tail;
}
template <class... _Ts, class... _Us>
__GMR_HD bool operator!=(const tuple<_Ts...> &__a, const tuple<_Us...> &__b) { return !(__a == __b); }
template <class... _Ts, class... _Us>
__GMR_HD bool operator<(const tuple<_Ts...> &__a, const tuple<_Us...> &__b) {
  return __a.__head < __b.__head || (!(__b.__head < __a.__head) && __a.__tail < __b.__tail);
}

/* ---- function objects -------------------------------------------------------------------- */

template <class _Arg, class _Res> struct unary_function {
  typedef _Arg argument_type;
  typedef _Res result_type;
};
template <class _A1, class _A2, class _Res> struct binary_function {
  typedef _A1 first_argument_type;
  typedef _A2 second_argument_type;
  typedef _Res result_type;
};

#define __GMR_THRUST_BINARY(NAME, RESULT, EXPR)                                               \
  template <class _Tp = void> struct NAME {                                                   \
    typedef _Tp first_argument_type;                                                          \
    typedef _Tp second_argument_type;                                                         \
    typedef RESULT result_type;                                                               \
    __GMR_HD RESULT operator()(const _Tp &__a, const _Tp &__b) const { return EXPR; }         \
  };                                                                                          \
  template <> struct NAME<void> {                                                             \
    template <class _Ap, class _Bp>                                                           \
    __GMR_HD auto operator()(const _Ap &__a, const _Bp &__b) const -> decltype(EXPR) {        \
      return EXPR;                                                                            \
    }                                                                                         \
  };
__GMR_THRUST_BINARY(plus, _Tp, __a + __b)
__GMR_THRUST_BINARY(minus, _Tp, __a - __b)
__GMR_THRUST_BINARY(multiplies, _Tp, __a * __b)
__GMR_THRUST_BINARY(divides, _Tp, __a / __b)
__GMR_THRUST_BINARY(modulus, _Tp, __a % __b)
__GMR_THRUST_BINARY(maximum, _Tp, __a < __b ? __b : __a)
__GMR_THRUST_BINARY(minimum, _Tp, __b < __a ? __b : __a)
__GMR_THRUST_BINARY(bit_and, _Tp, __a & __b)
__GMR_THRUST_BINARY(bit_or, _Tp, __a | __b)
__GMR_THRUST_BINARY(bit_xor, _Tp, __a ^ __b)
__GMR_THRUST_BINARY(equal_to, bool, __a == __b)
__GMR_THRUST_BINARY(not_equal_to, bool, __a != __b)
__GMR_THRUST_BINARY(less, bool, __a < __b)
__GMR_THRUST_BINARY(greater, bool, __b < __a)
__GMR_THRUST_BINARY(less_equal, bool, !(__b < __a))
__GMR_THRUST_BINARY(greater_equal, bool, !(__a < __b))
__GMR_THRUST_BINARY(logical_and, bool, __a && __b)
__GMR_THRUST_BINARY(logical_or, bool, __a || __b)
#undef __GMR_THRUST_BINARY

template <class _Tp = void> struct negate {
  __GMR_HD _Tp operator()(const _Tp &__a) const { return -__a; }
};
template <class _Tp = void> struct logical_not {
  __GMR_HD bool operator()(const _Tp &__a) const { return !__a; }
};
template <class _Tp = void> struct identity {
  __GMR_HD const _Tp &operator()(const _Tp &__a) const { return __a; }
};
template <> struct identity<void> {
  template <class _Ap> __GMR_HD const _Ap &operator()(const _Ap &__a) const { return __a; }
};
template <class _Tp = void> struct square {
  __GMR_HD _Tp operator()(const _Tp &__a) const { return __a * __a; }
};

/* ---- iterators --------------------------------------------------------------------------- */

using std::iterator_traits;
template <class _It> struct iterator_value { typedef typename std::iterator_traits<_It>::value_type type; };
template <class _It> struct iterator_difference {
  typedef typename std::iterator_traits<_It>::difference_type type;
};
template <class _It> struct iterator_reference { typedef typename std::iterator_traits<_It>::reference type; };
template <class _It> struct iterator_pointer { typedef typename std::iterator_traits<_It>::pointer type; };
typedef std::random_access_iterator_tag random_access_device_iterator_tag;
typedef std::random_access_iterator_tag random_access_host_iterator_tag;

template <class _It> __GMR_HD typename iterator_difference<_It>::type distance(_It __f, _It __l) {
  return __l - __f;
}
template <class _It, class _Dist> __GMR_HD void advance(_It &__i, _Dist __n) { __i += __n; }

/* The arithmetic every random-access iterator here shares: _Derived keeps a position and says
 * how to read it (`deref`). */
template <class _Derived, class _Value, class _Ref, class _Diff = std::ptrdiff_t> struct __gmr_iterator {
  typedef std::random_access_iterator_tag iterator_category;
  typedef _Value value_type;
  typedef _Diff difference_type;
  typedef _Ref reference;
  typedef typename std::remove_reference<_Ref>::type *pointer;
  __GMR_HD _Derived &self() { return *static_cast<_Derived *>(this); }
  __GMR_HD const _Derived &self() const { return *static_cast<const _Derived *>(this); }
  __GMR_HD _Ref operator*() const { return self().deref(0); }
  __GMR_HD _Ref operator[](_Diff __n) const { return self().deref(__n); }
  __GMR_HD _Derived &operator+=(_Diff __n) { self().move(__n); return self(); }
  __GMR_HD _Derived &operator-=(_Diff __n) { self().move(-__n); return self(); }
  __GMR_HD _Derived &operator++() { return *this += 1; }
  __GMR_HD _Derived &operator--() { return *this -= 1; }
  __GMR_HD _Derived operator++(int) { _Derived __c = self(); self().move(1); return __c; }
  __GMR_HD _Derived operator--(int) { _Derived __c = self(); self().move(-1); return __c; }
  __GMR_HD _Derived operator+(_Diff __n) const { _Derived __c = self(); __c.move(__n); return __c; }
  __GMR_HD _Derived operator-(_Diff __n) const { _Derived __c = self(); __c.move(-__n); return __c; }
  __GMR_HD friend _Derived operator+(_Diff __n, const _Derived &__i) { return __i + __n; }
  __GMR_HD _Diff operator-(const _Derived &__o) const { return self().position() - __o.position(); }
  __GMR_HD bool operator==(const _Derived &__o) const { return self().position() == __o.position(); }
  __GMR_HD bool operator!=(const _Derived &__o) const { return !(*this == __o); }
  __GMR_HD bool operator<(const _Derived &__o) const { return self().position() < __o.position(); }
  __GMR_HD bool operator>(const _Derived &__o) const { return __o < self(); }
  __GMR_HD bool operator<=(const _Derived &__o) const { return !(__o < self()); }
  __GMR_HD bool operator>=(const _Derived &__o) const { return !(self() < __o); }
};

/* Device memory is an address like any other on gmrace's devices: a device_ptr is a T*. */
template <class _Tp> struct device_ptr : __gmr_iterator<device_ptr<_Tp>, typename std::remove_cv<_Tp>::type, _Tp &> {
  _Tp *__p;
  __GMR_HD device_ptr() : __p(nullptr) {}
  __GMR_HD explicit device_ptr(_Tp *__q) : __p(__q) {}
  template <class _Up> __GMR_HD device_ptr(const device_ptr<_Up> &__o) : __p(__o.get()) {}
  __GMR_HD _Tp *get() const { return __p; }
  __GMR_HD _Tp *operator->() const { return __p; }
  __GMR_HD _Tp &deref(std::ptrdiff_t __n) const { return __p[__n]; }
  __GMR_HD void move(std::ptrdiff_t __n) { __p += __n; }
  __GMR_HD _Tp *position() const { return __p; }
};
template <class _Tp> __GMR_HD device_ptr<_Tp> device_pointer_cast(_Tp *__p) { return device_ptr<_Tp>(__p); }
template <class _Tp> __GMR_HD device_ptr<_Tp> device_pointer_cast(device_ptr<_Tp> __p) { return __p; }
template <class _Tp> __GMR_HD _Tp *raw_pointer_cast(_Tp *__p) { return __p; }
template <class _Tp> __GMR_HD _Tp *raw_pointer_cast(device_ptr<_Tp> __p) { return __p.get(); }
template <class _Tp> __host__ device_ptr<_Tp> device_malloc(std::size_t __n) {
  _Tp *__p = nullptr;
  cudaMalloc((void **)&__p, __n * sizeof(_Tp));
  return device_ptr<_Tp>(__p);
}
template <class _Tp> __host__ void device_free(device_ptr<_Tp> __p) { cudaFree(__p.get()); }

template <class _Tp, class _Diff = std::ptrdiff_t>
struct counting_iterator : __gmr_iterator<counting_iterator<_Tp, _Diff>, _Tp, _Tp, _Diff> {
  _Tp __v;
  __GMR_HD counting_iterator() : __v() {}
  __GMR_HD counting_iterator(_Tp __x) : __v(__x) {}
  __GMR_HD _Tp deref(_Diff __n) const { return __v + (_Tp)__n; }
  __GMR_HD void move(_Diff __n) { __v += (_Tp)__n; }
  __GMR_HD _Diff position() const { return (_Diff)__v; }
};
template <class _Tp> __GMR_HD counting_iterator<_Tp> make_counting_iterator(_Tp __x) {
  return counting_iterator<_Tp>(__x);
}

template <class _Tp, class _Incr = std::ptrdiff_t>
struct constant_iterator : __gmr_iterator<constant_iterator<_Tp, _Incr>, _Tp, _Tp, std::ptrdiff_t> {
  _Tp __v;
  std::ptrdiff_t __i;
  __GMR_HD constant_iterator() : __v(), __i(0) {}
  __GMR_HD constant_iterator(_Tp __x, _Incr __at = 0) : __v(__x), __i((std::ptrdiff_t)__at) {}
  __GMR_HD _Tp deref(std::ptrdiff_t) const { return __v; }
  __GMR_HD void move(std::ptrdiff_t __n) { __i += __n; }
  __GMR_HD std::ptrdiff_t position() const { return __i; }
};
template <class _Tp> __GMR_HD constant_iterator<_Tp> make_constant_iterator(_Tp __x, std::ptrdiff_t __at = 0) {
  return constant_iterator<_Tp>(__x, __at);
}

namespace __gmr {
template <class _Fn, class _It>
using applied_t = decltype(std::declval<const _Fn &>()(*std::declval<_It>()));
} // namespace __gmr
template <class _Fn, class _It, class _Ref = __gmr::applied_t<_Fn, _It>,
          class _Val = typename std::decay<_Ref>::type>
struct transform_iterator
    : __gmr_iterator<transform_iterator<_Fn, _It, _Ref, _Val>, _Val, _Ref,
                     typename std::iterator_traits<_It>::difference_type> {
  typedef typename std::iterator_traits<_It>::difference_type __diff;
  _It __it;
  _Fn __fn;
  __GMR_HD transform_iterator() : __it(), __fn() {}
  __GMR_HD transform_iterator(_It __i, _Fn __f) : __it(__i), __fn(__f) {}
  __GMR_HD _Ref deref(__diff __n) const { return __fn(__it[__n]); }
  __GMR_HD void move(__diff __n) { __it += __n; }
  __GMR_HD _It position() const { return __it; }
  __GMR_HD _It base() const { return __it; }
};
template <class _Fn, class _It> __GMR_HD transform_iterator<_Fn, _It> make_transform_iterator(_It __i, _Fn __f) {
  return transform_iterator<_Fn, _It>(__i, __f);
}

template <class _Elem, class _Idx>
struct permutation_iterator
    : __gmr_iterator<permutation_iterator<_Elem, _Idx>, typename std::iterator_traits<_Elem>::value_type,
                     typename std::iterator_traits<_Elem>::reference,
                     typename std::iterator_traits<_Idx>::difference_type> {
  typedef typename std::iterator_traits<_Idx>::difference_type __diff;
  _Elem __elem;
  _Idx __idx;
  __GMR_HD permutation_iterator() : __elem(), __idx() {}
  __GMR_HD permutation_iterator(_Elem __e, _Idx __i) : __elem(__e), __idx(__i) {}
  __GMR_HD typename std::iterator_traits<_Elem>::reference deref(__diff __n) const {
    return __elem[__idx[__n]];
  }
  __GMR_HD void move(__diff __n) { __idx += __n; }
  __GMR_HD _Idx position() const { return __idx; }
};
template <class _Elem, class _Idx>
__GMR_HD permutation_iterator<_Elem, _Idx> make_permutation_iterator(_Elem __e, _Idx __i) {
  return permutation_iterator<_Elem, _Idx>(__e, __i);
}

/* Reads a tuple of iterators in step: its reference is a tuple of their references. */
template <class _Tuple> struct zip_iterator;
template <class... _Its>
struct zip_iterator<tuple<_Its...>>
    : __gmr_iterator<zip_iterator<tuple<_Its...>>, tuple<typename std::iterator_traits<_Its>::value_type...>,
                     tuple<typename std::iterator_traits<_Its>::reference...>> {
  tuple<_Its...> __its;
  __GMR_HD zip_iterator() : __its() {}
  __GMR_HD zip_iterator(const tuple<_Its...> &__t) : __its(__t) {}
  __GMR_HD const tuple<_Its...> &get_iterator_tuple() const { return __its; }
  template <std::size_t... _Ip>
  __GMR_HD tuple<typename std::iterator_traits<_Its>::reference...> at(std::ptrdiff_t __n,
                                                                        std::index_sequence<_Ip...>) const {
    return tuple<typename std::iterator_traits<_Its>::reference...>(get<_Ip>(__its)[__n]...);
  }
  __GMR_HD tuple<typename std::iterator_traits<_Its>::reference...> deref(std::ptrdiff_t __n) const {
    return at(__n, std::index_sequence_for<_Its...>());
  }
  template <std::size_t... _Ip> __GMR_HD void step(std::ptrdiff_t __n, std::index_sequence<_Ip...>) {
    int __unused[] = {0, (get<_Ip>(__its) += __n, 0)...};
    (void)__unused;
  }
  __GMR_HD void move(std::ptrdiff_t __n) { step(__n, std::index_sequence_for<_Its...>()); }
  __GMR_HD auto position() const { return get<0>(__its); }
};
template <class... _Its> __GMR_HD zip_iterator<tuple<_Its...>> make_zip_iterator(const tuple<_Its...> &__t) {
  return zip_iterator<tuple<_Its...>>(__t);
}
template <class... _Its> __GMR_HD zip_iterator<tuple<_Its...>> make_zip_iterator(_Its... __its) {
  return zip_iterator<tuple<_Its...>>(tuple<_Its...>(__its...));
}

/* Every write through it is dropped (reduce_by_key's keys, when only the sums matter). */
struct __gmr_discard {
  template <class _Tp> __GMR_HD const __gmr_discard &operator=(const _Tp &) const { return *this; }
};
struct discard_iterator : __gmr_iterator<discard_iterator, __gmr_discard, const __gmr_discard &> {
  std::ptrdiff_t __i;
  __GMR_HD discard_iterator(std::ptrdiff_t __at = 0) : __i(__at) {}
  __GMR_HD const __gmr_discard &deref(std::ptrdiff_t) const {
    static constexpr __gmr_discard __sink{};
    return __sink;
  }
  __GMR_HD void move(std::ptrdiff_t __n) { __i += __n; }
  __GMR_HD std::ptrdiff_t position() const { return __i; }
};
__GMR_HD discard_iterator make_discard_iterator(std::ptrdiff_t __at = 0) { return discard_iterator(__at); }

/* ---- containers: host memory on every gmrace device -------------------------------------- */

template <class _Tp, class _Alloc = std::allocator<_Tp>> class host_vector : public std::vector<_Tp, _Alloc> {
  typedef std::vector<_Tp, _Alloc> __base;

public:
  using __base::__base;
  host_vector() = default;
  template <class _Other, class = decltype(std::declval<const _Other &>().begin())>
  host_vector(const _Other &__o) : __base(__o.begin(), __o.end()) {}
  template <class _Other, class = decltype(std::declval<const _Other &>().begin())>
  host_vector &operator=(const _Other &__o) {
    this->assign(__o.begin(), __o.end());
    return *this;
  }
};
template <class _Tp, class _Alloc = std::allocator<_Tp>> class device_vector : public host_vector<_Tp, _Alloc> {
public:
  using host_vector<_Tp, _Alloc>::host_vector;
  using host_vector<_Tp, _Alloc>::operator=;
  device_vector() = default;
  /* Not inherited: a base's constructor from the base's own type is never a candidate. */
  template <class _Other, class = decltype(std::declval<const _Other &>().begin())>
  device_vector(const _Other &__o) : host_vector<_Tp, _Alloc>(__o.begin(), __o.end()) {}
  /* Thrust's device_vector hands out device pointers, which kernels may take as parameters. */
  device_ptr<_Tp> data() { return device_ptr<_Tp>(std::vector<_Tp, _Alloc>::data()); }
  device_ptr<const _Tp> data() const { return device_ptr<const _Tp>(std::vector<_Tp, _Alloc>::data()); }
};

/* ---- algorithms, sequential (thrust::seq's semantics in every policy) -------------------- */

namespace __gmr {
template <class _It> using value_t = typename std::iterator_traits<_It>::value_type;
template <class _It> using diff_t = typename std::iterator_traits<_It>::difference_type;

template <class _It, class _Fn> __GMR_HD _It for_each(_It __f, _It __l, _Fn __fn) {
  for (; __f != __l; ++__f)
    __fn(*__f);
  return __l;
}
template <class _It, class _Size, class _Fn> __GMR_HD _It for_each_n(_It __f, _Size __n, _Fn __fn) {
  for (_Size __i = 0; __i < __n; ++__i, ++__f)
    __fn(*__f);
  return __f;
}
template <class _It, class _Tp> __GMR_HD void fill(_It __f, _It __l, const _Tp &__v) {
  for (; __f != __l; ++__f)
    *__f = __v;
}
template <class _It, class _Size, class _Tp> __GMR_HD _It fill_n(_It __f, _Size __n, const _Tp &__v) {
  for (_Size __i = 0; __i < __n; ++__i, ++__f)
    *__f = __v;
  return __f;
}
template <class _It, class _Tp> __GMR_HD void uninitialized_fill(_It __f, _It __l, const _Tp &__v) {
  __gmr::fill(__f, __l, __v);
}
template <class _It, class _Tp> __GMR_HD void sequence(_It __f, _It __l, _Tp __init, _Tp __step) {
  for (diff_t<_It> __i = 0; __f != __l; ++__f, ++__i)
    *__f = __init + (_Tp)__i * __step;
}
template <class _It, class _Tp> __GMR_HD void sequence(_It __f, _It __l, _Tp __init) {
  __gmr::sequence(__f, __l, __init, _Tp(1));
}
template <class _It> __GMR_HD void sequence(_It __f, _It __l) { sequence(__f, __l, value_t<_It>(0), value_t<_It>(1)); }
template <class _It, class _Fn> __GMR_HD void tabulate(_It __f, _It __l, _Fn __fn) {
  for (diff_t<_It> __i = 0; __f != __l; ++__f, ++__i)
    *__f = __fn(__i);
}
template <class _It, class _Gen> __GMR_HD void generate(_It __f, _It __l, _Gen __g) {
  for (; __f != __l; ++__f)
    *__f = __g();
}
template <class _It, class _Out> __GMR_HD _Out copy(_It __f, _It __l, _Out __o) {
  for (; __f != __l; ++__f, ++__o)
    *__o = *__f;
  return __o;
}
template <class _It, class _Size, class _Out> __GMR_HD _Out copy_n(_It __f, _Size __n, _Out __o) {
  for (_Size __i = 0; __i < __n; ++__i, ++__f, ++__o)
    *__o = *__f;
  return __o;
}
template <class _It, class _Out, class _Pred> __GMR_HD _Out copy_if(_It __f, _It __l, _Out __o, _Pred __p) {
  for (; __f != __l; ++__f)
    if (__p(*__f))
      *__o++ = *__f;
  return __o;
}
template <class _It, class _St, class _Out, class _Pred>
__GMR_HD _Out copy_if(_It __f, _It __l, _St __s, _Out __o, _Pred __p) {
  for (; __f != __l; ++__f, ++__s)
    if (__p(*__s))
      *__o++ = *__f;
  return __o;
}
template <class _It, class _Out, class _Op> __GMR_HD _Out transform(_It __f, _It __l, _Out __o, _Op __op) {
  for (; __f != __l; ++__f, ++__o)
    *__o = __op(*__f);
  return __o;
}
template <class _It, class _It2, class _Out, class _Op>
__GMR_HD _Out transform(_It __f, _It __l, _It2 __f2, _Out __o, _Op __op) {
  for (; __f != __l; ++__f, ++__f2, ++__o)
    *__o = __op(*__f, *__f2);
  return __o;
}
template <class _It, class _Tp, class _Op> __GMR_HD _Tp reduce(_It __f, _It __l, _Tp __init, _Op __op) {
  for (; __f != __l; ++__f)
    __init = __op(__init, *__f);
  return __init;
}
template <class _It, class _Tp> __GMR_HD _Tp reduce(_It __f, _It __l, _Tp __init) {
  return __gmr::reduce(__f, __l, __init, plus<_Tp>());
}
template <class _It> __GMR_HD value_t<_It> reduce(_It __f, _It __l) { return reduce(__f, __l, value_t<_It>()); }
template <class _It, class _Un, class _Tp, class _Bin>
__GMR_HD _Tp transform_reduce(_It __f, _It __l, _Un __un, _Tp __init, _Bin __bin) {
  for (; __f != __l; ++__f)
    __init = __bin(__init, __un(*__f));
  return __init;
}
template <class _It, class _It2, class _Tp, class _Op1, class _Op2>
__GMR_HD _Tp inner_product(_It __f, _It __l, _It2 __f2, _Tp __init, _Op1 __sum, _Op2 __prod) {
  for (; __f != __l; ++__f, ++__f2)
    __init = __sum(__init, __prod(*__f, *__f2));
  return __init;
}
template <class _It, class _It2, class _Tp> __GMR_HD _Tp inner_product(_It __f, _It __l, _It2 __f2, _Tp __init) {
  return __gmr::inner_product(__f, __l, __f2, __init, plus<_Tp>(), multiplies<_Tp>());
}
template <class _It, class _Out, class _Op> __GMR_HD _Out inclusive_scan(_It __f, _It __l, _Out __o, _Op __op) {
  if (__f == __l)
    return __o;
  value_t<_It> __acc = *__f;
  for (*__o++ = __acc, ++__f; __f != __l; ++__f, ++__o)
    *__o = __acc = __op(__acc, *__f);
  return __o;
}
template <class _It, class _Out> __GMR_HD _Out inclusive_scan(_It __f, _It __l, _Out __o) {
  return __gmr::inclusive_scan(__f, __l, __o, plus<value_t<_It>>());
}
template <class _It, class _Out, class _Tp, class _Op>
__GMR_HD _Out exclusive_scan(_It __f, _It __l, _Out __o, _Tp __init, _Op __op) {
  for (; __f != __l; ++__f, ++__o) {
    _Tp __next = __op(__init, *__f);
    *__o = __init;
    __init = __next;
  }
  return __o;
}
template <class _It, class _Out, class _Tp> __GMR_HD _Out exclusive_scan(_It __f, _It __l, _Out __o, _Tp __init) {
  return __gmr::exclusive_scan(__f, __l, __o, __init, plus<_Tp>());
}
template <class _It, class _Out> __GMR_HD _Out exclusive_scan(_It __f, _It __l, _Out __o) {
  return __gmr::exclusive_scan(__f, __l, __o, value_t<_It>(0));
}
template <class _Kt, class _Vt, class _Out, class _Pred, class _Op>
__GMR_HD _Out inclusive_scan_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Out __o, _Pred __eq, _Op __op) {
  value_t<_Vt> __acc{};
  for (_Kt __k = __kf; __k != __kl; ++__k, ++__v, ++__o) {
    __acc = (__k != __kf && __eq(*(__k - 1), *__k)) ? __op(__acc, *__v) : value_t<_Vt>(*__v);
    *__o = __acc;
  }
  return __o;
}
template <class _Kt, class _Vt, class _Out>
__GMR_HD _Out inclusive_scan_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Out __o) {
  return __gmr::inclusive_scan_by_key(__kf, __kl, __v, __o, equal_to<value_t<_Kt>>(), plus<value_t<_Vt>>());
}
template <class _Kt, class _Vt, class _Out, class _Tp, class _Pred, class _Op>
__GMR_HD _Out exclusive_scan_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Out __o, _Tp __init, _Pred __eq, _Op __op) {
  _Tp __acc = __init;
  for (_Kt __k = __kf; __k != __kl; ++__k, ++__v, ++__o) {
    if (__k != __kf && !__eq(*(__k - 1), *__k))
      __acc = __init;
    _Tp __next = __op(__acc, *__v);
    *__o = __acc;
    __acc = __next;
  }
  return __o;
}
template <class _Kt, class _Vt, class _Out, class _Tp>
__GMR_HD _Out exclusive_scan_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Out __o, _Tp __init) {
  return __gmr::exclusive_scan_by_key(__kf, __kl, __v, __o, __init, equal_to<value_t<_Kt>>(), plus<_Tp>());
}
template <class _Kt, class _Vt, class _Out>
__GMR_HD _Out exclusive_scan_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Out __o) {
  return __gmr::exclusive_scan_by_key(__kf, __kl, __v, __o, value_t<_Vt>(0));
}
template <class _Kt, class _Vt, class _Ko, class _Vo, class _Pred, class _Op>
__GMR_HD pair<_Ko, _Vo> reduce_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Ko __ko, _Vo __vo, _Pred __eq, _Op __op) {
  if (__kf == __kl)
    return pair<_Ko, _Vo>(__ko, __vo);
  value_t<_Vt> __acc = *__v;
  for (_Kt __k = __kf + 1; __k != __kl; ++__k) {
    ++__v;
    if (__eq(*(__k - 1), *__k)) {
      __acc = __op(__acc, *__v);
    } else {
      *__ko++ = *(__k - 1);
      *__vo++ = __acc;
      __acc = *__v;
    }
  }
  *__ko++ = *(__kl - 1);
  *__vo++ = __acc;
  return pair<_Ko, _Vo>(__ko, __vo);
}
template <class _Kt, class _Vt, class _Ko, class _Vo, class _Pred>
__GMR_HD pair<_Ko, _Vo> reduce_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Ko __ko, _Vo __vo, _Pred __eq) {
  return __gmr::reduce_by_key(__kf, __kl, __v, __ko, __vo, __eq, plus<value_t<_Vt>>());
}
template <class _Kt, class _Vt, class _Ko, class _Vo>
__GMR_HD pair<_Ko, _Vo> reduce_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Ko __ko, _Vo __vo) {
  return __gmr::reduce_by_key(__kf, __kl, __v, __ko, __vo, equal_to<value_t<_Kt>>());
}
template <class _It, class _Pred> __GMR_HD diff_t<_It> count_if(_It __f, _It __l, _Pred __p) {
  diff_t<_It> __n = 0;
  for (; __f != __l; ++__f)
    __n += __p(*__f) ? 1 : 0;
  return __n;
}
template <class _It, class _Tp> __GMR_HD diff_t<_It> count(_It __f, _It __l, const _Tp &__v) {
  diff_t<_It> __n = 0;
  for (; __f != __l; ++__f)
    __n += (*__f == __v) ? 1 : 0;
  return __n;
}
template <class _Pred> struct logical_not_of {
  _Pred __p;
  template <class _Ap> __GMR_HD bool operator()(const _Ap &__a) const { return !__p(__a); }
};
template <class _It, class _Pred> __GMR_HD _It find_if(_It __f, _It __l, _Pred __p) {
  for (; __f != __l; ++__f)
    if (__p(*__f))
      return __f;
  return __l;
}
template <class _It, class _Pred> __GMR_HD bool any_of(_It __f, _It __l, _Pred __p) {
  return __gmr::find_if(__f, __l, __p) != __l;
}
template <class _It, class _Pred> __GMR_HD bool all_of(_It __f, _It __l, _Pred __p) {
  return __gmr::find_if(__f, __l, logical_not_of<_Pred>{__p}) == __l;
}
template <class _It, class _Pred> __GMR_HD bool none_of(_It __f, _It __l, _Pred __p) { return !any_of(__f, __l, __p); }
template <class _It, class _Tp> __GMR_HD _It find(_It __f, _It __l, const _Tp &__v) {
  for (; __f != __l; ++__f)
    if (*__f == __v)
      return __f;
  return __l;
}
template <class _It, class _Cmp>
__GMR_HD _It min_element(_It __f, _It __l, _Cmp __c) {
  _It __m = __f;
  for (; __f != __l; ++__f)
    if (__c(*__f, *__m))
      __m = __f;
  return __m;
}
template <class _It> __GMR_HD _It min_element(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::min_element(__f, __l, __c);
}
/* The first greatest element is the first least one under the comparison turned round. */
template <class _Cmp> struct flipped {
  _Cmp __c;
  template <class _Ap, class _Bp> __GMR_HD bool operator()(const _Ap &__a, const _Bp &__b) const {
    return __c(__b, __a);
  }
};
template <class _It, class _Cmp>
__GMR_HD _It max_element(_It __f, _It __l, _Cmp __c) {
  flipped<_Cmp> __g;
  __g.__c = __c;
  return __gmr::min_element(__f, __l, __g);
}
template <class _It> __GMR_HD _It max_element(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::max_element(__f, __l, __c);
}
template <class _It, class _Cmp>
__GMR_HD pair<_It, _It> minmax_element(_It __f, _It __l, _Cmp __c) {
  return pair<_It, _It>(__gmr::min_element(__f, __l, __c), __gmr::max_element(__f, __l, __c));
}
template <class _It> __GMR_HD pair<_It, _It> minmax_element(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::minmax_element(__f, __l, __c);
}
template <class _It, class _Cmp>
__GMR_HD bool is_sorted(_It __f, _It __l, _Cmp __c) {
  for (_It __i = __f; __i != __l && __i + 1 != __l; ++__i)
    if (__c(*(__i + 1), *__i))
      return false;
  return true;
}
template <class _It> __GMR_HD bool is_sorted(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::is_sorted(__f, __l, __c);
}
template <class _It, class _It2, class _Pred>
__GMR_HD bool equal(_It __f, _It __l, _It2 __f2, _Pred __p) {
  for (; __f != __l; ++__f, ++__f2)
    if (!__p(*__f, *__f2))
      return false;
  return true;
}
template <class _It, class _It2> __GMR_HD bool equal(_It __f, _It __l, _It2 __f2) {
  equal_to<value_t<_It>> __p;
  return __gmr::equal(__f, __l, __f2, __p);
}

template <class _It> __GMR_HD void swap_at(_It __f, diff_t<_It> __i, diff_t<_It> __j) {
  value_t<_It> __t = __f[__i];
  __f[__i] = __f[__j];
  __f[__j] = __t;
}
/* Sorting moves the keys, and the values with them when there are any (__has_values): the
 * ranges are passed as separate iterators, never kept in an object, so that an iterator into
 * shared memory stays one. */
template <class _Kt, class _Vt>
__GMR_HD void swap_keyed(_Kt __k, _Vt __v, bool __has_values, diff_t<_Kt> __i, diff_t<_Kt> __j) {
  __gmr::swap_at(__k, __i, __j);
  if (__has_values)
    __gmr::swap_at(__v, __i, __j);
}
template <class _Kt, class _Vt, class _Cmp>
__GMR_HD void sift_down(_Kt __k, _Vt __v, bool __has_values, diff_t<_Kt> __root, diff_t<_Kt> __n, _Cmp __c) {
  for (;;) {
    diff_t<_Kt> __child = 2 * __root + 1;
    if (__child >= __n)
      return;
    if (__child + 1 < __n && __c(__k[__child], __k[__child + 1]))
      ++__child;
    if (!__c(__k[__root], __k[__child]))
      return;
    __gmr::swap_keyed(__k, __v, __has_values, __root, __child);
    __root = __child;
  }
}
template <class _Kt, class _Vt, class _Cmp>
__GMR_HD void heap_sort(_Kt __k, _Vt __v, bool __has_values, diff_t<_Kt> __n, _Cmp __c) {
  for (diff_t<_Kt> __i = __n / 2; __i-- > 0;)
    __gmr::sift_down(__k, __v, __has_values, __i, __n, __c);
  for (diff_t<_Kt> __end = __n; __end-- > 1;) {
    __gmr::swap_keyed(__k, __v, __has_values, diff_t<_Kt>(0), __end);
    __gmr::sift_down(__k, __v, __has_values, diff_t<_Kt>(0), __end, __c);
  }
}
template <class _Kt, class _Vt, class _Cmp>
__GMR_HD void insertion_sort(_Kt __k, _Vt __v, bool __has_values, diff_t<_Kt> __n, _Cmp __c) {
  for (diff_t<_Kt> __i = 1; __i < __n; ++__i)
    for (diff_t<_Kt> __j = __i; __j > 0 && __c(__k[__j], __k[__j - 1]); --__j)
      __gmr::swap_keyed(__k, __v, __has_values, __j, __j - 1);
}
template <class _It, class _Cmp>
__GMR_HD void sort(_It __f, _It __l, _Cmp __c) {
  __gmr::heap_sort(__f, __f, false, __l - __f, __c);
}
template <class _It> __GMR_HD void sort(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::sort(__f, __l, __c);
}
template <class _It, class _Cmp>
__GMR_HD void stable_sort(_It __f, _It __l, _Cmp __c) {
  __gmr::insertion_sort(__f, __f, false, __l - __f, __c);
}
template <class _It> __GMR_HD void stable_sort(_It __f, _It __l) {
  less<value_t<_It>> __c;
  return __gmr::stable_sort(__f, __l, __c);
}
template <class _Kt, class _Vt, class _Cmp>
__GMR_HD void sort_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Cmp __c) {
  __gmr::heap_sort(__kf, __v, true, __kl - __kf, __c);
}
template <class _Kt, class _Vt> __GMR_HD void sort_by_key(_Kt __kf, _Kt __kl, _Vt __v) {
  less<value_t<_Kt>> __c;
  return __gmr::sort_by_key(__kf, __kl, __v, __c);
}
template <class _Kt, class _Vt, class _Cmp>
__GMR_HD void stable_sort_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Cmp __c) {
  __gmr::insertion_sort(__kf, __v, true, __kl - __kf, __c);
}
template <class _Kt, class _Vt> __GMR_HD void stable_sort_by_key(_Kt __kf, _Kt __kl, _Vt __v) {
  less<value_t<_Kt>> __c;
  return __gmr::stable_sort_by_key(__kf, __kl, __v, __c);
}
template <class _It, class _Gen> __GMR_HD void shuffle(_It __f, _It __l, _Gen &__g) {
  for (diff_t<_It> __n = __l - __f; __n > 1; --__n)
    __gmr::swap_at(__f, __n - 1, diff_t<_It>(__g() % (unsigned long long)__n));
}
template <class _It, class _Pred>
__GMR_HD _It unique(_It __f, _It __l, _Pred __p) {
  if (__f == __l)
    return __l;
  _It __o = __f;
  for (_It __i = __f + 1; __i != __l; ++__i)
    if (!__p(*__o, *__i))
      *++__o = *__i;
  return ++__o;
}
template <class _It> __GMR_HD _It unique(_It __f, _It __l) {
  equal_to<value_t<_It>> __p;
  return __gmr::unique(__f, __l, __p);
}
template <class _Kt, class _Vt, class _Pred>
__GMR_HD pair<_Kt, _Vt> unique_by_key(_Kt __kf, _Kt __kl, _Vt __v, _Pred __p) {
  if (__kf == __kl)
    return pair<_Kt, _Vt>(__kl, __v);
  diff_t<_Kt> __o = 0;
  for (diff_t<_Kt> __i = 1; __i < __kl - __kf; ++__i)
    if (!__p(__kf[__o], __kf[__i])) {
      ++__o;
      __kf[__o] = __kf[__i];
      __v[__o] = __v[__i];
    }
  return pair<_Kt, _Vt>(__kf + __o + 1, __v + __o + 1);
}
template <class _Kt, class _Vt> __GMR_HD pair<_Kt, _Vt> unique_by_key(_Kt __kf, _Kt __kl, _Vt __v) {
  equal_to<value_t<_Kt>> __p;
  return __gmr::unique_by_key(__kf, __kl, __v, __p);
}
template <class _It, class _Pred> __GMR_HD _It remove_if(_It __f, _It __l, _Pred __p) {
  _It __o = __f;
  for (; __f != __l; ++__f)
    if (!__p(*__f))
      *__o++ = *__f;
  return __o;
}
template <class _It, class _St, class _Pred> __GMR_HD _It remove_if(_It __f, _It __l, _St __s, _Pred __p) {
  _It __o = __f;
  for (; __f != __l; ++__f, ++__s)
    if (!__p(*__s))
      *__o++ = *__f;
  return __o;
}
template <class _It, class _Tp> __GMR_HD _It remove(_It __f, _It __l, const _Tp &__v) {
  _It __o = __f;
  for (; __f != __l; ++__f)
    if (!(*__f == __v))
      *__o++ = *__f;
  return __o;
}
template <class _Map, class _It, class _Out> __GMR_HD _Out gather(_Map __mf, _Map __ml, _It __in, _Out __o) {
  for (; __mf != __ml; ++__mf, ++__o)
    *__o = __in[*__mf];
  return __o;
}
template <class _It, class _Map, class _Out> __GMR_HD void scatter(_It __f, _It __l, _Map __m, _Out __o) {
  for (; __f != __l; ++__f, ++__m)
    __o[*__m] = *__f;
}
template <class _It, class _Tp> __GMR_HD void replace(_It __f, _It __l, const _Tp &__old, const _Tp &__new) {
  for (; __f != __l; ++__f)
    if (*__f == __old)
      *__f = __new;
}
template <class _It, class _Pred, class _Tp> __GMR_HD void replace_if(_It __f, _It __l, _Pred __p, const _Tp &__new) {
  for (; __f != __l; ++__f)
    if (__p(*__f))
      *__f = __new;
}
/* The first element of a sorted range for which `__below` is false (binary search). */
template <class _It, class _Below> __GMR_HD _It partition_point(_It __f, _It __l, _Below __below) {
  for (diff_t<_It> __n = __l - __f; __n > 0;) {
    diff_t<_It> __h = __n / 2;
    if (__below(__f[__h])) {
      __f += __h + 1;
      __n -= __h + 1;
    } else {
      __n = __h;
    }
  }
  return __f;
}
template <class _Tp, class _Cmp> struct less_than_value {
  const _Tp &__v;
  _Cmp __c;
  template <class _Ap> __GMR_HD bool operator()(const _Ap &__a) const { return __c(__a, __v); }
};
template <class _Tp, class _Cmp> struct not_above_value {
  const _Tp &__v;
  _Cmp __c;
  template <class _Ap> __GMR_HD bool operator()(const _Ap &__a) const { return !__c(__v, __a); }
};
template <class _It, class _Tp, class _Cmp>
__GMR_HD _It lower_bound(_It __f, _It __l, const _Tp &__v, _Cmp __c) {
  return __gmr::partition_point(__f, __l, less_than_value<_Tp, _Cmp>{__v, __c});
}
template <class _It, class _Tp> __GMR_HD _It lower_bound(_It __f, _It __l, const _Tp &__v) {
  less<value_t<_It>> __c;
  return __gmr::lower_bound(__f, __l, __v, __c);
}
template <class _It, class _Tp, class _Cmp>
__GMR_HD _It upper_bound(_It __f, _It __l, const _Tp &__v, _Cmp __c) {
  return __gmr::partition_point(__f, __l, not_above_value<_Tp, _Cmp>{__v, __c});
}
template <class _It, class _Tp> __GMR_HD _It upper_bound(_It __f, _It __l, const _Tp &__v) {
  less<value_t<_It>> __c;
  return __gmr::upper_bound(__f, __l, __v, __c);
}
template <class _It, class _Tp, class _Cmp>
__GMR_HD bool binary_search(_It __f, _It __l, const _Tp &__v, _Cmp __c) {
  _It __i = __gmr::lower_bound(__f, __l, __v, __c);
  return __i != __l && !__c(__v, *__i);
}
template <class _It, class _Tp> __GMR_HD bool binary_search(_It __f, _It __l, const _Tp &__v) {
  less<value_t<_It>> __c;
  return __gmr::binary_search(__f, __l, __v, __c);
}
/* The vectorised searches: one result per value of [__vf, __vl). */
template <class _It, class _Vs, class _Out>
__GMR_HD _Out lower_bound(_It __f, _It __l, _Vs __vf, _Vs __vl, _Out __o) {
  for (; __vf != __vl; ++__vf, ++__o)
    *__o = __gmr::lower_bound(__f, __l, *__vf) - __f;
  return __o;
}
template <class _It, class _Vs, class _Out>
__GMR_HD _Out upper_bound(_It __f, _It __l, _Vs __vf, _Vs __vl, _Out __o) {
  for (; __vf != __vl; ++__vf, ++__o)
    *__o = __gmr::upper_bound(__f, __l, *__vf) - __f;
  return __o;
}
template <class _It, class _Vs, class _Out>
__GMR_HD _Out binary_search(_It __f, _It __l, _Vs __vf, _Vs __vl, _Out __o) {
  for (; __vf != __vl; ++__vf, ++__o)
    *__o = __gmr::binary_search(__f, __l, *__vf);
  return __o;
}
} // namespace __gmr

/* Each algorithm with and without an execution policy in front (which is ignored). */
/* Each algorithm with and without an execution policy in front (which is ignored). Arguments
 * are iterators, values and function objects, passed by value as Thrust takes them. */
#define __GMR_THRUST_ALGORITHM(NAME)                                                           \
  template <class _A0, class... _As,                                                           \
            typename std::enable_if<!__gmr::is_policy<_A0>::value, int>::type = 0>             \
  __GMR_HD auto NAME(_A0 __a0, _As... __as)->decltype(__gmr::NAME(__a0, __as...)) {             \
    return __gmr::NAME(__a0, __as...);                                                         \
  }                                                                                            \
  template <class _Pol, class... _As,                                                          \
            typename std::enable_if<__gmr::is_policy<_Pol>::value, int>::type = 0>             \
  __GMR_HD auto NAME(_Pol, _As... __as)->decltype(__gmr::NAME(__as...)) {                       \
    return __gmr::NAME(__as...);                                                               \
  }
__GMR_THRUST_ALGORITHM(for_each)
__GMR_THRUST_ALGORITHM(for_each_n)
__GMR_THRUST_ALGORITHM(fill)
__GMR_THRUST_ALGORITHM(fill_n)
__GMR_THRUST_ALGORITHM(uninitialized_fill)
__GMR_THRUST_ALGORITHM(sequence)
__GMR_THRUST_ALGORITHM(tabulate)
__GMR_THRUST_ALGORITHM(generate)
__GMR_THRUST_ALGORITHM(copy)
__GMR_THRUST_ALGORITHM(copy_n)
__GMR_THRUST_ALGORITHM(copy_if)
__GMR_THRUST_ALGORITHM(transform)
__GMR_THRUST_ALGORITHM(reduce)
__GMR_THRUST_ALGORITHM(transform_reduce)
__GMR_THRUST_ALGORITHM(inner_product)
__GMR_THRUST_ALGORITHM(inclusive_scan)
__GMR_THRUST_ALGORITHM(exclusive_scan)
__GMR_THRUST_ALGORITHM(inclusive_scan_by_key)
__GMR_THRUST_ALGORITHM(exclusive_scan_by_key)
__GMR_THRUST_ALGORITHM(reduce_by_key)
__GMR_THRUST_ALGORITHM(count)
__GMR_THRUST_ALGORITHM(count_if)
__GMR_THRUST_ALGORITHM(find)
__GMR_THRUST_ALGORITHM(find_if)
__GMR_THRUST_ALGORITHM(any_of)
__GMR_THRUST_ALGORITHM(all_of)
__GMR_THRUST_ALGORITHM(none_of)
__GMR_THRUST_ALGORITHM(min_element)
__GMR_THRUST_ALGORITHM(max_element)
__GMR_THRUST_ALGORITHM(minmax_element)
__GMR_THRUST_ALGORITHM(is_sorted)
__GMR_THRUST_ALGORITHM(equal)
__GMR_THRUST_ALGORITHM(sort)
__GMR_THRUST_ALGORITHM(stable_sort)
__GMR_THRUST_ALGORITHM(sort_by_key)
__GMR_THRUST_ALGORITHM(stable_sort_by_key)
__GMR_THRUST_ALGORITHM(unique)
__GMR_THRUST_ALGORITHM(unique_by_key)
__GMR_THRUST_ALGORITHM(remove)
__GMR_THRUST_ALGORITHM(remove_if)
__GMR_THRUST_ALGORITHM(gather)
__GMR_THRUST_ALGORITHM(scatter)
__GMR_THRUST_ALGORITHM(replace)
__GMR_THRUST_ALGORITHM(replace_if)
__GMR_THRUST_ALGORITHM(partition_point)
__GMR_THRUST_ALGORITHM(lower_bound)
__GMR_THRUST_ALGORITHM(upper_bound)
__GMR_THRUST_ALGORITHM(binary_search)
#undef __GMR_THRUST_ALGORITHM
/* The generator is the caller's: its state advances. */
template <class _It, class _Gen, typename std::enable_if<!__gmr::is_policy<_It>::value, int>::type = 0>
__GMR_HD void shuffle(_It __f, _It __l, _Gen &__g) {
  __gmr::shuffle(__f, __l, __g);
}
template <class _Pol, class _It, class _Gen, typename std::enable_if<__gmr::is_policy<_Pol>::value, int>::type = 0>
__GMR_HD void shuffle(_Pol, _It __f, _It __l, _Gen &__g) {
  __gmr::shuffle(__f, __l, __g);
}

} // namespace thrust

/* Structured bindings of Thrust's tuples and pairs. */
namespace std {
template <class... _Ts> struct tuple_size<thrust::tuple<_Ts...>> : thrust::tuple_size<thrust::tuple<_Ts...>> {};
template <size_t _Ip, class... _Ts> struct tuple_element<_Ip, thrust::tuple<_Ts...>> : thrust::tuple_element<_Ip, thrust::tuple<_Ts...>> {};
template <class _T1, class _T2> struct tuple_size<thrust::pair<_T1, _T2>> : integral_constant<size_t, 2> {};
template <size_t _Ip, class _T1, class _T2>
struct tuple_element<_Ip, thrust::pair<_T1, _T2>> : thrust::tuple_element<_Ip, thrust::pair<_T1, _T2>> {};
} // namespace std

#include "gmrace_thrust_complex.h"
#include "gmrace_thrust_random.h"

#undef __GMR_HD
#endif /* GMRACE_THRUST_H */

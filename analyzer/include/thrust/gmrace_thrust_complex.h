/*
 * gmrace stand-in for thrust::complex (part of gmrace_thrust.h). Arithmetic as the textbook
 * formulas (division scaled as Smith's, so that it does not overflow early); Thrust's own
 * functions are more careful near overflow and at branch cuts, so the last bits can differ.
 */
#ifndef GMRACE_THRUST_COMPLEX_H
#define GMRACE_THRUST_COMPLEX_H

#include <cmath>

namespace thrust {

template <class _Tp> struct complex {
  typedef _Tp value_type;
  _Tp __re, __im;
  __GMR_HD complex(const _Tp &__r = _Tp(), const _Tp &__i = _Tp()) : __re(__r), __im(__i) {}
  template <class _Up> __GMR_HD complex(const complex<_Up> &__o) : __re(_Tp(__o.real())), __im(_Tp(__o.imag())) {}
  __GMR_HD _Tp real() const { return __re; }
  __GMR_HD _Tp imag() const { return __im; }
  __GMR_HD void real(_Tp __r) { __re = __r; }
  __GMR_HD void imag(_Tp __i) { __im = __i; }
  __GMR_HD complex &operator+=(const complex &__o) { __re += __o.__re; __im += __o.__im; return *this; }
  __GMR_HD complex &operator-=(const complex &__o) { __re -= __o.__re; __im -= __o.__im; return *this; }
  __GMR_HD complex &operator*=(const complex &__o) { return *this = *this * __o; }
  __GMR_HD complex &operator/=(const complex &__o) { return *this = *this / __o; }
  __GMR_HD complex &operator+=(const _Tp &__r) { __re += __r; return *this; }
  __GMR_HD complex &operator-=(const _Tp &__r) { __re -= __r; return *this; }
  __GMR_HD complex &operator*=(const _Tp &__r) { __re *= __r; __im *= __r; return *this; }
  __GMR_HD complex &operator/=(const _Tp &__r) { __re /= __r; __im /= __r; return *this; }

  __GMR_HD friend complex operator+(const complex &__a, const complex &__b) {
    return complex(__a.__re + __b.__re, __a.__im + __b.__im);
  }
  __GMR_HD friend complex operator-(const complex &__a, const complex &__b) {
    return complex(__a.__re - __b.__re, __a.__im - __b.__im);
  }
  __GMR_HD friend complex operator*(const complex &__a, const complex &__b) {
    return complex(__a.__re * __b.__re - __a.__im * __b.__im, __a.__re * __b.__im + __a.__im * __b.__re);
  }
  __GMR_HD friend complex operator/(const complex &__a, const complex &__b) {
    using std::fabs;
    if (fabs(__b.__re) >= fabs(__b.__im)) {
      _Tp __r = __b.__im / __b.__re, __d = __b.__re + __r * __b.__im;
      return complex((__a.__re + __a.__im * __r) / __d, (__a.__im - __a.__re * __r) / __d);
    }
    _Tp __r = __b.__re / __b.__im, __d = __b.__im + __r * __b.__re;
    return complex((__a.__re * __r + __a.__im) / __d, (__a.__im * __r - __a.__re) / __d);
  }
  __GMR_HD friend complex operator+(const complex &__a, const _Tp &__b) { return complex(__a.__re + __b, __a.__im); }
  __GMR_HD friend complex operator+(const _Tp &__a, const complex &__b) { return complex(__a + __b.__re, __b.__im); }
  __GMR_HD friend complex operator-(const complex &__a, const _Tp &__b) { return complex(__a.__re - __b, __a.__im); }
  __GMR_HD friend complex operator-(const _Tp &__a, const complex &__b) { return complex(__a - __b.__re, -__b.__im); }
  __GMR_HD friend complex operator*(const complex &__a, const _Tp &__b) { return complex(__a.__re * __b, __a.__im * __b); }
  __GMR_HD friend complex operator*(const _Tp &__a, const complex &__b) { return complex(__a * __b.__re, __a * __b.__im); }
  __GMR_HD friend complex operator/(const complex &__a, const _Tp &__b) { return complex(__a.__re / __b, __a.__im / __b); }
  __GMR_HD friend complex operator/(const _Tp &__a, const complex &__b) { return complex(__a) / __b; }
  __GMR_HD friend complex operator-(const complex &__a) { return complex(-__a.__re, -__a.__im); }
  __GMR_HD friend complex operator+(const complex &__a) { return __a; }
  __GMR_HD friend bool operator==(const complex &__a, const complex &__b) {
    return __a.__re == __b.__re && __a.__im == __b.__im;
  }
  __GMR_HD friend bool operator!=(const complex &__a, const complex &__b) { return !(__a == __b); }
};

template <class _Tp> __GMR_HD _Tp real(const complex<_Tp> &__z) { return __z.real(); }
template <class _Tp> __GMR_HD _Tp imag(const complex<_Tp> &__z) { return __z.imag(); }
template <class _Tp> __GMR_HD _Tp abs(const complex<_Tp> &__z) {
  using std::hypot;
  return hypot(__z.real(), __z.imag());
}
template <class _Tp> __GMR_HD _Tp arg(const complex<_Tp> &__z) {
  using std::atan2;
  return atan2(__z.imag(), __z.real());
}
template <class _Tp> __GMR_HD _Tp norm(const complex<_Tp> &__z) {
  return __z.real() * __z.real() + __z.imag() * __z.imag();
}
template <class _Tp> __GMR_HD complex<_Tp> conj(const complex<_Tp> &__z) { return complex<_Tp>(__z.real(), -__z.imag()); }
template <class _Tp> __GMR_HD complex<_Tp> polar(const _Tp &__m, const _Tp &__theta = _Tp()) {
  using std::cos;
  using std::sin;
  return complex<_Tp>(__m * cos(__theta), __m * sin(__theta));
}
template <class _Tp> __GMR_HD complex<_Tp> exp(const complex<_Tp> &__z) {
  using std::exp;
  return polar(_Tp(exp(__z.real())), __z.imag());
}
template <class _Tp> __GMR_HD complex<_Tp> log(const complex<_Tp> &__z) {
  using std::log;
  return complex<_Tp>(log(abs(__z)), arg(__z));
}
template <class _Tp> __GMR_HD complex<_Tp> log10(const complex<_Tp> &__z) {
  using std::log;
  return log(__z) / _Tp(log(_Tp(10)));
}
template <class _Tp> __GMR_HD complex<_Tp> sqrt(const complex<_Tp> &__z) {
  using std::sqrt;
  return polar(_Tp(sqrt(abs(__z))), arg(__z) / _Tp(2));
}
template <class _Tp> __GMR_HD complex<_Tp> pow(const complex<_Tp> &__z, const complex<_Tp> &__w) {
  return exp(__w * log(__z));
}
template <class _Tp> __GMR_HD complex<_Tp> pow(const complex<_Tp> &__z, const _Tp &__p) {
  return exp(__p * log(__z));
}
template <class _Tp> __GMR_HD complex<_Tp> pow(const _Tp &__b, const complex<_Tp> &__w) {
  return exp(__w * log(complex<_Tp>(__b)));
}
template <class _Tp> __GMR_HD complex<_Tp> sin(const complex<_Tp> &__z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<_Tp>(sin(__z.real()) * cosh(__z.imag()), cos(__z.real()) * sinh(__z.imag()));
}
template <class _Tp> __GMR_HD complex<_Tp> cos(const complex<_Tp> &__z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<_Tp>(cos(__z.real()) * cosh(__z.imag()), -sin(__z.real()) * sinh(__z.imag()));
}
template <class _Tp> __GMR_HD complex<_Tp> tan(const complex<_Tp> &__z) { return sin(__z) / cos(__z); }
template <class _Tp> __GMR_HD complex<_Tp> sinh(const complex<_Tp> &__z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<_Tp>(sinh(__z.real()) * cos(__z.imag()), cosh(__z.real()) * sin(__z.imag()));
}
template <class _Tp> __GMR_HD complex<_Tp> cosh(const complex<_Tp> &__z) {
  using std::cos;
  using std::cosh;
  using std::sin;
  using std::sinh;
  return complex<_Tp>(cosh(__z.real()) * cos(__z.imag()), sinh(__z.real()) * sin(__z.imag()));
}
template <class _Tp> __GMR_HD complex<_Tp> tanh(const complex<_Tp> &__z) { return sinh(__z) / cosh(__z); }

} // namespace thrust

#endif /* GMRACE_THRUST_COMPLEX_H */

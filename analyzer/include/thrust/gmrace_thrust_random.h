/*
 * gmrace stand-in for <thrust/random.h> (part of gmrace_thrust.h): the linear congruential
 * engines and the uniform distributions with Thrust's formulas, so that a program seeding an
 * engine gets Thrust's numbers on gmrace's devices (a seeded engine is how kernels in the
 * field pick random work: the values decide which addresses are touched).
 */
#ifndef GMRACE_THRUST_RANDOM_H
#define GMRACE_THRUST_RANDOM_H

namespace thrust {
namespace random {

template <class _UInt, _UInt _Mul, _UInt _Inc, _UInt _Mod> class linear_congruential_engine {
  _UInt __x;
  /* (a * x + c) mod m without overflow: every engine Thrust names has m < 2^32. */
  __GMR_HD static _UInt __step(_UInt __v) {
    return (_UInt)(((unsigned long long)_Mul * __v + _Inc) % (unsigned long long)_Mod);
  }

public:
  typedef _UInt result_type;
  static const result_type multiplier = _Mul;
  static const result_type increment = _Inc;
  static const result_type modulus = _Mod;
  static const result_type min = _Inc == 0 ? 1 : 0;
  static const result_type max = _Mod - 1;
  static const result_type default_seed = 1;
  __GMR_HD explicit linear_congruential_engine(result_type __s = default_seed) { seed(__s); }
  __GMR_HD void seed(result_type __s = default_seed) {
    __x = (_Inc % _Mod == 0 && __s % _Mod == 0) ? 1 % _Mod : __s % _Mod;
  }
  __GMR_HD result_type operator()() { return __x = __step(__x); }
  __GMR_HD void discard(unsigned long long __z) {
    for (; __z > 0; --__z)
      __x = __step(__x);
  }
};

typedef linear_congruential_engine<unsigned int, 16807, 0, 2147483647> minstd_rand0;
typedef linear_congruential_engine<unsigned int, 48271, 0, 2147483647> minstd_rand;
typedef minstd_rand default_random_engine;

template <class _Real = double> class uniform_real_distribution {
  _Real __a, __b;

public:
  typedef _Real result_type;
  __GMR_HD explicit uniform_real_distribution(_Real __lo = 0, _Real __hi = 1) : __a(__lo), __b(__hi) {}
  __GMR_HD _Real a() const { return __a; }
  __GMR_HD _Real b() const { return __b; }
  /* Thrust's: the engine's value scaled to [0, 1), then to [a, b). */
  template <class _Gen> __GMR_HD _Real operator()(_Gen &__g) {
    _Real __r = static_cast<_Real>(__g() - _Gen::min);
    __r /= (_Real(1) + static_cast<_Real>(_Gen::max - _Gen::min));
    return __r * (__b - __a) + __a;
  }
};

template <class _Int = int> class uniform_int_distribution {
  _Int __a, __b;

public:
  typedef _Int result_type;
  __GMR_HD explicit uniform_int_distribution(_Int __lo = 0, _Int __hi = 0x7fffffff) : __a(__lo), __b(__hi) {}
  __GMR_HD _Int a() const { return __a; }
  __GMR_HD _Int b() const { return __b; }
  /* Thrust's: a real distribution over [a, b + 1), truncated. */
  template <class _Gen> __GMR_HD _Int operator()(_Gen &__g) {
    uniform_real_distribution<double> __r((double)__a, (double)__b + 1.0);
    return static_cast<_Int>(__r(__g));
  }
};

} // namespace random

using random::default_random_engine;
using random::minstd_rand;
using random::minstd_rand0;
using random::uniform_int_distribution;
using random::uniform_real_distribution;

} // namespace thrust

#endif /* GMRACE_THRUST_RANDOM_H */

// A timing helper as projects write it: PTX special registers spelled with one `%`, which nvcc
// passes through and clang reads as a bad operand escape.
#pragma once

__device__ inline long long global_time() {
  long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t) :: "memory");
  return t;
}

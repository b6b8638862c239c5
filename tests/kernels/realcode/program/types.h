// The program's own types, which kernels.cu uses without including this header.
#pragma once
struct Pair {
  float a, b;
};

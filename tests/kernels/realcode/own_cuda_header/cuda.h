// A project's own header named like the CUDA driver API's (darknet has one): the project
// includes it as "cuda.h"; clang's CUDA wrapper must still find the toolkit's <cuda.h>, also
// when the parse starts over without the precompiled prelude (a header missing here).
#ifndef PROJECT_CUDA_H
#define PROJECT_CUDA_H
#include <cuda_runtime.h>
#include "darknet.h"

#define BLOCK 512
void check_error(cudaError_t status);
dim3 cuda_gridsize(size_t n);
#endif

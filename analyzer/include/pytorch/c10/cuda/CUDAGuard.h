/* gmrace: PyTorch's `c10/cuda/CUDAGuard.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

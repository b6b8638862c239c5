/* gmrace: PyTorch's `ATen/cuda/CUDAContext.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

/* gmrace: PyTorch's `c10/cuda/CUDAStream.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

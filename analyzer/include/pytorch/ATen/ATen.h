/* gmrace: PyTorch's `ATen/ATen.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

/* gmrace: PyTorch's `torch/types.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

/* gmrace: PyTorch's `torch/all.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

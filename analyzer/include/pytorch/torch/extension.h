/* gmrace: PyTorch's `torch/extension.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

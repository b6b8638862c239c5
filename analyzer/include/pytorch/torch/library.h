/* gmrace: PyTorch's `torch/library.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

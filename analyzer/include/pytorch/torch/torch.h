/* gmrace: PyTorch's `torch/torch.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

/* gmrace: PyTorch's `ATen/Dispatch.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

/* gmrace: PyTorch's `ATen/AccumulateType.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

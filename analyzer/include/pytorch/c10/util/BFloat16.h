/* gmrace: PyTorch's `c10/util/BFloat16.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

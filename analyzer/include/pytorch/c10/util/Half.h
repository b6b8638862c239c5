/* gmrace: PyTorch's `c10/util/Half.h`, read as gmrace_pytorch.h. */
#include <gmrace_pytorch.h>

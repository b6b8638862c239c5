/* gmrace stand-in: everything of CUB that gmrace provides is in <cub/cub.cuh>. */
#include "../cub.cuh"

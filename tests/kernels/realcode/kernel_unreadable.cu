// Nothing here can be read: the only kernel uses a type no header declares. The file is
// refused with the error's location.
__global__ void clear(MissingType *p) { p[threadIdx.x] = 0; }

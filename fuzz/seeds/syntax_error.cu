__global__ void broken(int *g) {
  g[threadIdx.x] = ;
  for (int i = 0; i < ; i++
}

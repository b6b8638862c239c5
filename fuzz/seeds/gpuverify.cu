//pass
//--blockDim=[16,16] --gridDim=[2,2]
__global__ void transpose(float *odata, const float *idata, int w) {
  __shared__ float tile[16][17];
  __requires(w == 32);
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  odata[y * w + x] = tile[threadIdx.x][threadIdx.y];
}

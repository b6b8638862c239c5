// Helper objects that keep a reference to a block's shared memory, as CUB's collectives keep
// their TempStorage: an access through the member is an access to the shared array it is
// bound to. `shift` reads a neighbour's cell with no barrier between (a race); `shift_synced`
// has the barrier; `halves` binds two objects to the two halves of one array.
struct Tile {
  float (&cells)[256];
  __device__ Tile(float (&c)[256]) : cells(c) {}
  __device__ void put(int i, float v) { cells[i] = v; } // RACE
  __device__ float get(int i) const { return cells[i]; } // RACE
};

struct Half {
  float *base;
  int &count;
  __device__ Half(float *b, int &c) : base(b), count(c) {}
};

__global__ void shift(const float *in, float *out) {
  __shared__ float tile[256];
  Tile t(tile);
  int i = blockIdx.x * 256 + threadIdx.x;
  t.put(threadIdx.x, in[i]);
  out[i] = t.get((threadIdx.x + 1) % 256);
}

__global__ void shift_synced(const float *in, float *out) {
  __shared__ float tile[256];
  Tile t(tile);
  int i = blockIdx.x * 256 + threadIdx.x;
  t.put(threadIdx.x, in[i]);
  __syncthreads();
  out[i] = t.get((threadIdx.x + 1) % 256);
}

__global__ void halves(float *out) {
  __shared__ float cells[256];
  __shared__ int counts[2];
  Half lo(cells, counts[0]);
  Half hi(cells + 128, counts[1]);
  if (threadIdx.x == 0) lo.count = 128;
  if (threadIdx.x == 32) hi.count = 128;
  if (threadIdx.x < 128) lo.base[threadIdx.x] = 1.0f;
  else hi.base[threadIdx.x - 128] = 2.0f;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = cells[threadIdx.x] * (counts[0] + counts[1]);
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 8 * 256 * sizeof(float));
  cudaMalloc(&out, 8 * 256 * sizeof(float));
  shift<<<8, 256>>>(in, out);
  shift_synced<<<8, 256>>>(in, out);
  halves<<<8, 256>>>(out);
  cudaDeviceSynchronize();
  return 0;
}

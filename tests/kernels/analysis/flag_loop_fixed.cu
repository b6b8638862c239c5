//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Persistent threads: thread 0 takes the next tile from a global counter and publishes it in shared memory; after a barrier every thread reads it, and the whole block leaves the loop together. The barrier at the top keeps the next tile from being published while the last one is still read.

// counter holds 1 word, data 64 * tiles words.
__global__ void flag_loop(int *counter, float *data, int tiles) {
    __shared__ int tile;
    __shared__ float buf[64];
    while (true) {
        __syncthreads();
        if (threadIdx.x == 0)
            tile = atomicAdd(counter, 1);
        __syncthreads();
        if (tile >= tiles)
            break;
        buf[threadIdx.x] = data[tile * 64 + threadIdx.x];
        __syncthreads();
        data[tile * 64 + threadIdx.x] = buf[63 - threadIdx.x];
    }
}

//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// The twin of flag_loop_fixed without the barrier at the top of the loop: thread 0 publishes the next tile while the other threads still read the last one.

// counter holds 1 word, data 64 * tiles words.
__global__ void flag_loop(int *counter, float *data, int tiles) {
    __shared__ int tile;
    __shared__ float buf[64];
    while (true) {
        if (threadIdx.x == 0)
            tile = atomicAdd(counter, 1); // RACE
        __syncthreads();
        if (tile >= tiles)
            break;
        buf[threadIdx.x] = data[tile * 64 + threadIdx.x];
        __syncthreads();
        data[tile * 64 + threadIdx.x] = buf[63 - threadIdx.x]; // RACE
    }
}

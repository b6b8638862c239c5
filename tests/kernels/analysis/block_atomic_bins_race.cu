//xfail
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Histogram bins in global memory updated with atomicAdd_block by every block: atomic only within a block, a scoped race across blocks.
__global__ void bins_block_scope(unsigned int *bins) {
    atomicAdd_block(&bins[threadIdx.x % 16], 1u); // RACE
}

//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Block 0 counts with atomicAdd_block, block 1 with atomicAdd_system on the same global word: the block-scoped one is not atomic with the other block's.
__global__ void mixed_scopes(int *count) {
    if (blockIdx.x == 0)
        atomicAdd_block(count, 1); // RACE
    else
        atomicAdd_system(count, 1); // RACE
}

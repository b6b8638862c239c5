//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Each block counts into its own global word with atomicAdd_block, and into a shared total with device- and system-scoped atomics.
__global__ void mixed_scopes(int *count) {
    atomicAdd_block(&count[1 + blockIdx.x], 1);
    if (blockIdx.x == 0)
        atomicAdd(count, 1);
    else
        atomicAdd_system(count, 1);
}

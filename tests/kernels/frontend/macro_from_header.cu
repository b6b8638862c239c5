//pass
//--blockDim=[128,1,1] --gridDim=[1,1,1] -DN=128
// A macro defined only on the header line (-DN=128) sizes a shared array and appears in a __requires.
#ifndef N
#error "N must be defined by the -D on line 2"
#endif

__global__ void reverse_block(int *data) {
    __requires(blockDim.x == N);
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    data[t] = s[N - 1 - t];
}

// instrument: --all
// A template kernel keeps its template header on both functions and forwards its template
// arguments; explicit instantiations get the runtime parameter too; an early return leaves
// __gmrace_body_<k> so __gmrace_exit still runs.
template <int BS, typename T>
__global__ void __launch_bounds__(BS) scale(T *data, T factor, int n) {
    __shared__ T tile[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    if (g >= n)
        return;
    tile[t] = data[g];
    __syncwarp();
    data[g] = tile[t] * factor;
}

template __global__ void scale<64, float>(float *, float, int);
template __global__ void scale<32, int>(int *, int, int);

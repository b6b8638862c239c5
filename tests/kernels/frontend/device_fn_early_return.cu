//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// __device__ helper with an early return inside a loop (linear search), and a helper returning from a nested branch.
#define ROW 16

__device__ int find_first(const int *row, int len, int key) {
    for (int i = 0; i < len; ++i) {
        if (row[i] == key)
            return i;
    }
    return -1;
}

__device__ int sign_of(int v) {
    if (v >= 0) {
        if (v == 0)
            return 0;
        return 1;
    }
    return -1;
}

__global__ void search_rows(const int *table, const int *keys, int *pos) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int p = find_first(table + r * ROW, ROW, keys[r]);
    pos[r] = p * sign_of(keys[r]);
}

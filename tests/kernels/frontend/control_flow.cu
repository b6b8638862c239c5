//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// if / else-if / else chains, nested ternaries, and && / || whose right operand loads memory only when needed.
__global__ void classify(const int *flags, const float *vals, const int *seg, int *cls, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int c;
        if (flags[i] == 0)
            c = 0;
        else if (flags[i] == 1 && vals[i] > 0.0f)
            c = 1;
        else
            c = 2;
        bool rising = i + 1 < n && vals[i + 1] > vals[i];
        bool head = i == 0 || seg[i - 1] != seg[i];
        int level = vals[i] > 10.0f ? 3 : vals[i] > 1.0f ? 2 : vals[i] > 0.0f ? 1 : 0;
        cls[i] = c * 16 + level * 4 + (rising ? 2 : 0) + (head ? 1 : 0);
    } else {
        return;
    }
}

// instrument: --all
// Shared reads in conditions, loop headers, ternaries and short-circuit operands: each is
// wrapped where it is written, so C's evaluation order and short circuits are unchanged.
__global__ void conditions(int *out, int n) {
    __shared__ int s[256];
    __shared__ int flag;
    int t = threadIdx.x;
    s[t] = t;
    if (t == 0)
        flag = n;
    __syncthreads();
    int acc = 0;
    if (s[t] > 3 && s[(t + 1) % 256] < 100)
        acc += 1;
    if (flag == 0 || s[255 - t] == 7)
        acc += 2;
    for (int i = s[0]; i < s[1] + 4; i += s[1] + 1)
        acc += i;
    int j = 0;
    while (s[j] < 3 && j < 255)
        j++;
    do {
        acc++;
    } while (acc < s[2]);
    acc += s[t] > 8 ? s[t - 1] : s[t + 1];
    out[blockIdx.x * blockDim.x + t] = acc + j;
}

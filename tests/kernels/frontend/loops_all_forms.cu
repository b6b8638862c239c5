//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Loop forms: for with continue/break, while with a short-circuit condition, do-while, nested loops with break.
#define W 16

__global__ void row_features(const int *in, int *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int *row = in + g * W;
    int sum = 0;
    for (int i = 0; i < W; i++) {
        if (row[i] < 0)
            continue;
        if (row[i] > 1000)
            break;
        sum += row[i];
    }
    int j = 0;
    while (j < W && row[j] != 0)
        j++;
    int bits = 0, v = row[0];
    do {
        v >>= 1;
        bits++;
    } while (v > 0 && bits < 32);
    int dups = 0;
    for (int a = 0; a < W; ++a) {
        for (int b = a + 1; b < W; ++b) {
            if (row[a] == row[b]) {
                dups++;
                break;
            }
        }
    }
    out[4 * g + 0] = sum;
    out[4 * g + 1] = j;
    out[4 * g + 2] = bits;
    out[4 * g + 3] = dups;
}

// co-cluster: one step of minimum sum-squared-residue co-clustering (after GMRace's evaluation).
// Block b handles a tile of ROWS rows by THREADS columns of the data matrix; thread t owns
// column t. For every row, the thread adds the entry to the running sum of the (row cluster,
// column) pair, kept in shared memory as acc[t * K + label]: thread t owns K consecutive slots.
// The kernel assumes every label of the row-cluster matrix lies in [0, K). A label of K or more
// reaches into the slots of thread t + 1 (wrapping at the end of the array), which is updating
// its own sums at the same time: a race, through an index that comes from the data.
#define THREADS 64
#define K 4
#define ROWS 8

__global__ void cocluster(const float *data, const int *rowcl, float *sums) {
    __shared__ float acc[THREADS * K];
    unsigned t = threadIdx.x;
    for (unsigned c = 0; c < K; c++)
        acc[t * K + c] = 0.0f;
    __syncthreads();
    for (unsigned i = 0; i < ROWS; i++) {
        unsigned row = blockIdx.x * ROWS + i;
        int label = rowcl[row];
        acc[(t * K + label) % (THREADS * K)] += data[row * THREADS + t];
    }
    __syncthreads();
    // Column sums of each row cluster over the tile: thread c < K adds up slot c of every column.
    if (t < K) {
        float s = 0.0f;
        for (unsigned j = 0; j < THREADS; j++)
            s += acc[j * K + t];
        sums[blockIdx.x * K + t] = s;
    }
}

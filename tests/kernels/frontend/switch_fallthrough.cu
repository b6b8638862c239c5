//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// switch with fallthrough, grouped case labels, a scoped case body and default, plus a switch on the lane.
__global__ void interpret(const int *ops, const float *a, float *r) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    float y = 0.0f;
    switch (ops[i] & 7) {
    case 0:
        y = x;
        break;
    case 1:
        y += 1.0f;
        // fall through
    case 2:
        y += x;
        break;
    case 3:
    case 4:
        y = -x;
        break;
    case 5: {
        float t = x * x;
        y = t;
        break;
    }
    default:
        y = 0.5f * x;
    }
    switch (threadIdx.x % 4) {
    case 0:
        y *= 2.0f;
    default:
        y += 1.0f;
    }
    r[i] = y;
}

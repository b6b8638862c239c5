// Writes gmrace once did not see, each making a racy kernel look race-free:
// - a call to a device function defined in another file (linked with -rdc): what it touches is
//   not known, so no access beside it in its barrier interval is proved safe;
// - a reference returned through a typedef (`typename ref_of<T>::type`, as Thrust's
//   raw_reference_cast) bound to a `const T &` parameter and written through a const_cast (as
//   Thrust's generate functor): the write goes to the caller's element, not to a copy.
#define BLOCK 64

__device__ void fill_from(int *tile, int i); // in another translation unit

__global__ void external_call(int *out) {
  __shared__ int tile[BLOCK];
  fill_from(tile, threadIdx.x);
  out[blockIdx.x * BLOCK + threadIdx.x] = tile[(threadIdx.x + 1) % BLOCK];
}

__global__ void external_call_synced(int *out) {
  __shared__ int tile[BLOCK];
  fill_from(tile, threadIdx.x);
  __syncthreads();
  out[blockIdx.x * BLOCK + threadIdx.x] = tile[(threadIdx.x + 1) % BLOCK];
}

template <class T> struct ref_of {
  typedef T &type;
};
template <class T> __device__ typename ref_of<T>::type as_ref(T &x) { return x; }

struct set_seven {
  template <class T> __device__ void operator()(const T &x) const {
    T &lvalue = const_cast<T &>(x);
    lvalue = 7; // RACE
  }
};

__global__ void const_cast_write(int *out) {
  __shared__ int tile[BLOCK];
  set_seven()(as_ref(tile[(threadIdx.x + 1) % BLOCK]));
  out[blockIdx.x * BLOCK + threadIdx.x] = tile[threadIdx.x]; // RACE
}

int main() {
  int *d;
  external_call<<<2, BLOCK>>>(d);
  external_call_synced<<<2, BLOCK>>>(d);
  const_cast_write<<<2, BLOCK>>>(d);
}

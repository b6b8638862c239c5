// Postfix increments of a member (`q->n++`, `s.n++`): the operator follows the member's name,
// not the expression's start. Every thread of the block pushes into one shared queue, so the
// counter is read and written by all of them: a race; the thread-local stack is not shared.
#define BLOCK 64

struct Queue {
  int n;
  int items[BLOCK];
};

__device__ void push(Queue *q, int v) { q->items[q->n++] = v; } // RACE

__global__ void shared_queue(int *out) {
  __shared__ Queue q;
  if (threadIdx.x == 0) q.n = 0;
  __syncthreads();
  push(&q, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = q.n;
}

__global__ void local_stack(int *out) {
  Queue s;
  s.n = 0;
  push(&s, threadIdx.x);
  s.items[s.n++] = 2 * threadIdx.x;
  out[blockIdx.x * BLOCK + threadIdx.x] = s.items[1] + s.n;
}

int main() {
  int *d;
  shared_queue<<<4, BLOCK>>>(d);
  local_stack<<<4, BLOCK>>>(d);
}

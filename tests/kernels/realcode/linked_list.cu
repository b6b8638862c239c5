// Types that refer to themselves, directly and through each other: read once, never
// recursed into without end.
struct Edge;
struct Vertex {
  int value;
  Edge *first;
};
struct Edge {
  Vertex *to;
  Edge *next;
};
struct Node {
  int value;
  Node *next;
};

__global__ void sumNeighbours(Vertex *vs, int *out) {
  Vertex *v = &vs[threadIdx.x];
  int s = 0;
  for (Edge *e = v->first; e != nullptr; e = e->next)
    s += e->to->value;
  out[threadIdx.x] = s;
}

__global__ void secondValue(Node *lists, int *out) {
  out[threadIdx.x] = lists[threadIdx.x].next->next->value;
}

/*
 * gmrace device runtime: GMRace's dynamic race checkers for shared memory (Zheng et al., TPDS
 * 2014), included by every file `gmrace instrument` writes. The contract with the instrumenter:
 * the kernel calls __gmrace_enter(rt) first and __gmrace_exit() wherever it ends (`return`
 * included); each recorded access goes through __gmrace_at(&lvalue, size, site, kind, flags),
 * which returns its pointer; each shared variable's place in the block's shared window is
 * reported by __gmrace_shared(&var, sizeof var, index) (0 for the size of an `extern` one);
 * block barriers are __gmrace_syncthreads*; the instrumented file
 * defines GMRACE_MODE_FLAG or GMRACE_MODE_STMT, GMRACE_GRANULE and, for a device-memory
 * warpTable, GMRACE_WARP_TABLE_GLOBAL before including this header (instrumenter/src/lib.rs).
 * These are the API boundary with the rewrite. The instrumenter embeds this header as
 * RUNTIME_HEADER. The buffer layout is computed and decoded on the host by
 * runtime-cuda/src/race_log.rs, and the word indices below must match it (tests/runtime.rs
 * checks that they agree).
 *
 * Model checked: GMRace's lock-step warp model. Two lanes of a warp race when one statement
 * execution makes them write overlapping bytes (intra-warp, checked in the warpTable right after
 * the access); two warps race when they make conflicting accesses (overlapping bytes, one
 * writes, not both atomic, or an atomic and a plain read) between the same two block barriers
 * (inter-warp, checked at each barrier and at the end by the BlockStmtTable or by the bitmaps).
 *
 * Nothing here assumes that a warp runs in lock step: the lanes that record one statement are
 * the ones `__activemask()` names, and `__syncwarp(mask)` orders their warpTable writes and
 * reads. The inter-warp check only runs where every non-exited thread of the block is
 * (a barrier of the original program, or the last thread to finish).
 *
 * Intra-warp: only lanes of a writing __gmrace_at check (reads and atomics skip it), among the
 * lanes `__activemask()` names, never with a block barrier. When the lanes' offsets are
 * congruent modulo the access size, one `__match_any_sync` decides; otherwise each lane
 * publishes its offset in the warpTable (`__shared__`, or the block slot's words with
 * GMRACE_WARP_TABLE_GLOBAL), ordered by `__syncwarp(mask)`, and scans the higher lanes'.
 * Inter-warp: at each runtime barrier, the program's barrier, then
 * `__syncthreads_or(anything recorded)`, so that an interval with nothing recorded costs one
 * more barrier only; else the check by all threads, a barrier, the reset, a barrier. In
 * __gmrace_exit the last thread to finish (atomic counter) checks the last interval alone, so
 * threads that return early never wait.
 *
 * `stmt` mode: BlockStmtTable rows (warp | kind, site id, recording lanes, byte bounds, 32 lane
 * ranges), claimed by one atomicAdd per warp; Algorithm 1 deals the rows that do more than read
 * out to threads, each paired with every read row and the other such rows after it (so
 * read-read pairs are never visited), skipping row pairs of one warp, of non-conflicting kinds
 * or with disjoint bounds. `flag` mode: per warp a read, a write and an atomic bitmap
 * (GMRACE_GRANULE bytes a bit); the slot's used word holds the warps that recorded, and
 * Algorithm 2 extended for atomics scans and resets only their bitmaps, 32 granules at a time
 * with bit operations (write/any, read/atomic), then for each racy granule builds the reading,
 * writing and atomic warp sets, logs the first racing warp pair and adds every racing pair to
 * R-Wp's table.
 *
 * A block claims a slot of the buffer at entry (atomicCAS on its owner word, the next slot if
 * taken, so more resident blocks than slots only wait) and frees it after the final check.
 * Race records (8 words) go to the log through an atomic counter that keeps counting past the
 * capacity. R-Stmt (racing pairs of statement executions), R-Mem (racy lane pairs in `stmt`,
 * racy granules in `flag`, per interval), R-Thd (racing thread pairs) and R-Wp (distinct pairs
 * of warps that raced, both modes) are separate counters; a full BlockStmtTable sets an
 * overflow bit. R-Wp is deduplicated on the device (per slot a word per warp x holds the warps
 * above it that x raced with, set with atomicOr; only newly set bits count; the table is
 * cleared when the block frees its slot): deduplicating on the host from the log would fail
 * exactly when the log overflows, and `flag` logs one warp pair per granule, not all of them.
 *
 * The shared-layout table: __gmrace_shared writes `__cvta_generic_to_shared(&var) + 1` and the
 * size into entry `index` (header words GMRACE_H_SHARED_N/_AT), from block 0 only: every block
 * has the same layout, and on the CPU device a word written by two blocks would force the
 * in-order re-run. Only checked kernels report. `flag` mode records no bit beyond the bitmaps
 * (the host sized them from the shared memory the device says the launch has): it sets the
 * window-overflow bit instead, so an unforeseen GPU layout makes the run incomplete, never
 * corrupts the buffer.
 *
 * Written in the CUDA subset gmrace's front end lowers (no opaque node), so the CPU device runs
 * it like any other code; it also compiles to PTX with DESIGN.md's clang command.
 */
#ifndef GMRACE_RUNTIME_CUH
#define GMRACE_RUNTIME_CUH

#include "cuda_runtime.h"

#define GMRACE_READ 0u
#define GMRACE_WRITE 1u
#define GMRACE_ATOMIC 2u
#define GMRACE_UPDATE 3u
#define GMRACE_THREAD_INVARIANT 1u
#define GMRACE_LOOP_INVARIANT 2u

#ifndef GMRACE_GRANULE
#define GMRACE_GRANULE 4
#endif

/* Header words (written by the host, counters by the device). */
#define GMRACE_H_MAGIC 0u
#define GMRACE_H_LOG_CAP 1u
#define GMRACE_H_LOG_COUNT 2u
#define GMRACE_H_R_STMT 3u
#define GMRACE_H_R_MEM 4u
#define GMRACE_H_R_THD 5u
#define GMRACE_H_R_WP 6u
#define GMRACE_H_OVERFLOW 7u
#define GMRACE_H_NSLOTS 8u
#define GMRACE_H_SLOT_WORDS 9u
#define GMRACE_H_SLOTS_AT 10u
#define GMRACE_H_LOG_AT 11u
#define GMRACE_H_ROWS 12u
#define GMRACE_H_MAP_WORDS 13u
#define GMRACE_H_CHECKS 14u /* executed checks, with GMRACE_COUNT_CHECKS (benchmarks) */
#define GMRACE_H_SHARED_N 15u  /* entries of the shared-layout table */
#define GMRACE_H_SHARED_AT 16u /* its first word: per entry, window offset + 1 and size */

/* GMRACE_H_OVERFLOW bits: some accesses went unchecked. */
#define GMRACE_OVERFLOW_ROWS 1u   /* a BlockStmtTable was full */
#define GMRACE_OVERFLOW_WINDOW 2u /* an offset beyond the shared memory the bitmaps cover */

/* Words of a block slot: a block claims one slot for its lifetime. */
#define GMRACE_S_OWNER 0u
#define GMRACE_S_FINISHED 1u
#define GMRACE_S_USED 2u /* stmt: rows claimed; flag: the warps that recorded, a bit each */
#define GMRACE_S_WARP_TABLE 8u
/* R-Wp: per warp x, the warps y > x it raced with in this block (a bit each), so that a warp
 * pair counts once however many granules, statements and intervals it races in. */
#define GMRACE_S_PAIRS (8u + 1024u)
#define GMRACE_S_TABLE (8u + 1056u)

/* A BlockStmtTable row: warp | kind << 16, access id, recording lanes, lowest byte, end byte,
 * then per lane its byte offset | size << 24. */
#define GMRACE_ROW_WORDS 37u
#define GMRACE_ROW_LANES 5u

/* A race record. */
#define GMRACE_REC_WORDS 8u
#define GMRACE_SCOPE_INTRA 1u
#define GMRACE_SCOPE_INTER 2u
#define GMRACE_NO_THREAD 0xffffu

__shared__ unsigned int *__gmrace_rt_s;
__shared__ unsigned int *__gmrace_slot_s;
#ifndef GMRACE_WARP_TABLE_GLOBAL
__shared__ unsigned int __gmrace_warp_table[1024];
#endif

__device__ static unsigned int __gmrace_tid(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ static unsigned int __gmrace_nthreads(void) {
  return blockDim.x * blockDim.y * blockDim.z;
}

__device__ static unsigned int *__gmrace_wt(void) {
#ifdef GMRACE_WARP_TABLE_GLOBAL
  return __gmrace_slot_s + GMRACE_S_WARP_TABLE;
#else
  return __gmrace_warp_table;
#endif
}

/* Both kinds of access conflict: bytes aside, one writes, or an atomic meets a plain read. */
__device__ static int __gmrace_kinds_conflict(unsigned int a, unsigned int b) {
  if (a == GMRACE_ATOMIC && b == GMRACE_ATOMIC)
    return 0;
  return a != GMRACE_READ || b != GMRACE_READ;
}

/* Appends a race record; the counters go on when the log is full. */
__device__ static void __gmrace_log(unsigned int scope, unsigned int kinds, unsigned int first,
                                    unsigned int second, unsigned int threads,
                                    unsigned int offset, unsigned int len) {
  unsigned int *rt = __gmrace_rt_s;
  unsigned int i = atomicAdd(rt + GMRACE_H_LOG_COUNT, 1u);
  if (i < rt[GMRACE_H_LOG_CAP]) {
    unsigned int *r = rt + rt[GMRACE_H_LOG_AT] + i * GMRACE_REC_WORDS;
    r[0] = scope | (kinds << 8);
    r[1] = blockIdx.x;
    r[2] = blockIdx.y | (blockIdx.z << 16);
    r[3] = first;
    r[4] = second;
    r[5] = threads;
    r[6] = offset;
    r[7] = len;
  }
}

/* The shared-memory layout the kernel runs under, reported by the program itself: the host
 * names a racy window offset by this table, because on a GPU ptxas, not gmrace, places the
 * shared variables. The instrumented code calls it for each shared variable: at kernel entry
 * for one declared at namespace scope, right after its declaration for one declared in a
 * function. The layout is the same in every block, so block 0 writes it (its threads that pass
 * the declaration, all with the same values); no other block touches these words. `size` is 0
 * for `extern __shared__` (the host knows the launch's dynamic size). */
__device__ void __gmrace_shared(const volatile void *p, unsigned int size, unsigned int index) {
  if ((blockIdx.x | blockIdx.y | blockIdx.z) != 0u)
    return;
  unsigned int *rt = __gmrace_rt_s;
  if (index < rt[GMRACE_H_SHARED_N]) {
    unsigned int *e = rt + rt[GMRACE_H_SHARED_AT] + 2u * index;
    e[0] = (unsigned int)__cvta_generic_to_shared((const void *)p) + 1u;
    e[1] = size;
  }
}

__device__ static void __gmrace_count(unsigned int word, unsigned int n) {
  atomicAdd(__gmrace_rt_s + word, n);
}

__device__ void __gmrace_enter(unsigned int *rt) {
  if (__gmrace_tid() == 0u) {
    unsigned int nslots = rt[GMRACE_H_NSLOTS];
    unsigned int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned int s = b % nslots;
    /* On a GPU more blocks may be resident than there are slots: take the next free one. */
    while (atomicCAS(rt + rt[GMRACE_H_SLOTS_AT] + s * rt[GMRACE_H_SLOT_WORDS] + GMRACE_S_OWNER,
                     0u, 1u) != 0u)
      s = (s + 1u) % nslots;
    __gmrace_rt_s = rt;
    __gmrace_slot_s = rt + rt[GMRACE_H_SLOTS_AT] + s * rt[GMRACE_H_SLOT_WORDS];
  }
  __syncthreads();
}

/* Logs the intra-warp race of this lane (`tid`) with lane `j` of its warp, whose `size` bytes
 * start at `o`. */
__device__ static void __gmrace_log_intra(unsigned int tid, unsigned int j, unsigned int off,
                                          unsigned int o, unsigned int size, unsigned int id,
                                          unsigned int kind) {
  unsigned int lo = off > o ? off : o;
  unsigned int hi = (off < o ? off : o) + size;
  __gmrace_log(GMRACE_SCOPE_INTRA, kind | (kind << 4), id, id, tid | (((tid & ~31u) + j) << 16),
               lo, hi - lo);
}

/* The intra-warp check through the warpTable, for lanes whose offsets `__match_any_sync`
 * cannot compare: each lane publishes its offset, then compares its range with those of the
 * higher lanes and logs each overlap. Returns how many it found. */
__device__ static unsigned int __gmrace_intra_scan(unsigned int mask, unsigned int tid,
                                                   unsigned int off, unsigned int size,
                                                   unsigned int id, unsigned int kind) {
  unsigned int lane = tid & 31u;
  unsigned int *wt = __gmrace_wt() + (tid & ~31u);
  wt[lane] = off;
  __syncwarp(mask);
  unsigned int higher = mask & ~((2u << lane) - 1u);
  unsigned int pairs = 0u;
  while (higher != 0u) {
    unsigned int j = __ffs(higher) - 1u;
    higher &= higher - 1u;
    unsigned int o = wt[j];
    if (off < o + size && o < off + size) {
      __gmrace_log_intra(tid, j, off, o, size, id, kind);
      pairs++;
    }
  }
  /* No lane publishes its next offset before every lane has read this one. */
  __syncwarp(mask);
  return pairs;
}

/* Intra-warp check of a writing statement: two of its lanes race when their bytes overlap.
 * Every lane accesses `size` bytes (one expression); when all offsets are congruent modulo
 * `size` (always, but for a struct viewed at a shifted address), two ranges overlap exactly
 * when they start at the same byte, and `__match_any_sync` names those lanes in one step.
 * Whether they are congruent is the same answer in every lane, so the warp stays together.
 * Each racing lane pair is logged once, by its lower lane. */
__device__ static void __gmrace_intra(unsigned int mask, unsigned int tid, unsigned int off,
                                      unsigned int size, unsigned int id, unsigned int kind) {
  unsigned int lane = tid & 31u;
  unsigned int pairs;
  if (__match_any_sync(mask, off % size) == mask) {
    unsigned int higher = __match_any_sync(mask, off) & ~((2u << lane) - 1u);
    pairs = __popc(higher);
    while (higher != 0u) {
      __gmrace_log_intra(tid, __ffs(higher) - 1u, off, off, size, id, kind);
      higher &= higher - 1u;
    }
  } else {
    pairs = __gmrace_intra_scan(mask, tid, off, size, id, kind);
  }
  if (pairs != 0u) {
    __gmrace_count(GMRACE_H_R_THD, pairs);
    __gmrace_count(GMRACE_H_R_MEM, pairs);
  }
  /* One racing statement execution, however many lane pairs. */
  if (__ballot_sync(mask, pairs != 0u) != 0u && lane == __ffs(mask) - 1u)
    __gmrace_count(GMRACE_H_R_STMT, 1u);
}

/* Records that warp `x` raced with the warps `with` (all above `x`) and returns how many of
 * those pairs are new in this block: R-Wp counts distinct warp pairs. */
__device__ static unsigned int __gmrace_new_pairs(unsigned int x, unsigned int with) {
  unsigned int old = atomicOr(__gmrace_slot_s + GMRACE_S_PAIRS + x, with);
  return __popc(with & ~old);
}

#if defined(GMRACE_MODE_STMT)

/* BlockStmtTable: one row per warp per executed statement, claimed with one atomicAdd. A
 * thread-invariant address is recorded by one lane. */
__device__ static void __gmrace_record(unsigned int mask, unsigned int tid, unsigned int off,
                                       unsigned int size, unsigned int id, unsigned int kind,
                                       unsigned int flags) {
  unsigned int *slot = __gmrace_slot_s;
  unsigned int lane = tid & 31u;
  unsigned int leader = __ffs(mask) - 1u;
  unsigned int rec = (flags & GMRACE_THREAD_INVARIANT) != 0u ? (1u << leader) : mask;
  unsigned int row = 0u;
  if (lane == leader)
    row = atomicAdd(slot + GMRACE_S_USED, 1u);
  row = __shfl_sync(mask, row, leader);
  if (row < __gmrace_rt_s[GMRACE_H_ROWS]) {
    unsigned int *r = slot + GMRACE_S_TABLE + row * GMRACE_ROW_WORDS;
    if (lane == leader) {
      r[0] = (tid >> 5) | (kind << 16);
      r[1] = id;
      r[2] = rec;
    }
    if ((rec >> lane) & 1u)
      r[GMRACE_ROW_LANES + lane] = off | (size << 24);
  } else if (lane == leader) {
    atomicOr(__gmrace_rt_s + GMRACE_H_OVERFLOW, GMRACE_OVERFLOW_ROWS);
  }
}

/* Algorithm 1, first pass: each row's byte bounds, so that most row pairs are skipped. */
__device__ static void __gmrace_bounds(unsigned int me, unsigned int stride) {
  unsigned int *slot = __gmrace_slot_s;
  unsigned int n = slot[GMRACE_S_USED];
  unsigned int cap = __gmrace_rt_s[GMRACE_H_ROWS];
  if (n > cap)
    n = cap;
  for (unsigned int i = me; i < n; i += stride) {
    unsigned int *r = slot + GMRACE_S_TABLE + i * GMRACE_ROW_WORDS;
    unsigned int m = r[2];
    unsigned int lo = 0xffffffffu;
    unsigned int hi = 0u;
    while (m != 0u) {
      unsigned int l = __ffs(m) - 1u;
      m &= m - 1u;
      unsigned int e = r[GMRACE_ROW_LANES + l];
      unsigned int o = e & 0xffffffu;
      unsigned int end = o + (e >> 24);
      lo = o < lo ? o : lo;
      hi = end > hi ? end : hi;
    }
    r[3] = lo;
    r[4] = hi;
  }
}

/* Two rows `a` before `b` in the table: unless they are of one warp, of kinds that do not
 * conflict or of disjoint bytes, every lane pair with overlapping bytes is a race. */
__device__ static void __gmrace_row_pair(unsigned int *a, unsigned int *b) {
  unsigned int wa = a[0] & 0xffffu;
  unsigned int ka = a[0] >> 16;
  unsigned int wb = b[0] & 0xffffu;
  unsigned int kb = b[0] >> 16;
  if (wa == wb || !__gmrace_kinds_conflict(ka, kb) || a[3] >= b[4] || b[3] >= a[4])
    return;
  unsigned int pairs = 0u;
  unsigned int ma = a[2];
  while (ma != 0u) {
    unsigned int la = __ffs(ma) - 1u;
    ma &= ma - 1u;
    unsigned int ea = a[GMRACE_ROW_LANES + la];
    unsigned int oa = ea & 0xffffffu;
    unsigned int enda = oa + (ea >> 24);
    unsigned int mb = b[2];
    while (mb != 0u) {
      unsigned int lb = __ffs(mb) - 1u;
      mb &= mb - 1u;
      unsigned int eb = b[GMRACE_ROW_LANES + lb];
      unsigned int ob = eb & 0xffffffu;
      unsigned int endb = ob + (eb >> 24);
      if (oa < endb && ob < enda) {
        unsigned int lo = oa > ob ? oa : ob;
        unsigned int hi = enda < endb ? enda : endb;
        __gmrace_log(GMRACE_SCOPE_INTER, ka | (kb << 4), a[1], b[1],
                     (wa * 32u + la) | ((wb * 32u + lb) << 16), lo, hi - lo);
        pairs++;
      }
    }
  }
  if (pairs != 0u) {
    __gmrace_count(GMRACE_H_R_STMT, 1u);
    __gmrace_count(GMRACE_H_R_THD, pairs);
    __gmrace_count(GMRACE_H_R_MEM, pairs);
    unsigned int x = wa < wb ? wa : wb;
    if (__gmrace_new_pairs(x, 1u << (wa ^ wb ^ x)) != 0u)
      __gmrace_count(GMRACE_H_R_WP, 1u);
  }
}

/* Algorithm 1, second pass, over the row pairs that can race. Two reads never do, so each
 * pair is checked from a row that does more than read (dealt out to the checking threads):
 * with every read row, and with the other such rows after it. A read row costs next to
 * nothing, and a read-mostly table takes time in proportion to (other rows x rows) rather
 * than to rows squared. A pair is checked in table order, as the log shows it. */
__device__ static void __gmrace_pairs(unsigned int me, unsigned int stride) {
  unsigned int *slot = __gmrace_slot_s;
  unsigned int n = slot[GMRACE_S_USED];
  unsigned int cap = __gmrace_rt_s[GMRACE_H_ROWS];
  if (n > cap)
    n = cap;
  unsigned int *rows = slot + GMRACE_S_TABLE;
  for (unsigned int i = me; i < n; i += stride) {
    unsigned int *c = rows + i * GMRACE_ROW_WORDS;
    if ((c[0] >> 16) == GMRACE_READ)
      continue;
    for (unsigned int j = 0u; j < n; j++) {
      unsigned int *d = rows + j * GMRACE_ROW_WORDS;
      if (j > i)
        __gmrace_row_pair(c, d);
      else if (j < i && (d[0] >> 16) == GMRACE_READ)
        __gmrace_row_pair(d, c);
    }
  }
}

#else /* flag mode */

/* Per warp: read, write and atomic bitmaps of `nmap` words, one bit per granule. The bitmap
 * index is the access kind, but an update sets only its write bit: whatever its read
 * conflicts with (a write or an atomic of another warp), its write conflicts with too. A
 * thread-invariant address is recorded by one lane. */
__device__ static void __gmrace_record(unsigned int mask, unsigned int tid, unsigned int off,
                                       unsigned int size, unsigned int id, unsigned int kind,
                                       unsigned int flags) {
  unsigned int *slot = __gmrace_slot_s;
  unsigned int lane = tid & 31u;
  unsigned int leader = __ffs(mask) - 1u;
  if (lane == leader)
    atomicOr(slot + GMRACE_S_USED, 1u << (tid >> 5));
  if ((flags & GMRACE_THREAD_INVARIANT) != 0u && lane != leader)
    return;
  unsigned int nmap = __gmrace_rt_s[GMRACE_H_MAP_WORDS];
  unsigned int map = (tid >> 5) * 3u + (kind == GMRACE_UPDATE ? GMRACE_WRITE : kind);
  unsigned int *bits = slot + GMRACE_S_TABLE + map * nmap;
  unsigned int g = off / GMRACE_GRANULE;
  unsigned int last = (off + size - 1u) / GMRACE_GRANULE;
  /* The host sized the bitmaps from the shared memory the launch has; bytes beyond them (a
   * layout it did not foresee) are not checked, and the run says so. */
  if (last >= nmap * 32u) {
    atomicOr(__gmrace_rt_s + GMRACE_H_OVERFLOW, GMRACE_OVERFLOW_WINDOW);
    return;
  }
  do
    atomicOr(bits + (g >> 5), 1u << (g & 31u));
  while (++g <= last);
}

/* A racing granule (`bit` of bitmap word `w`): logged with its first racing warp pair; every
 * racing pair goes to R-Wp's table. `used`: the warps that recorded. */
__device__ static void __gmrace_racy_granule(unsigned int *maps, unsigned int nmap,
                                             unsigned int used, unsigned int w,
                                             unsigned int bit) {
  /* The warps (a bit each) that read, write and atomically update the granule. */
  unsigned int rd = 0u;
  unsigned int wr = 0u;
  unsigned int at = 0u;
  for (unsigned int left = used; left != 0u; left &= left - 1u) {
    unsigned int k = __ffs(left) - 1u;
    unsigned int *m = maps + k * 3u * nmap + w;
    rd |= ((m[0] >> bit) & 1u) << k;
    wr |= ((m[nmap] >> bit) & 1u) << k;
    at |= ((m[2u * nmap] >> bit) & 1u) << k;
  }
  unsigned int first = 0u;
  unsigned int second = 0u;
  unsigned int found = 0u;
  unsigned int fresh = 0u;
  for (unsigned int left = rd | wr | at; left != 0u; left &= left - 1u) {
    unsigned int x = __ffs(left) - 1u;
    unsigned int bx = 1u << x;
    /* The warps above x that conflict with it: a write conflicts with every access, an
     * atomic with reads and writes, a read with writes and atomics. */
    unsigned int with = ((wr & bx) != 0u ? (rd | wr | at) : 0u) |
                        ((at & bx) != 0u ? (rd | wr) : 0u) | ((rd & bx) != 0u ? (wr | at) : 0u);
    with &= ~((2u << x) - 1u);
    if (with == 0u)
      continue;
    if (found == 0u) {
      first = x;
      second = __ffs(with) - 1u;
      found = 1u;
    }
    fresh += __gmrace_new_pairs(x, with);
  }
  __gmrace_log(GMRACE_SCOPE_INTER, 0u, first, second, GMRACE_NO_THREAD | (GMRACE_NO_THREAD << 16),
               (w * 32u + bit) * GMRACE_GRANULE, GMRACE_GRANULE);
  if (fresh != 0u)
    __gmrace_count(GMRACE_H_R_WP, fresh);
}

/* Algorithm 2 extended for atomics, 32 granules at a time over the warps that recorded: a
 * granule races when a warp writes it and another warp reads, writes or atomically updates
 * it, or when a warp updates it atomically and another reads it. */
__device__ static void __gmrace_pairs(unsigned int me, unsigned int stride) {
  unsigned int *slot = __gmrace_slot_s;
  unsigned int used = slot[GMRACE_S_USED];
  if (used == 0u)
    return;
  unsigned int nmap = __gmrace_rt_s[GMRACE_H_MAP_WORDS];
  unsigned int *maps = slot + GMRACE_S_TABLE;
  for (unsigned int w = me; w < nmap; w += stride) {
    unsigned int seen_w = 0u;
    unsigned int seen_r = 0u;
    unsigned int seen_a = 0u;
    unsigned int race = 0u;
    for (unsigned int left = used; left != 0u; left &= left - 1u) {
      unsigned int *m = maps + (__ffs(left) - 1u) * 3u * nmap + w;
      unsigned int r = m[0];
      unsigned int wr = m[nmap];
      unsigned int at = m[2u * nmap];
      race |= (wr & (seen_w | seen_r | seen_a)) | ((r | at) & seen_w) | (at & seen_r) |
              (r & seen_a);
      seen_w |= wr;
      seen_r |= r;
      seen_a |= at;
    }
    if (race != 0u) {
      for (unsigned int racy = race; racy != 0u; racy &= racy - 1u)
        __gmrace_racy_granule(maps, nmap, used, w, __ffs(racy) - 1u);
      __gmrace_count(GMRACE_H_R_MEM, __popc(race));
    }
    if ((seen_w | seen_r | seen_a) != 0u) {
      for (unsigned int left = used; left != 0u; left &= left - 1u) {
        unsigned int *m = maps + (__ffs(left) - 1u) * 3u * nmap + w;
        m[0] = 0u;
        m[nmap] = 0u;
        m[2u * nmap] = 0u;
      }
    }
  }
}

#endif

/* Records one access: the intra-warp check, then the inter-warp table. */
__device__ void *__gmrace_at(const volatile void *p, unsigned int size, unsigned int access_id,
                             unsigned int kind, unsigned int flags) {
  unsigned int mask = __activemask();
  unsigned int tid = __gmrace_tid();
  unsigned int off = (unsigned int)__cvta_generic_to_shared((const void *)p);
#ifdef GMRACE_COUNT_CHECKS
  if ((tid & 31u) == __ffs(mask) - 1u)
    atomicAdd(__gmrace_rt_s + GMRACE_H_CHECKS, 1u);
#endif
  /* Two lanes of one statement race only when both write: only a writing statement checks. */
  if (kind == GMRACE_WRITE || kind == GMRACE_UPDATE)
    __gmrace_intra(mask, tid, off, size, access_id, kind);
  __gmrace_record(mask, tid, off, size, access_id, kind, flags);
  return (void *)p;
}

/* The inter-warp check by every thread of the block, right after a barrier of the program,
 * then the tables are empty again. Between that barrier and the next one nobody records, so
 * the block agrees on whether anything was recorded and skips the rest together if not. */
__device__ static void __gmrace_barrier_check(void) {
#if defined(GMRACE_MODE_STMT)
  /* The rows' bounds first: the barrier below orders them before the pair checks. */
  __gmrace_bounds(__gmrace_tid(), __gmrace_nthreads());
#endif
  if (!__syncthreads_or(__gmrace_slot_s[GMRACE_S_USED] != 0u))
    return;
  unsigned int tid = __gmrace_tid();
  __gmrace_pairs(tid, __gmrace_nthreads());
  __syncthreads();
  if (tid == 0u)
    __gmrace_slot_s[GMRACE_S_USED] = 0u;
  __syncthreads();
}

__device__ void __gmrace_syncthreads(void) {
  __syncthreads();
  __gmrace_barrier_check();
}

__device__ int __gmrace_syncthreads_count(int pred) {
  int r = __syncthreads_count(pred);
  __gmrace_barrier_check();
  return r;
}

__device__ int __gmrace_syncthreads_and(int pred) {
  int r = __syncthreads_and(pred);
  __gmrace_barrier_check();
  return r;
}

__device__ int __gmrace_syncthreads_or(int pred) {
  int r = __syncthreads_or(pred);
  __gmrace_barrier_check();
  return r;
}

/* The final check: threads may return early, so none waits for the others; the last thread of
 * the block to finish checks the last interval alone and hands the slot back. */
__device__ void __gmrace_exit(void) {
  unsigned int *slot = __gmrace_slot_s;
  __threadfence();
  unsigned int done = atomicAdd(slot + GMRACE_S_FINISHED, 1u);
  if (done + 1u == __gmrace_nthreads()) {
    __threadfence();
#if defined(GMRACE_MODE_STMT)
    __gmrace_bounds(0u, 1u);
#endif
    __gmrace_pairs(0u, 1u);
    slot[GMRACE_S_USED] = 0u;
    slot[GMRACE_S_FINISHED] = 0u;
    /* The next block in this slot has its own warps. */
    for (unsigned int x = 0u; x < 32u; x++)
      slot[GMRACE_S_PAIRS + x] = 0u;
    __threadfence();
    atomicExch(slot + GMRACE_S_OWNER, 0u);
  }
}

#endif

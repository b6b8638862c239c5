//! The CPU device's address space and global memory.
//!
//! Addresses: every memory object (a buffer argument, a `__device__`/`__constant__` variable, a
//! static `__shared__` variable, the dynamic shared area, a thread-local array) has an object
//! number `o`, and its byte `k` has address `(o + 1) << 40 | k`. Objects are therefore 2^40-byte
//! aligned (so alignment arithmetic on addresses works as on a GPU), no object is at address 0,
//! and a pointer that strays from its object is attributed to the nearest one: an offset in the
//! upper half of a slot (`>= 2^39`) is read as "this many bytes before the next object". Shared
//! and local objects have one address for all blocks (all threads); which copy an access reaches
//! is decided by the accessing block (thread), as on a GPU.
//!
//! Global memory is held in `AtomicU32` words accessed with relaxed atomics, so blocks may run on
//! several threads without undefined behaviour whatever the kernel does. Every access is
//! naturally aligned (a misaligned one is a fault before it reaches memory), so a 1-, 2- or
//! 4-byte access stays within one word and an 8-byte one covers two.
//!
//! `Shadow` (only when blocks run in parallel) records, per word, which block wrote it and which
//! block(s) read it; any access that makes two blocks depend on each other's order (a write and
//! another block's read or write or atomic of the same word) is reported as a conflict, and the
//! launch is then re-run with blocks in order, so results never depend on thread timing.

use gmrace_ir::{Kernel, Module, Space};
use std::sync::atomic::{AtomicU32, Ordering};

pub const OBJ_SHIFT: u32 = 40;
pub const OFFSET_MASK: u64 = (1 << OBJ_SHIFT) - 1;

pub fn address(obj: u32, offset: u64) -> u64 {
    ((obj as u64 + 1) << OBJ_SHIFT) | (offset & OFFSET_MASK)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjKind {
    /// Global memory slot (buffer argument or global variable).
    Global(u32),
    /// Per-block shared memory slot.
    Shared(u32),
    /// Byte offset in each thread's local frame.
    Local(u64),
}

#[derive(Clone, Debug)]
pub struct ObjDesc {
    pub name: String,
    pub space: Space,
    pub kind: ObjKind,
    /// Size in bytes (for buffers and dynamic shared memory: set from the launch).
    pub size: u64,
    pub writable: bool,
    /// Shared objects: byte offset in the block's shared window (`__cvta_generic_to_shared`):
    /// static objects in the kernel's declaration order, each at its alignment, then the
    /// dynamic area at a 16-byte boundary. 0 for other objects.
    pub window: u64,
}

/// Object numbering of one kernel: parameters, then globals, shared variables (all `extern`
/// ones share the dynamic area), local arrays.
#[derive(Clone, Debug)]
pub struct Layout {
    pub objs: Vec<ObjDesc>,
    pub param_obj: Vec<u32>,
    pub global_obj: Vec<u32>,
    pub shared_obj: Vec<u32>,
    pub local_obj: Vec<u32>,
    /// Bytes of local memory per thread.
    pub local_frame: u64,
    /// Number of per-block shared slots (statics, then the dynamic area if any).
    pub shared_slots: u32,
    /// The object of the dynamic shared area (all `extern __shared__` arrays), if any.
    pub dyn_shared_obj: Option<u32>,
    /// Global slot of each parameter (`None` for scalars) and of each global variable.
    pub param_slot: Vec<Option<u32>>,
    pub global_slot: Vec<u32>,
    pub global_slots: u32,
}

impl Layout {
    pub fn new(module: &Module, kernel: &Kernel) -> Layout {
        let mut objs = Vec::new();
        let mut slot = 0u32;
        let mut param_obj = Vec::new();
        let mut param_slot = Vec::new();
        for p in &kernel.params {
            param_obj.push(objs.len() as u32);
            let is_buf = p.pointee.is_some() || matches!(p.ty, gmrace_ir::Ty::Ptr(_));
            param_slot.push(is_buf.then_some(slot));
            objs.push(ObjDesc {
                name: p.name.clone(),
                space: Space::Global,
                kind: ObjKind::Global(slot),
                size: 0,
                writable: true,
                window: 0,
            });
            if is_buf {
                slot += 1;
            }
        }
        let mut global_obj = Vec::new();
        let mut global_slot = Vec::new();
        for g in &module.globals {
            global_obj.push(objs.len() as u32);
            global_slot.push(slot);
            objs.push(ObjDesc {
                name: g.name.clone(),
                space: g.space,
                kind: ObjKind::Global(slot),
                size: g.size_bytes,
                writable: g.space != Space::Constant,
                window: 0,
            });
            slot += 1;
        }
        let mut shared_obj = Vec::new();
        let mut shared_slots = 0u32;
        let mut dyn_obj = None;
        let mut window = 0u64;
        for s in &kernel.shared {
            match s.size_bytes {
                Some(size) => {
                    shared_obj.push(objs.len() as u32);
                    window = window.next_multiple_of(s.align.max(1) as u64);
                    objs.push(ObjDesc {
                        name: s.name.clone(),
                        space: Space::Shared,
                        kind: ObjKind::Shared(shared_slots),
                        size,
                        writable: true,
                        window,
                    });
                    window = window.saturating_add(size);
                    shared_slots += 1;
                }
                None => {
                    // Filled in below, once the static slots are numbered.
                    shared_obj.push(u32::MAX);
                    dyn_obj.get_or_insert(s.name.clone());
                }
            }
        }
        let mut dyn_shared_obj = None;
        if let Some(name) = dyn_obj {
            let id = objs.len() as u32;
            dyn_shared_obj = Some(id);
            objs.push(ObjDesc {
                name: format!("{name} (extern __shared__)"),
                space: Space::Shared,
                kind: ObjKind::Shared(shared_slots),
                size: 0,
                writable: true,
                window: window.next_multiple_of(16),
            });
            shared_slots += 1;
            for o in shared_obj.iter_mut().filter(|o| **o == u32::MAX) {
                *o = id;
            }
        }
        let mut local_obj = Vec::new();
        let mut frame = 0u64;
        for a in &kernel.local_arrays {
            local_obj.push(objs.len() as u32);
            frame = frame.div_ceil(16) * 16;
            objs.push(ObjDesc {
                name: a.name.clone(),
                space: Space::Local,
                kind: ObjKind::Local(frame),
                size: a.size_bytes,
                writable: true,
                window: 0,
            });
            frame = frame.saturating_add(a.size_bytes);
        }
        Layout {
            objs,
            param_obj,
            global_obj,
            shared_obj,
            local_obj,
            local_frame: frame.div_ceil(16) * 16,
            shared_slots,
            dyn_shared_obj,
            param_slot,
            global_slot,
            global_slots: slot,
        }
    }
}

/// Where an address points, or why it points nowhere.
#[derive(Clone, Debug)]
pub enum Resolved {
    Ok {
        obj: u32,
        offset: u64,
    },
    /// Outside every object: the nearest object and the signed byte offset from its start.
    OutOfBounds {
        obj: u32,
        offset: i64,
    },
    Misaligned {
        obj: u32,
        offset: u64,
    },
    /// Not near any object (null or garbage).
    Invalid,
}

/// Resolves an access of `size` bytes at `addr`.
#[inline(always)]
pub fn resolve(objs: &[ObjDesc], addr: u64, size: u32) -> Resolved {
    let slot = addr >> OBJ_SHIFT;
    let offset = addr & OFFSET_MASK;
    if slot >= 1 && slot <= objs.len() as u64 {
        let obj = (slot - 1) as u32;
        let o = &objs[obj as usize];
        if offset
            .checked_add(size as u64)
            .is_some_and(|end| end <= o.size)
        {
            if !offset.is_multiple_of(size as u64) {
                return Resolved::Misaligned { obj, offset };
            }
            return Resolved::Ok { obj, offset };
        }
        if offset < (1 << (OBJ_SHIFT - 1)) {
            return Resolved::OutOfBounds {
                obj,
                offset: offset as i64,
            };
        }
    }
    // The upper half of a slot: just below the next object.
    if offset >= (1 << (OBJ_SHIFT - 1)) && slot < objs.len() as u64 {
        return Resolved::OutOfBounds {
            obj: slot as u32,
            offset: offset as i64 - (1i64 << OBJ_SHIFT),
        };
    }
    Resolved::Invalid
}

/// Global memory: one word array per slot.
pub struct GlobalMem {
    pub slots: Vec<Vec<AtomicU32>>,
    pub shadow: Option<Vec<Vec<ShadowWord>>>,
}

#[derive(Default)]
pub struct ShadowWord {
    writer: AtomicU32,
    reader: AtomicU32,
}

const MANY: u32 = u32::MAX;

impl GlobalMem {
    pub fn new(contents: &[Vec<u8>], shadow: bool) -> GlobalMem {
        let slots: Vec<Vec<AtomicU32>> = contents
            .iter()
            .map(|bytes| {
                let words = bytes.chunks_exact(4);
                let tail = words.remainder();
                let last = (!tail.is_empty()).then(|| {
                    let mut w = [0u8; 4];
                    w[..tail.len()].copy_from_slice(tail);
                    AtomicU32::new(u32::from_le_bytes(w))
                });
                words
                    .map(|c| AtomicU32::new(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .chain(last)
                    .collect()
            })
            .collect();
        let shadow = shadow.then(|| {
            slots
                .iter()
                .map(|s| (0..s.len()).map(|_| ShadowWord::default()).collect())
                .collect()
        });
        GlobalMem { slots, shadow }
    }

    /// Bytes `0..len` of a slot.
    pub fn bytes(&self, slot: u32, len: u64) -> Vec<u8> {
        let words = self.slots.get(slot as usize).map_or(&[][..], Vec::as_slice);
        let mut out = vec![0u8; words.len() * 4];
        for (dst, w) in out.chunks_exact_mut(4).zip(words) {
            dst.copy_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        out.truncate(len as usize);
        out
    }

    #[inline(always)]
    pub fn load(&self, slot: u32, offset: u64, size: u32) -> u64 {
        let Some(words) = self.slots.get(slot as usize) else {
            return 0;
        };
        let i = (offset / 4) as usize;
        let word = |i: usize| words.get(i).map_or(0, |w| w.load(Ordering::Relaxed)) as u64;
        match size {
            8 => word(i) | (word(i + 1) << 32),
            4 => word(i),
            _ => {
                let shift = (offset % 4) * 8;
                (word(i) >> shift) & gmrace_ir::scalar::width_mask(size)
            }
        }
    }

    #[inline(always)]
    pub fn store(&self, slot: u32, offset: u64, size: u32, bits: u64) {
        let Some(words) = self.slots.get(slot as usize) else {
            return;
        };
        let i = (offset / 4) as usize;
        let put = |i: usize, v: u32| {
            if let Some(w) = words.get(i) {
                w.store(v, Ordering::Relaxed)
            }
        };
        match size {
            8 => {
                put(i, bits as u32);
                put(i + 1, (bits >> 32) as u32);
            }
            4 => put(i, bits as u32),
            _ => {
                if let Some(w) = words.get(i) {
                    let shift = (offset % 4) * 8;
                    let mask = (gmrace_ir::scalar::width_mask(size) as u32) << shift;
                    let v = ((bits as u32) << shift) & mask;
                    // Keeps the word's other bytes even if another block writes them meanwhile.
                    let _ = w.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                        Some((old & !mask) | v)
                    });
                }
            }
        }
    }

    /// Records an access by block `who` (1-based) for the parallel mode's conflict check.
    /// Returns false when the access makes this block depend on another block.
    #[inline(always)]
    pub fn track(&self, slot: u32, offset: u64, size: u32, write: bool, who: u32) -> bool {
        let Some(shadow) = &self.shadow else {
            return true;
        };
        let Some(words) = shadow.get(slot as usize) else {
            return true;
        };
        let first = (offset / 4) as usize;
        let last = ((offset + size as u64 - 1) / 4) as usize;
        for i in first..=last {
            let Some(w) = words.get(i) else { continue };
            if write {
                let prev = w.writer.load(Ordering::SeqCst);
                if prev != who {
                    if prev != 0 {
                        return false;
                    }
                    if let Err(p) =
                        w.writer
                            .compare_exchange(0, who, Ordering::SeqCst, Ordering::SeqCst)
                    {
                        if p != who {
                            return false;
                        }
                    }
                }
                let r = w.reader.load(Ordering::SeqCst);
                if r != 0 && r != who {
                    return false;
                }
            } else {
                let r = w.reader.load(Ordering::SeqCst);
                if r != who && r != MANY {
                    if r == 0 {
                        if let Err(p) =
                            w.reader
                                .compare_exchange(0, who, Ordering::SeqCst, Ordering::SeqCst)
                        {
                            if p != who {
                                w.reader.store(MANY, Ordering::SeqCst);
                            }
                        }
                    } else {
                        w.reader.store(MANY, Ordering::SeqCst);
                    }
                }
                let wr = w.writer.load(Ordering::SeqCst);
                if wr != 0 && wr != who {
                    return false;
                }
            }
        }
        true
    }
}

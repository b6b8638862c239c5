/*
 * gmrace_device_launch.h -- force-included (through both preludes): what gmrace
 * reads a kernel launch in device code as.  clang does not implement dynamic
 * parallelism and drops `child<<<g, b>>>(a, n)` inside a kernel; gmrace
 * rewrites it, before parsing, to `__gmlaunch       (a, n)` (the kernel's name
 * and configuration become this name and spaces, so every line and column
 * stays) and reads the child's name back from the file.
 */
#ifndef GMRACE_DEVICE_LAUNCH_H
#define GMRACE_DEVICE_LAUNCH_H
template <class... __GmrArgs>
__device__ void __gmlaunch(const __GmrArgs &...);
#endif /* GMRACE_DEVICE_LAUNCH_H */

/* Included after the prelude, and only when a file defines its own clock_t as a different type
 * (kernels written for GPUVerify's 32-bit environment do): the file's definition then names
 * clock_t in its own code, while the system headers keep theirs. */
#define clock_t __gmrace_user_clock_t

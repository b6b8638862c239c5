/* Included after the prelude, and only when a file defines its own size_t as a different type
 * (kernels written for GPUVerify's 32-bit environment do): the file's definition then names
 * size_t in its own code, while the system headers keep theirs. */
#define size_t __gmrace_user_size_t

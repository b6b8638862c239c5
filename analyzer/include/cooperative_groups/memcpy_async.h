/* gmrace stand-in for <cooperative_groups/memcpy_async.h>.
 * cg::memcpy_async, cg::wait and cg::wait_prior are declared in
 * <cooperative_groups.h>. */
#ifndef GMRACE_PUBLIC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define GMRACE_PUBLIC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#endif

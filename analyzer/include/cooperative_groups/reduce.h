/* gmrace stand-in for <cooperative_groups/reduce.h>.
 * cg::reduce and the plus/less/greater/bit_* functors live in
 * <cooperative_groups.h>. */
#ifndef GMRACE_PUBLIC_COOPERATIVE_GROUPS_REDUCE_H
#define GMRACE_PUBLIC_COOPERATIVE_GROUPS_REDUCE_H
#include "../cooperative_groups.h"
#endif

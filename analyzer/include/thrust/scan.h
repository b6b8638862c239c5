/* gmrace stand-in: everything of Thrust that gmrace provides is in <thrust/gmrace_thrust.h>. */
#include "gmrace_thrust.h"

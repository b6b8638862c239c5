// split_callers' scan, called by this directory's program through a pointer too.
#include "../split_callers/scan.cu"

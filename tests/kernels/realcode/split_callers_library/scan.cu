// split_callers' scan in a library: no file of this directory defines `main`, so the calls
// here need not be all the calls there are.
#include "../split_callers/scan.cu"

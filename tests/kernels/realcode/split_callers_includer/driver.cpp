// Another file of the program: one call of the scan, on one block.
#include "../split_callers/scan.h"

void run(float *d_out, const float *d_in) { scanDevice(d_out, d_in, 512); }

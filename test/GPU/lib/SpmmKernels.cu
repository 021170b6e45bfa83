// Every SpMM kernel runSpmm dispatches to, for the element type
// SPARSE_KERNELS_TYPE (float, __half or __nv_bfloat16): one object per type,
// linked into the tests that include SparseKernels.h.
#include "SparseKernels.h"

template decltype(sopt::runSpmm<SPARSE_KERNELS_TYPE>) sopt::runSpmm<SPARSE_KERNELS_TYPE>;

//===- SparseKernels.h - the sparse kernels, compiled once per type -------===//
//
// runSpmm and runSddmm (SparseDispatch.cuh) instantiate every kernel of their
// family for one element type: minutes of nvcc each. Tests include this
// header instead: it declares those instances extern, so a test compiles
// none of them and links the objects that SpmmKernels.cu and SddmmKernels.cu
// give, built once per element type and shared by every test
// (test/GPU/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_TEST_GPU_SPARSEKERNELS_H
#define SPARSE_OPT_TEST_GPU_SPARSEKERNELS_H

#include "sparse-opt/Runtime/Kernels/SparseDispatch.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern template decltype(sopt::runSpmm<float>) sopt::runSpmm<float>;
extern template decltype(sopt::runSpmm<__half>) sopt::runSpmm<__half>;
extern template decltype(sopt::runSpmm<__nv_bfloat16>) sopt::runSpmm<__nv_bfloat16>;
extern template decltype(sopt::runSddmm<float>) sopt::runSddmm<float>;
extern template decltype(sopt::runSddmm<__half>) sopt::runSddmm<__half>;
extern template decltype(sopt::runSddmm<__nv_bfloat16>) sopt::runSddmm<__nv_bfloat16>;

#endif // SPARSE_OPT_TEST_GPU_SPARSEKERNELS_H

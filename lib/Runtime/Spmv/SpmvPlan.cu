//===- SpmvPlan.cu - the prepared-SpMV C API ------------------------*- CUDA -*-===//
//
// include/sparse-opt/Runtime/Host/SpmvPlan.h over the header-only
// implementation (SpmvPlanImpl.cuh). Compile it with nvcc into the program
// that calls the C API; generated code includes the implementation itself.
//
//===----------------------------------------------------------------------===//

#include "sparse-opt/Runtime/Host/SpmvPlanImpl.cuh"

extern "C" int sopt_spmv_prepare(sopt_spmv_plan **plan, int64_t rows, int64_t cols, int64_t nnz,
                                 const void *positions, const void *coordinates,
                                 sopt_spmv_index_type index_type, sopt_spmv_value_type value_type,
                                 const sopt_spmv_options *options, cudaStream_t stream,
                                 char *error, size_t error_size) {
  return sopt::spmv::preparePlan(plan, rows, cols, nnz, positions, coordinates, index_type,
                                 value_type, options, stream, error, error_size);
}

extern "C" int sopt_spmv_run(const sopt_spmv_plan *plan, const void *values, double alpha,
                             const void *x, double beta, void *y, cudaStream_t stream, char *error,
                             size_t error_size) {
  return sopt::spmv::runPlan(plan, values, alpha, x, beta, y, stream, error, error_size);
}

extern "C" int sopt_spmv_describe(const sopt_spmv_plan *plan, sopt_spmv_summary *summary) {
  return sopt::spmv::describePlan(plan, summary);
}

extern "C" void sopt_spmv_free(sopt_spmv_plan *plan) { sopt::spmv::freePlan(plan); }

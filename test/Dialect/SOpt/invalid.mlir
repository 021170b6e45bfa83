// RUN: sparse-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// ODS-generated constraints
//===----------------------------------------------------------------------===//

func.func @dynamic_shape(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'sopt.exp' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<?x8xf32>'}}
  %0 = sopt.exp %x : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @elementwise_on_csc(%x: tensor<8x8xf32, #CSC>) -> tensor<8x8xf32, #CSC> {
  // expected-error @+1 {{(d1 : dense, d0 : compressed) }>>'; elementwise ops act on the stored entries of CSR matrices only}}
  %0 = sopt.relu %x : tensor<8x8xf32, #CSC>
  return %0 : tensor<8x8xf32, #CSC>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @unary_sparse_to_dense(%x: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sopt.exp' op has the result type 'tensor<8x8xf32>', but an op on the stored entries of}}
  %0 = "sopt.exp"(%x) : (tensor<8x8xf32, #CSR>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sparse_plus_dense_is_dense(%s: tensor<8x8xf32, #CSR>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sopt.add' op has the result type 'tensor<8x8xf32>', but an op on the stored entries of}}
  %0 = sopt.add %s, %d : tensor<8x8xf32, #CSR>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSR64 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @two_sparse_types(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x8xf32, #CSR64>) -> tensor<8x8xf32, #CSR> {
  // expected-error @+1 {{posWidth = 32, crdWidth = 32 }>>'; the sparse operands of an elementwise op share one type (and pattern)}}
  %0 = sopt.mul %a, %b : tensor<8x8xf32, #CSR>, tensor<8x8xf32, #CSR64> -> tensor<8x8xf32, #CSR>
  return %0 : tensor<8x8xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @dense_operands_sparse_result(%a: tensor<8x8xf32>) -> tensor<8x8xf32, #CSR> {
  // expected-error @+1 {{but no sparse operand; a dense op has a dense result}}
  %0 = sopt.mul %a, %a : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32, #CSR>
  return %0 : tensor<8x8xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sampled_operand_shape(%s: tensor<8x8xf32, #CSR>, %d: tensor<8x4xf32>) -> tensor<8x8xf32, #CSR> {
  // expected-error @+1 {{'sopt.mul' op all non-scalar operands/results must have the same shape and base type}}
  %0 = sopt.mul %s, %d : tensor<8x8xf32, #CSR>, tensor<8x4xf32> -> tensor<8x8xf32, #CSR>
  return %0 : tensor<8x8xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sparse_compare(%s: tensor<8x8xf32, #CSR>) -> tensor<8x8xi1> {
  // expected-error @+1 {{'sopt.compare' op operand #0 must be statically shaped dense tensor}}
  %0 = "sopt.compare"(%s, %s) <{direction = 4 : i32}> : (tensor<8x8xf32, #CSR>, tensor<8x8xf32, #CSR>) -> tensor<8x8xi1>
  return %0 : tensor<8x8xi1>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sparse_reduce(%s: tensor<8x8xf32, #CSR>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.reduce' op operand #0 must be statically shaped dense tensor}}
  %0 = sopt.reduce sum %s dims = [1] : tensor<8x8xf32, #CSR> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @integer_add(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'sopt.add' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = sopt.add %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @add_mismatched_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.add' op requires the same element type for all operands and results}}
  %0 = "sopt.add"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_result_shape(%a: tensor<4xf32>) -> tensor<8xi1> {
  // expected-error @+1 {{'sopt.compare' op failed to verify that result is a boolean tensor of the operand shape}}
  %0 = "sopt.compare"(%a, %a) <{direction = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @select_condition_shape(%c: tensor<4xi1>, %a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.select' op failed to verify that condition is a boolean tensor of the result shape}}
  %0 = "sopt.select"(%c, %a, %a) : (tensor<4xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @matmul_element_types(%a: tensor<4x8xf32>, %b: tensor<8x4xf16>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'sopt.matmul' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = sopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x4xf16> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @constant_type() -> tensor<4xf16> {
  // expected-error @+1 {{'sopt.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "sopt.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

func.func @broadcast_dims_count(%x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.broadcast' op dims has 1 entries but the operand has rank 2}}
  %0 = sopt.broadcast %x dims = [0] : tensor<4x1xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_dims_range(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.broadcast' op dims[0] = 2 is out of range for rank 2}}
  %0 = sopt.broadcast %x dims = [2] : tensor<8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_dims_order(%x: tensor<8x8xf32>) -> tensor<8x8x2xf32> {
  // expected-error @+1 {{'sopt.broadcast' op dims must be strictly increasing}}
  %0 = sopt.broadcast %x dims = [1, 0] : tensor<8x8xf32> -> tensor<8x8x2xf32>
  return %0 : tensor<8x8x2xf32>
}

// -----

func.func @broadcast_size(%x: tensor<3x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.broadcast' op operand dimension 0 has size 3, which is neither 1 nor the size 4 of result dimension 0}}
  %0 = sopt.broadcast %x dims = [0, 1] : tensor<3x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

func.func @reduce_no_dims(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.reduce' op expects at least one reduction dimension}}
  %0 = sopt.reduce sum %x dims = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reduce_dims_range(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.reduce' op dims[0] = -1 is out of range for rank 2}}
  %0 = sopt.reduce max %x dims = [-1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// keep_dims keeps the reduced dimension with size 1.
func.func @reduce_result_shape(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sopt.reduce' op result has shape 4 but 4x1 was expected}}
  %0 = sopt.reduce sum %x dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// reshape, transpose
//===----------------------------------------------------------------------===//

func.func @reshape_count(%x: tensor<4x8xf32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{'sopt.reshape' op cannot reshape 32 elements (4x8) into 30 (5x6)}}
  %0 = sopt.reshape %x : tensor<4x8xf32> -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// -----

func.func @transpose_count(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.transpose' op permutation has 3 entries but the operand has rank 2}}
  %0 = sopt.transpose %x permutation = [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @transpose_not_permutation(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sopt.transpose' op permutation is not a permutation of [0, 2)}}
  %0 = sopt.transpose %x permutation = [1, 1] : tensor<4x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @transpose_result_shape(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.transpose' op result has shape 4x8 but 8x4 was expected}}
  %0 = sopt.transpose %x permutation = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'sopt.matmul' op expects lhs, rhs and result of one rank >= 2, got 1, 2 and 2}}
  %0 = sopt.matmul %a, %b : tensor<8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x4x4xf32> {
  // expected-error @+1 {{'sopt.matmul' op batch dimensions differ: lhs 2, rhs 3}}
  %0 = sopt.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x4xf32> -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

// With transpose_rhs the rhs is [n, k], so k = 4 here, not 8.
func.func @matmul_contracting(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.matmul' op contracting dimensions differ: lhs has 8, rhs has 4}}
  %0 = sopt.matmul %a, %b transpose_rhs : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matmul_result(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.matmul' op result has shape 8x16 but 4x16 was expected}}
  %0 = sopt.matmul %a, %b transpose_lhs : tensor<8x4xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

//===----------------------------------------------------------------------===//
// spmm
//===----------------------------------------------------------------------===//

func.func @spmm_no_sparse(%a: tensor<8x8xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op expects exactly one sparse operand, got none}}
  %0 = sopt.spmm %a, %b : tensor<8x8xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_two_sparse(%a: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sopt.spmm' op expects exactly one sparse operand, got two}}
  %0 = sopt.spmm %a, %a : tensor<8x8xf32, #CSR>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_rank(%a: tensor<8x8xf32, #CSR>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.spmm' op expects rank-2 operands and result}}
  %0 = sopt.spmm %a, %b : tensor<8x8xf32, #CSR>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>
func.func @spmm_dcsr(%a: tensor<8x8xf32, #DCSR>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op lhs has an unsupported sparse encoding #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>; expected CSR or CSC or BSR}}
  %0 = sopt.spmm %a, %b : tensor<8x8xf32, #DCSR>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func @spmm_coo(%a: tensor<4x8xf32>, %b: tensor<8x8xf32, #COO>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.spmm' op rhs has an unsupported sparse encoding}}
  %0 = sopt.spmm %a, %b : tensor<4x8xf32>, tensor<8x8xf32, #COO> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Three levels on a 2-D tensor (row blocks of 4 columns): not CSR, CSC or BSR.
#Blocked = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : compressed, j mod 4 : dense) }>
func.func @spmm_three_levels(%a: tensor<8x8xf32, #Blocked>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op lhs has an unsupported sparse encoding}}
  %0 = sopt.spmm %a, %b : tensor<8x8xf32, #Blocked>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#CSR16 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16 }>
func.func @spmm_index_width(%a: tensor<8x8xf32, #CSR16>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op lhs must use 32- or 64-bit positions and coordinates (posWidth/crdWidth 0, 32 or 64)}}
  %0 = sopt.spmm %a, %b : tensor<8x8xf32, #CSR16>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @spmm_contracting(%a: tensor<8x16xf32, #CSC>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op contracting dimensions differ: lhs has 16, rhs has 8}}
  %0 = sopt.spmm %a, %b : tensor<8x16xf32, #CSC>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32, #CSR>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.spmm' op result has shape 4x8 but 4x16 was expected}}
  %0 = sopt.spmm %a, %b : tensor<4x8xf32>, tensor<8x16xf32, #CSR> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Schedules (#sopt.spmm_schedule) are checked by sopt::checkSpmmSchedule
// against n (the dense operand's columns) and the element type.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_threads(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: threads_per_tile must be 4, 8, 16 or 32}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 12, threads_per_tile = 3, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_vector_width(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: vector_width must be 1, 2 or 4}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 96, threads_per_tile = 32, tiles_per_block = 4, vector_width = 3, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// 4 x f64 is 32 bytes.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_vector_bytes(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x16xf64>) -> tensor<8x16xf64> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: a vector of vector_width elements exceeds 16 bytes}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf64, #CSR>, tensor<8x16xf64> -> tensor<8x16xf64>
  return %0 : tensor<8x16xf64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_n_vector(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: the dense operand's 6 columns are not a multiple of vector_width 4}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x6xf32> -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_tile_columns(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tile_columns must be a positive multiple of threads_per_tile}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 100, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// 32 columns per thread.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_columns_per_thread(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tile_columns / threads_per_tile must be a power of two, a multiple of vector_width and at most 16}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 1024, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// 3 tiles of 4 lanes: 12 threads.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_block(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tiles_per_block * row_splits * threads_per_tile must be a multiple of 32 up to 256}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 16, threads_per_tile = 4, tiles_per_block = 3, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A row's nonzeros split three ways.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_row_splits(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: row_splits must be 1, 2, 4 or 8}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 1, vector_width = 4, row_order = natural, row_splits = 3>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// 8 groups of 32 lanes per tile, 2 tiles: 512 threads.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_split_block(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tiles_per_block * row_splits * threads_per_tile must be a multiple of 32 up to 256}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 2, vector_width = 4, row_order = natural, row_splits = 8>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Dense tensor-core blocks are f32, f16 or bf16.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_blocks_f64(%a: tensor<8x8xf64, #CSR>, %b: tensor<8x16xf64>) -> tensor<8x16xf64> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tiling = dense_blocks needs f32, f16 or bf16 elements}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>} : tensor<8x8xf64, #CSR>, tensor<8x16xf64> -> tensor<8x16xf64>
  return %0 : tensor<8x16xf64>
}

// -----

// A staged slice is 16, 32, 64 or 128 columns wide.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_slice_width(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tile_columns (the slice's width) must be 16, 32, 64 or 128 with tiling = staged_slices}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 48, threads_per_tile = 12, tiles_per_block = 8, vector_width = 4, row_order = natural, tiling = staged_slices>} : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A staged slice's row group is one vector per lane: 64 / 4 = 16 lanes.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_slice_lanes(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: threads_per_tile must be tile_columns / vector_width, 4 to 32, with tiling = staged_slices}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 32, vector_width = 4, row_order = natural, tiling = staged_slices>} : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// Staged slices do not split rows.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_slice_splits(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: row_splits and tile_order do not apply to tiling = staged_slices}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 16, vector_width = 4, row_order = natural, row_splits = 2, tiling = staged_slices>} : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// Blocks of 48 rows.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_block_rows(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: block_rows must be 32 or 64 with tiling = dense_blocks}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 48>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Blocks of 128 columns.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_block_columns(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: tile_columns must be 32 or 64 (or 128 in 16-bit) with tiling = dense_blocks}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Dense blocks visit rows in order.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_blocks_order(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: row_order = by_length does not apply to tiling = dense_blocks}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = by_length, tiling = dense_blocks>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An unknown tile order.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_tile_order(%a: tensor<8x8xf32, #CSR>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+2 {{expected ::mlir::sopt::TileOrder to be one of: by_row, by_column}}
  // expected-error @+1 {{failed to parse SOpt_SpmmScheduleAttr parameter 'tile_order'}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 1, vector_width = 4, row_order = natural, tile_order = by_diagonal>} : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Only the CSR × dense kernel takes a schedule (also for dense × CSR/CSC,
// run transposed).
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @spmm_schedule_csc(%a: tensor<8x8xf32, #CSC>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: a schedule needs a CSR lhs (sparse × dense) or a CSR or CSC rhs (dense × sparse), but lhs is CSC}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x8xf32, #CSC>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
func.func @spmm_schedule_bsr_rhs(%a: tensor<4x8xf32>, %b: tensor<8x8xf32, #BSR>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: a schedule needs a CSR lhs (sparse × dense) or a CSR or CSC rhs (dense × sparse), but rhs is BSR}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<4x8xf32>, tensor<8x8xf32, #BSR> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Dense × sparse runs as Sᵀ · Xᵀ: the schedule is checked against m, the
// columns of Xᵀ (6 here), not against S's 8 columns.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_sparse_rhs_m(%a: tensor<6x8xf32>, %b: tensor<8x8xf32, #CSR>) -> tensor<6x8xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: the dense operand's 6 columns are not a multiple of vector_width 4}}
  %0 = sopt.spmm %a, %b {schedule = #sopt.spmm_schedule<tile_columns = 128, threads_per_tile = 32, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<6x8xf32>, tensor<8x8xf32, #CSR> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// sddmm
//===----------------------------------------------------------------------===//

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_rank(%a: tensor<2x8x4xf32>, %b: tensor<4x16xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op expects rank-2 operands}}
  %0 = sopt.sddmm %a, %b, %s : tensor<2x8x4xf32>, tensor<4x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @sddmm_pattern_csc(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %s: tensor<8x16xf32, #CSC>) -> tensor<8x16xf32, #CSC> {
  // expected-error @+1 {{'sopt.sddmm' op pattern has an unsupported sparse encoding #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>; expected CSR}}
  %0 = sopt.sddmm %a, %b, %s : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x16xf32, #CSC> -> tensor<8x16xf32, #CSC>
  return %0 : tensor<8x16xf32, #CSC>
}

// -----

// With transpose_rhs the rhs is [n, k]: k = 16 here, not 4.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_contracting(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %s: tensor<8x4xf32, #CSR>) -> tensor<8x4xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op contracting dimensions differ: lhs has 4, rhs has 16}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x4xf32, #CSR> -> tensor<8x4xf32, #CSR>
  return %0 : tensor<8x4xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_pattern_shape(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %s: tensor<8x8xf32, #CSR>) -> tensor<8x8xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op pattern has shape 8x8 but 8x16 was expected}}
  %0 = sopt.sddmm %a, %b, %s : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  return %0 : tensor<8x8xf32, #CSR>
}

// -----

// Schedules (#sopt.sddmm_schedule) are checked by sopt::checkSddmmSchedule
// against k (the inner dimension), transpose_rhs and the element type.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_threads(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: threads_per_nonzero must be a power of two up to 32}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 3, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_warps(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tiles_per_block (warps per block) must be 1 to 8}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 9, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// 8 lanes per output: 4 outputs per warp and round, so 4 to 32 in steps of 4.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_tile_nonzeros(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tile_nonzeros must be 1 to 8 times 32 / threads_per_nonzero, or 32}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 6, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_k_vector(%a: tensor<8x6xf32>, %b: tensor<16x6xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: the inner dimension 6 is not a multiple of vector_width 4}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x6xf32>, tensor<16x6xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// transpose_rhs_first: B[k, n] only.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_transpose_first_transposed(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: transpose_rhs_first applies to (A · B) ⊙ S only: with transpose_rhs B is already B[n, k]}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, transpose_rhs_first = true>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// With B transposed first, the transposed form's limits apply: k = 66 is no
// multiple of vector_width 4.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_transpose_first_vector(%a: tensor<8x66xf32>, %b: tensor<66x16xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: the inner dimension 66 is not a multiple of vector_width 4}}
  %0 = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, transpose_rhs_first = true>} : tensor<8x66xf32>, tensor<66x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// Dense blocks compute (A · Bᵀ) ⊙ S only.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_dense_blocks_gather(%a: tensor<8x64xf32>, %b: tensor<64x16xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tiling = dense_blocks computes (A · Bᵀ) ⊙ S only (transpose_rhs, or transpose_rhs_first for B[k, n])}}
  %0 = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// ... in f32, f16 or bf16.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_dense_blocks_f64(%a: tensor<8x64xf64>, %b: tensor<16x64xf64>, %s: tensor<8x16xf64, #CSR>) -> tensor<8x16xf64, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tiling = dense_blocks needs f32, f16 or bf16 elements}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 2, row_order = natural>} : tensor<8x64xf64>, tensor<16x64xf64>, tensor<8x16xf64, #CSR> -> tensor<8x16xf64, #CSR>
  return %0 : tensor<8x16xf64, #CSR>
}

// -----

// ... of 32 x 32 or 64 x 64 elements.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_block_size(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: block_size must be 32 or 64 with tiling = dense_blocks}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 16>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// k = 1024 over 8 lanes: 128 elements of A's row per lane.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_lane_elements(%a: tensor<8x1024xf32>, %b: tensor<16x1024xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: each lane would hold more than 64 elements of the left operand's row: raise threads_per_nonzero}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x1024xf32>, tensor<16x1024xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

//===----------------------------------------------------------------------===//
// spmv
//===----------------------------------------------------------------------===//

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmv_rank(%a: tensor<8x16xf32, #CSR>, %x: tensor<16x1xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.spmv' op expects a rank-2 matrix, a rank-1 vector and a rank-1 result}}
  %0 = sopt.spmv %a, %x : tensor<8x16xf32, #CSR>, tensor<16x1xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
func.func @spmv_csc(%a: tensor<8x16xf32, #CSC>, %x: tensor<16xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.spmv' op matrix has an unsupported sparse encoding #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>; expected CSR or BSR}}
  %0 = sopt.spmv %a, %x : tensor<8x16xf32, #CSC>, tensor<16xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Block-CSC is a block map, but not BSR.
#BSC = #sparse_tensor.encoding<{ map = (i, j) -> (j floordiv 2 : dense, i floordiv 2 : compressed, j mod 2 : dense, i mod 2 : dense) }>
func.func @spmv_block_csc(%a: tensor<8x8xf32, #BSC>, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.spmv' op matrix has an unsupported sparse encoding}}
  %0 = sopt.spmv %a, %x : tensor<8x8xf32, #BSC>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Column-major blocks are not BSR either.
#BSRColMajor = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, j mod 2 : dense, i mod 2 : dense) }>
func.func @spmm_col_major_blocks(%a: tensor<8x8xf32, #BSRColMajor>, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'sopt.spmm' op lhs has an unsupported sparse encoding}}
  %0 = sopt.spmm %a, %x : tensor<8x8xf32, #BSRColMajor>, tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
func.func @spmv_bsr_ragged(%a: tensor<7x8xf32, #BSR>, %x: tensor<8xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'sopt.spmv' op matrix dimension 0 (7) is not a multiple of the BSR block size 2}}
  %0 = sopt.spmv %a, %x : tensor<7x8xf32, #BSR>, tensor<8xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmv_vector_size(%a: tensor<8x16xf32, #CSR>, %x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.spmv' op vector has 8 elements but the matrix has 16 columns}}
  %0 = sopt.spmv %a, %x : tensor<8x16xf32, #CSR>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmv_result(%a: tensor<8x16xf32, #CSR>, %x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sopt.spmv' op result has shape 16 but 8 was expected}}
  %0 = sopt.spmv %a, %x : tensor<8x16xf32, #CSR>, tensor<16xf32> -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Composites
//===----------------------------------------------------------------------===//

func.func @softmax_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.softmax' op dim 2 is out of range for rank 2}}
  %0 = sopt.softmax %x dim = 2 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'sopt.layer_norm' op expects an input of rank >= 1}}
  %0 = sopt.layer_norm %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @layer_norm_scale_type(%x: tensor<4x8xf32>, %g: tensor<8xf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op scale element type 'f16' differs from the input's 'f32'}}
  %0 = sopt.layer_norm %x scale(%g : tensor<8xf16>) : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_scale_shape(%x: tensor<4x8xf32>, %g: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op scale has shape 4 but 8 was expected}}
  %0 = sopt.layer_norm %x scale(%g : tensor<4xf32>) : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op bias has shape 1x8 but 8 was expected}}
  %0 = sopt.layer_norm %x scale(%g : tensor<8xf32>) bias(%b : tensor<1x8xf32>) : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_epsilon(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op expects a finite non-negative epsilon}}
  %0 = sopt.layer_norm %x epsilon = -1.0e-05 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rms_norm_scale_shape(%x: tensor<4x8xbf16>, %g: tensor<4xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'sopt.rms_norm' op scale has shape 4 but 8 was expected}}
  %0 = sopt.rms_norm %x scale(%g : tensor<4xbf16>) : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @layer_norm_nan_epsilon(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.layer_norm' op expects a finite non-negative epsilon}}
  %0 = sopt.layer_norm %x epsilon = 0x7FF8000000000000 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rms_norm_epsilon(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.rms_norm' op expects a finite non-negative epsilon}}
  %0 = sopt.rms_norm %x epsilon = -1.0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_rank(%q: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sopt.attention' op expects query, key, value and result of one rank >= 2}}
  %0 = sopt.attention %q, %q, %q : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @attention_batch(%q: tensor<2x4x8xf32>, %k: tensor<3x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op expects query, key and value with equal leading (batch) dimensions}}
  %0 = sopt.attention %q, %k, %k : tensor<2x4x8xf32>, tensor<3x4x8xf32>, tensor<3x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_head_dim(%q: tensor<4x8xf32>, %k: tensor<6x4xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op key head dimension 4 differs from the query's 8}}
  %0 = sopt.attention %q, %k, %v : tensor<4x8xf32>, tensor<6x4xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_value_positions(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op value has 4 positions but key has 6}}
  %0 = sopt.attention %q, %k, %v : tensor<4x8xf32>, tensor<6x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_mask_type(%q: tensor<4x8xf32>, %m: tensor<4x4xf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op mask must be i1 or 'f32', got 'f16'}}
  %0 = sopt.attention %q, %q, %q mask(%m : tensor<4x4xf16>) : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The mask is [b..., sq, sk] = [2, 4, 6]; no implicit broadcast over the batch.
func.func @attention_mask_shape(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %m: tensor<4x6xi1>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op mask has shape 4x6 but 2x4x6 was expected}}
  %0 = sopt.attention %q, %k, %k mask(%m : tensor<4x6xi1>) : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @attention_scale(%q: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op expects a finite positive scale}}
  %0 = sopt.attention %q, %q, %q scale = 0.0 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_result(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x16xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'sopt.attention' op result has shape 4x8 but 4x16 was expected}}
  %0 = sopt.attention %q, %k, %v : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x16xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Long rows cut into segments need the row tiles visiting rows longest
// first (the segments' table follows that order).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_row_segment_order(%w: tensor<8x8xf32, #CSR>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: row_segment needs tiling = row_tiles and row_order = by_length}}
  %0 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = natural, row_segment = 64>} : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @spmm_schedule_row_segment_negative(%w: tensor<8x8xf32, #CSR>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'sopt.spmm' op has an invalid schedule: row_segment must be 0 or positive}}
  %0 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = by_length, row_segment = -1>} : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// ... k shared by 1 or 2 blocks, with dense blocks only.
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_k_splits(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: k_splits must be 1 or 2}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 4>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_k_splits_tiles(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: k_splits applies to tiling = dense_blocks only}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 2>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

// column_panel: tiles of 32 nonzeros only, a positive width, and warps per
// block as the panel kernel's registers allow (16 where a lane holds more
// than 16 elements of A: k = 1024 over 32 lanes).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_column_panel_blocks(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: column_panel applies to tiles of nonzeros only}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, column_panel = 64>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_column_panel_negative(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: column_panel must be 0 (S's order) or a number of columns}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, column_panel = -8>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_column_panel_tile(%a: tensor<8x64xf32>, %b: tensor<16x64xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: column_panel needs tile_nonzeros = 32}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, column_panel = 64>} : tensor<8x64xf32>, tensor<16x64xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_column_panel_warps(%a: tensor<8x1024xf32>, %b: tensor<16x1024xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: tiles_per_block (warps per block) must be 1 to 16 with column_panel here}}
  %0 = sopt.sddmm %a, %b, %s transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 32, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 64>} : tensor<8x1024xf32>, tensor<16x1024xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @sddmm_schedule_column_panel_gather(%a: tensor<8x64xf32>, %b: tensor<64x16xf32>, %s: tensor<8x16xf32, #CSR>) -> tensor<8x16xf32, #CSR> {
  // expected-error @+1 {{'sopt.sddmm' op has an invalid schedule: column_panel applies to (A · Bᵀ) ⊙ S only}}
  %0 = sopt.sddmm %a, %b, %s {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 4, vector_width = 1, row_order = natural, column_panel = 64>} : tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return %0 : tensor<8x16xf32, #CSR>
}

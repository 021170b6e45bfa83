// RUN: sparse-opt %s | sparse-opt | FileCheck %s
// RUN: sparse-opt %s --mlir-print-op-generic | sparse-opt | FileCheck %s

// Encodings are printed as aliases (#sparse, #sparse1, ...) above the module.
// CHECK-DAG: #[[CSR:sparse[0-9]*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
// CHECK-DAG: #[[CSC:sparse[0-9]*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
// CHECK-DAG: #[[BSR:sparse[0-9]*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, d1 floordiv 2 : compressed, d0 mod 2 : dense, d1 mod 2 : dense), posWidth = 32, crdWidth = 32 }>

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                   i mod 2 : dense, j mod 2 : dense),
  posWidth = 32, crdWidth = 32
}>

// CHECK-LABEL: func.func @constant
// CHECK: sopt.constant dense<5.000000e-01> : tensor<4x8xf32>
// CHECK: sopt.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf16>
// CHECK: sopt.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK: sopt.constant dense<7> : tensor<2xi32>
func.func @constant() -> (tensor<4x8xf32>, tensor<2x2xf16>, tensor<3xi1>, tensor<2xi32>) {
  %0 = sopt.constant dense<0.5> : tensor<4x8xf32>
  %1 = sopt.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %2 = sopt.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = sopt.constant dense<7> : tensor<2xi32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<2x2xf16>, tensor<3xi1>, tensor<2xi32>
}

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[H:[^:]+]]: tensor<16xf16>)
// CHECK: sopt.neg %[[X]] : tensor<4x8xf32>
// CHECK: sopt.abs %[[X]] : tensor<4x8xf32>
// CHECK: sopt.exp %[[X]] : tensor<4x8xf32>
// CHECK: sopt.log %[[X]] : tensor<4x8xf32>
// CHECK: sopt.tanh %[[X]] : tensor<4x8xf32>
// CHECK: sopt.erf %[[X]] : tensor<4x8xf32>
// CHECK: sopt.sigmoid %[[X]] : tensor<4x8xf32>
// CHECK: sopt.relu %[[X]] : tensor<4x8xf32>
// CHECK: sopt.sqrt %[[X]] : tensor<4x8xf32>
// CHECK: sopt.rsqrt %[[X]] : tensor<4x8xf32>
// CHECK: sopt.reciprocal %[[X]] : tensor<4x8xf32>
// CHECK: sopt.exp %[[H]] : tensor<16xf16>
func.func @unary(%x: tensor<4x8xf32>, %h: tensor<16xf16>) {
  %0 = sopt.neg %x : tensor<4x8xf32>
  %1 = sopt.abs %x : tensor<4x8xf32>
  %2 = sopt.exp %x : tensor<4x8xf32>
  %3 = sopt.log %x : tensor<4x8xf32>
  %4 = sopt.tanh %x : tensor<4x8xf32>
  %5 = sopt.erf %x : tensor<4x8xf32>
  %6 = sopt.sigmoid %x : tensor<4x8xf32>
  %7 = sopt.relu %x : tensor<4x8xf32>
  %8 = sopt.sqrt %x : tensor<4x8xf32>
  %9 = sopt.rsqrt %x : tensor<4x8xf32>
  %10 = sopt.reciprocal %x : tensor<4x8xf32>
  %11 = sopt.exp %h : tensor<16xf16>
  return
}

// The default (erf) approximation is elided when printing.
// CHECK-LABEL: func.func @gelu
// CHECK: sopt.gelu %{{[a-z0-9_]+}} : tensor<4x8xf32>
// CHECK: sopt.gelu %{{[a-z0-9_]+}} : tensor<4x8xf32>
// CHECK: sopt.gelu %{{[a-z0-9_]+}} approximation = tanh : tensor<4x8xbf16>
func.func @gelu(%x: tensor<4x8xf32>, %b: tensor<4x8xbf16>) {
  %0 = sopt.gelu %x : tensor<4x8xf32>
  %1 = sopt.gelu %x approximation = erf : tensor<4x8xf32>
  %2 = sopt.gelu %b approximation = tanh : tensor<4x8xbf16>
  return
}

// CHECK-LABEL: func.func @cast
// CHECK: sopt.cast %{{[a-z0-9_]+}} : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK: sopt.cast %{{[a-z0-9_]+}} : tensor<4x8xf32> to tensor<4x8xf64>
// CHECK: sopt.cast %{{[a-z0-9_]+}} : tensor<4x8xf32> to tensor<4x8xi32>
// CHECK: sopt.cast %{{[a-z0-9_]+}} : tensor<4x8xf32> to tensor<4x8xi64>
// CHECK: sopt.cast %{{[a-z0-9_]+}} : tensor<4x8xi1> to tensor<4x8xf32>
func.func @cast(%x: tensor<4x8xf32>, %m: tensor<4x8xi1>) {
  %0 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %1 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xf64>
  %2 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xi32>
  %3 = sopt.cast %x : tensor<4x8xf32> to tensor<4x8xi64>
  %4 = sopt.cast %m : tensor<4x8xi1> to tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<4x8xf32>, %[[D:[^:]+]]: tensor<8xf64>)
// CHECK: sopt.add %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.sub %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.mul %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.div %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.max %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.min %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.pow %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.sub %[[D]], %[[D]] : tensor<8xf64>
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %d: tensor<8xf64>) {
  %0 = sopt.add %a, %b : tensor<4x8xf32>
  %1 = sopt.sub %a, %b : tensor<4x8xf32>
  %2 = sopt.mul %a, %b : tensor<4x8xf32>
  %3 = sopt.div %a, %b : tensor<4x8xf32>
  %4 = sopt.max %a, %b : tensor<4x8xf32>
  %5 = sopt.min %a, %b : tensor<4x8xf32>
  %6 = sopt.pow %a, %b : tensor<4x8xf32>
  %7 = sopt.sub %d, %d : tensor<8xf64>
  return
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<4x8xf32>)
// CHECK: sopt.compare eq, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.compare ne, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.compare lt, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.compare le, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.compare gt, %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK: sopt.compare ge, %[[B]], %[[A]] : tensor<4x8xf32>
func.func @compare(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xi1> {
  %0 = sopt.compare eq, %a, %b : tensor<4x8xf32>
  %1 = sopt.compare ne, %a, %b : tensor<4x8xf32>
  %2 = sopt.compare lt, %a, %b : tensor<4x8xf32>
  %3 = sopt.compare le, %a, %b : tensor<4x8xf32>
  %4 = sopt.compare gt, %a, %b : tensor<4x8xf32>
  %5 = sopt.compare ge, %b, %a : tensor<4x8xf32>
  return %5 : tensor<4x8xi1>
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:[^:]+]]: tensor<4x8xi1>, %[[A:[^:]+]]: tensor<4x8xf16>, %[[B:[^:]+]]: tensor<4x8xf16>)
// CHECK: sopt.select %[[C]], %[[A]], %[[B]] : tensor<4x8xf16>
func.func @select(%c: tensor<4x8xi1>, %a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = sopt.select %c, %a, %b : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @broadcast
// CHECK: sopt.broadcast %{{[a-z0-9_]+}} dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK: sopt.broadcast %{{[a-z0-9_]+}} dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK: sopt.broadcast %{{[a-z0-9_]+}} dims = [0, 2] : tensor<2x1xf32> -> tensor<2x3x4xf32>
// CHECK: sopt.broadcast %{{[a-z0-9_]+}} dims = [] : tensor<f32> -> tensor<4x8xf32>
// CHECK: sopt.broadcast %{{[a-z0-9_]+}} dims = [1, 2] : tensor<8x8xi1> -> tensor<2x8x8xi1>
func.func @broadcast(%v: tensor<8xf32>, %k: tensor<4x1xf32>, %m: tensor<2x1xf32>,
                     %s: tensor<f32>, %b: tensor<8x8xi1>) {
  %0 = sopt.broadcast %v dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
  %1 = sopt.broadcast %k dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
  %2 = sopt.broadcast %m dims = [0, 2] : tensor<2x1xf32> -> tensor<2x3x4xf32>
  %3 = sopt.broadcast %s dims = [] : tensor<f32> -> tensor<4x8xf32>
  %4 = sopt.broadcast %b dims = [1, 2] : tensor<8x8xi1> -> tensor<2x8x8xi1>
  return
}

// CHECK-LABEL: func.func @reduce
// CHECK: sopt.reduce sum %{{[a-z0-9_]+}} dims = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: sopt.reduce max %{{[a-z0-9_]+}} dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK: sopt.reduce min %{{[a-z0-9_]+}} dims = [0] : tensor<4x8xf32> -> tensor<8xf32>
// CHECK: sopt.reduce mean %{{[a-z0-9_]+}} dims = [0, 1] : tensor<4x8xf32> -> tensor<f32>
// CHECK: sopt.reduce sum %{{[a-z0-9_]+}} dims = [0, 2] keep_dims : tensor<2x3x4xbf16> -> tensor<1x3x1xbf16>
// CHECK: sopt.reduce mean %{{[a-z0-9_]+}} dims = [0, 2] : tensor<2x3x4xbf16> -> tensor<3xbf16>
func.func @reduce(%x: tensor<4x8xf32>, %y: tensor<2x3x4xbf16>) {
  %0 = sopt.reduce sum %x dims = [1] : tensor<4x8xf32> -> tensor<4xf32>
  %1 = sopt.reduce max %x dims = [1] keep_dims : tensor<4x8xf32> -> tensor<4x1xf32>
  %2 = sopt.reduce min %x dims = [0] : tensor<4x8xf32> -> tensor<8xf32>
  %3 = sopt.reduce mean %x dims = [0, 1] : tensor<4x8xf32> -> tensor<f32>
  %4 = sopt.reduce sum %y dims = [0, 2] keep_dims : tensor<2x3x4xbf16> -> tensor<1x3x1xbf16>
  %5 = sopt.reduce mean %y dims = [0, 2] : tensor<2x3x4xbf16> -> tensor<3xbf16>
  return
}

// CHECK-LABEL: func.func @layout
// CHECK: sopt.reshape %{{[a-z0-9_]+}} : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK: sopt.reshape %{{[a-z0-9_]+}} : tensor<2x4x8xf32> -> tensor<64xf32>
// CHECK: sopt.transpose %{{[a-z0-9_]+}} permutation = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK: sopt.transpose %{{[a-z0-9_]+}} permutation = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
func.func @layout(%x: tensor<2x4x8xf32>) {
  %0 = sopt.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %1 = sopt.reshape %x : tensor<2x4x8xf32> -> tensor<64xf32>
  %2 = sopt.transpose %0 permutation = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %3 = sopt.transpose %x permutation = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<2x4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_lhs : tensor<8x4xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs : tensor<4x8xf32>, tensor<16x8xf32> -> tensor<4x16xf32>
// CHECK: sopt.matmul %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_lhs transpose_rhs : tensor<3x2x8x4xbf16>, tensor<3x2x16x8xbf16> -> tensor<3x2x4x16xbf16>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>,
                  %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>,
                  %at: tensor<8x4xf32>, %bt: tensor<16x8xf32>,
                  %ha: tensor<3x2x8x4xbf16>, %hb: tensor<3x2x16x8xbf16>) {
  %0 = sopt.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %1 = sopt.matmul %ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
  %2 = sopt.matmul %at, %b transpose_lhs : tensor<8x4xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %3 = sopt.matmul %a, %bt transpose_rhs : tensor<4x8xf32>, tensor<16x8xf32> -> tensor<4x16xf32>
  %4 = sopt.matmul %ha, %hb transpose_lhs transpose_rhs
      : tensor<3x2x8x4xbf16>, tensor<3x2x16x8xbf16> -> tensor<3x2x4x16xbf16>
  return
}

// CHECK-LABEL: func.func @spmm
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x8xf32, #[[CSR]]>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4x8xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<4x8xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x8xf32, #[[CSC]]>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x8xf16, #[[BSR]]>, tensor<8x16xf16> -> tensor<8x16xf16>
func.func @spmm(%csr: tensor<8x8xf32, #CSR>, %csc: tensor<8x8xf32, #CSC>,
                %bsr: tensor<8x8xf16, #BSR>, %d: tensor<8x16xf32>,
                %l: tensor<4x8xf32>, %h: tensor<8x16xf16>) {
  %0 = sopt.spmm %csr, %d : tensor<8x8xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = sopt.spmm %l, %csr : tensor<4x8xf32>, tensor<8x8xf32, #CSR> -> tensor<4x8xf32>
  %2 = sopt.spmm %csc, %d : tensor<8x8xf32, #CSC>, tensor<8x16xf32> -> tensor<8x16xf32>
  %3 = sopt.spmm %bsr, %h : tensor<8x8xf16, #BSR>, tensor<8x16xf16> -> tensor<8x16xf16>
  return
}

// Dense × sparse takes a schedule too (for Sᵀ · Xᵀ, checked against m = 64).
// CHECK-LABEL: func.func @scheduled_dense_times_sparse
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>} : tensor<64x8xf32>, tensor<8x6xf32, #[[CSC]]> -> tensor<64x6xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = natural>} : tensor<64x8xf32>, tensor<8x6xf32, #[[CSR]]> -> tensor<64x6xf32>
func.func @scheduled_dense_times_sparse(%x: tensor<64x8xf32>, %csc: tensor<8x6xf32, #CSC>,
                                        %csr: tensor<8x6xf32, #CSR>) {
  %0 = sopt.spmm %x, %csc {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
      tiles_per_block = 8, vector_width = 4, row_order = natural>}
      : tensor<64x8xf32>, tensor<8x6xf32, #CSC> -> tensor<64x6xf32>
  %1 = sopt.spmm %x, %csr {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
      tiles_per_block = 8, vector_width = 4, row_order = natural>}
      : tensor<64x8xf32>, tensor<8x6xf32, #CSR> -> tensor<64x6xf32>
  return
}

// CHECK-LABEL: func.func @sddmm
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x16xf32, #[[CSR]]> -> tensor<8x16xf32, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x16xf32, #[[CSR]]> -> tensor<8x16xf32, #[[CSR]]>
func.func @sddmm(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bt: tensor<16x4xf32>,
                 %s: tensor<8x16xf32, #CSR>) {
  %0 = sopt.sddmm %a, %b, %s
      : tensor<8x4xf32>, tensor<4x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %1 = sopt.sddmm %a, %bt, %s transpose_rhs
      : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  return
}

// Schedules are an optional attribute (attr-dict), shown beside the
// unscheduled forms above.
// CHECK-LABEL: func.func @scheduled
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = by_length>} : tensor<8x8xf32, #[[CSR]]>, tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 8, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<8x8xf32, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1, tiles_per_block = 4, vector_width = 1, row_order = by_length>} : tensor<8x64xbf16>, tensor<64x8xbf16>, tensor<8x8xbf16, #[[CSR]]> -> tensor<8x8xbf16, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<8x8xf32, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, block_size = 32>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<8x8xf32, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks, tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural, k_splits = 2>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<8x8xf32, #[[CSR]]>
// CHECK: sopt.sddmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 16, tiles_per_block = 32, vector_width = 4, row_order = natural, column_panel = 128>} : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #[[CSR]]> -> tensor<8x8xf32, #[[CSR]]>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 2, vector_width = 4, row_order = natural, row_splits = 4, tile_order = by_column>} : tensor<8x8xf32, #[[CSR]]>, tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>} : tensor<8x8xf32, #[[CSR]]>, tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32, tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>} : tensor<8x8xf32, #[[CSR]]>, tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK: sopt.spmm %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16, tiles_per_block = 8, vector_width = 4, row_order = by_length, row_segment = 5>} : tensor<8x8xf32, #[[CSR]]>, tensor<8x64xf32> -> tensor<8x64xf32>
func.func @scheduled(%w: tensor<8x8xf32, #CSR>, %x: tensor<8x64xf32>,
                     %h: tensor<8x64xbf16>, %ht: tensor<64x8xbf16>, %hs: tensor<8x8xbf16, #CSR>) {
  %0 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
                                                         tiles_per_block = 8, vector_width = 4,
                                                         row_order = by_length>}
      : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  // Parameters in any order, as struct(params) allows.
  %1 = sopt.sddmm %x, %x, %w transpose_rhs {schedule = #sopt.sddmm_schedule<row_order = natural,
      vector_width = 4, tiles_per_block = 4, threads_per_nonzero = 8, tile_nonzeros = 8>}
      : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  %2 = sopt.sddmm %h, %ht, %hs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32, threads_per_nonzero = 1,
                                                                 tiles_per_block = 4, vector_width = 1,
                                                                 row_order = by_length>}
      : tensor<8x64xbf16>, tensor<64x8xbf16>, tensor<8x8xbf16, #CSR> -> tensor<8x8xbf16, #CSR>
  // tiling may be left out (nonzeros, as above) or given.
  %3 = sopt.sddmm %x, %x, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks,
      tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  // block_size may be left out (64, not printed) or given.
  %blocks32 = sopt.sddmm %x, %x, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks,
      tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural,
      block_size = 32>}
      : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  // k_splits likewise (1 not printed).
  %split = sopt.sddmm %x, %x, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tiling = dense_blocks,
      tile_nonzeros = 32, threads_per_nonzero = 8, tiles_per_block = 4, vector_width = 4, row_order = natural,
      k_splits = 2>}
      : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  // column_panel likewise (0 not printed); with it up to 32 warps a block.
  %panels = sopt.sddmm %x, %x, %w transpose_rhs {schedule = #sopt.sddmm_schedule<tile_nonzeros = 32,
      threads_per_nonzero = 16, tiles_per_block = 32, vector_width = 4, row_order = natural,
      column_panel = 128>}
      : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x8xf32, #CSR> -> tensor<8x8xf32, #CSR>
  // row_splits and tile_order may be left out (1 and by_row, as above, are
  // not printed) or given.
  %4 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
                                                         tiles_per_block = 2, vector_width = 4,
                                                         row_order = natural, row_splits = 4,
                                                         tile_order = by_column>}
      : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  // Dense tensor-core blocks; block_rows may be left out (64, not printed).
  %5 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32,
                                                         tiles_per_block = 1, vector_width = 1,
                                                         row_order = natural, tiling = dense_blocks,
                                                         block_rows = 32>}
      : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  %6 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32,
                                                         tiles_per_block = 1, vector_width = 1,
                                                         row_order = natural, tiling = dense_blocks>}
      : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  // Long rows cut into segments (row_segment: 0, none, not printed).
  %7 = sopt.spmm %w, %x {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
                                                         tiles_per_block = 8, vector_width = 4,
                                                         row_order = by_length, row_segment = 5>}
      : tensor<8x8xf32, #CSR>, tensor<8x64xf32> -> tensor<8x64xf32>
  return
}

// CHECK-LABEL: func.func @spmv
// CHECK: sopt.spmv %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x16xf64, #[[CSR]]>, tensor<16xf64> -> tensor<8xf64>
// CHECK: sopt.spmv %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x8xf16, #[[BSR]]>, tensor<8xf16> -> tensor<8xf16>
func.func @spmv(%a: tensor<8x16xf64, #CSR>, %x: tensor<16xf64>,
                %b: tensor<8x8xf16, #BSR>, %y: tensor<8xf16>) {
  %0 = sopt.spmv %a, %x : tensor<8x16xf64, #CSR>, tensor<16xf64> -> tensor<8xf64>
  %1 = sopt.spmv %b, %y : tensor<8x8xf16, #BSR>, tensor<8xf16> -> tensor<8xf16>
  return
}

// CHECK-LABEL: func.func @softmax
// CHECK: sopt.softmax %{{[a-z0-9_]+}} dim = 1 : tensor<4x8xf32>
// CHECK: sopt.softmax %{{[a-z0-9_]+}} dim = 0 : tensor<2x4x8xf16>
func.func @softmax(%x: tensor<4x8xf32>, %y: tensor<2x4x8xf16>) {
  %0 = sopt.softmax %x dim = 1 : tensor<4x8xf32>
  %1 = sopt.softmax %y dim = 0 : tensor<2x4x8xf16>
  return
}

// The default epsilon (1.0e-05) is elided when printing.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[G:[^:]+]]: tensor<8xf32>, %[[B:[^:]+]]: tensor<8xf32>)
// CHECK: sopt.layer_norm %[[X]] : tensor<4x8xf32>
// CHECK: sopt.layer_norm %[[X]] scale(%[[G]] : tensor<8xf32>) : tensor<4x8xf32>
// CHECK: sopt.layer_norm %[[X]] scale(%[[G]] : tensor<8xf32>) bias(%[[B]] : tensor<8xf32>) : tensor<4x8xf32>
// CHECK: sopt.layer_norm %[[X]] bias(%[[B]] : tensor<8xf32>) epsilon = 1.000000e-03 : tensor<4x8xf32>
// CHECK: sopt.layer_norm %[[X]] : tensor<4x8xf32>
func.func @layer_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) {
  %0 = sopt.layer_norm %x : tensor<4x8xf32>
  %1 = sopt.layer_norm %x scale(%g : tensor<8xf32>) : tensor<4x8xf32>
  %2 = sopt.layer_norm %x scale(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) : tensor<4x8xf32>
  %3 = sopt.layer_norm %x bias(%b : tensor<8xf32>) epsilon = 1.0e-03 : tensor<4x8xf32>
  %4 = sopt.layer_norm %x epsilon = 1.0e-05 : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @rms_norm
// CHECK: sopt.rms_norm %{{[a-z0-9_]+}} : tensor<4x8xbf16>
// CHECK: sopt.rms_norm %{{[a-z0-9_]+}} scale(%{{[a-z0-9_]+}} : tensor<8xbf16>) : tensor<4x8xbf16>
// CHECK: sopt.rms_norm %{{[a-z0-9_]+}} scale(%{{[a-z0-9_]+}} : tensor<8xbf16>) epsilon = 1.000000e-05 : tensor<4x8xbf16>
func.func @rms_norm(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>) {
  %0 = sopt.rms_norm %x : tensor<4x8xbf16>
  %1 = sopt.rms_norm %x scale(%g : tensor<8xbf16>) : tensor<4x8xbf16>
  %2 = sopt.rms_norm %x scale(%g : tensor<8xbf16>) epsilon = 1.0e-05 : tensor<4x8xbf16>
  return
}

// CHECK-LABEL: func.func @attention
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} causal : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}} : tensor<2x4x6xi1>) : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}} : tensor<2x4x6xf32>) : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} scale = 1.250000e-01 : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}} : tensor<2x4x6xf32>) causal scale = 5.000000e-01 : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
// CHECK: sopt.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} causal : tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16> -> tensor<8x8xf16>
func.func @attention(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x16xf32>,
                     %bm: tensor<2x4x6xi1>, %am: tensor<2x4x6xf32>, %h: tensor<8x8xf16>) {
  %0 = sopt.attention %q, %k, %v
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %1 = sopt.attention %q, %k, %v causal
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %2 = sopt.attention %q, %k, %v mask(%bm : tensor<2x4x6xi1>)
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %3 = sopt.attention %q, %k, %v mask(%am : tensor<2x4x6xf32>)
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %4 = sopt.attention %q, %k, %v scale = 0.125
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %5 = sopt.attention %q, %k, %v mask(%am : tensor<2x4x6xf32>) causal scale = 0.5
      : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x16xf32> -> tensor<2x4x16xf32>
  %6 = sopt.attention %h, %h, %h causal
      : tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16> -> tensor<8x8xf16>
  return
}

// Elementwise ops on the stored entries of a CSR matrix: one type when all
// are equal, `lhs, rhs -> result` with a sampled dense operand.
// CHECK-LABEL: func.func @stored_entries
// CHECK: sopt.exp %{{.*}} : tensor<8x16xf32, #[[CSR]]>
// CHECK: sopt.mul %{{.*}}, %{{.*}} : tensor<8x16xf32, #[[CSR]]>, tensor<8x16xf32> -> tensor<8x16xf32, #[[CSR]]>
// CHECK: sopt.add %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<8x16xf32, #[[CSR]]> -> tensor<8x16xf32, #[[CSR]]>
// CHECK: sopt.sub %{{.*}}, %{{.*}} : tensor<8x16xf32, #[[CSR]]>
// CHECK: sopt.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16xf32, #[[CSR]]>, tensor<8x16xf32> -> tensor<8x16xf32, #[[CSR]]>
func.func @stored_entries(%s: tensor<8x16xf32, #CSR>, %d: tensor<8x16xf32>, %keep: tensor<8x16xi1>)
    -> tensor<8x16xf32, #CSR> {
  %0 = sopt.exp %s : tensor<8x16xf32, #CSR>
  %1 = sopt.mul %0, %d : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  %2 = sopt.add %d, %1 : tensor<8x16xf32>, tensor<8x16xf32, #CSR> -> tensor<8x16xf32, #CSR>
  %3 = sopt.sub %2, %s : tensor<8x16xf32, #CSR>
  %4 = sopt.select %keep, %3, %d : tensor<8x16xf32, #CSR>, tensor<8x16xf32> -> tensor<8x16xf32, #CSR>
  return %4 : tensor<8x16xf32, #CSR>
}

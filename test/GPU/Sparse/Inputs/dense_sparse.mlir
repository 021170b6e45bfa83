// Dense × sparse products, X · S, on the project's SpMM kernel through the
// transposed formulation (Sᵀ · Xᵀ)ᵀ: a linear layer x · Wᵀ with W's CSR
// arrays passed as a CSC Wᵀ (pattern known, rows longest first, bias + GELU
// fused as the epilogue on the transposed store), a CSR S whose pattern is
// known (transposed at compile time), CSR without a pattern (cuSPARSE
// csr2csc per call) in bf16 with a scale + ReLU epilogue, CSC without a
// pattern in f16 with one row of X, a hand-set schedule with 4-wide vectors
// (Cᵀ stored row-major, then transposed) and a bias epilogue, a single
// column of S, dense tensor-core blocks (f32 and f16, Y stored transposed,
// bias epilogue), and staged slices of Xᵀ (f32, bias epilogue; vectors of 1, Y
// stored transposed, and of 4, Cᵀ stored and transposed).
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>

func.func @linear_csc(%x: tensor<77x257xf32>,
                      %wt: tensor<257x300xf32, #CSC> {sopt.sparsity_pattern = "pruned_300x257.smtx"},
                      %b: tensor<300xf32>) -> tensor<77x300xf32> {
  %y = sopt.spmm %x, %wt : tensor<77x257xf32>, tensor<257x300xf32, #CSC> -> tensor<77x300xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<300xf32> -> tensor<77x300xf32>
  %z = sopt.add %y, %bb : tensor<77x300xf32>
  %g = sopt.gelu %z : tensor<77x300xf32>
  return %g : tensor<77x300xf32>
}

func.func @dense_csr_pattern(%x: tensor<61x300xf32>,
                             %s: tensor<300x257xf32, #CSR> {sopt.sparsity_pattern = "pruned_300x257.smtx"})
    -> tensor<61x257xf32> {
  %y = sopt.spmm %x, %s : tensor<61x300xf32>, tensor<300x257xf32, #CSR> -> tensor<61x257xf32>
  return %y : tensor<61x257xf32>
}

func.func @dense_csr_bf16(%x: tensor<33x999xbf16>, %s: tensor<999x1000xbf16, #CSR>) -> tensor<33x1000xbf16> {
  %y = sopt.spmm %x, %s : tensor<33x999xbf16>, tensor<999x1000xbf16, #CSR> -> tensor<33x1000xbf16>
  %half = sopt.constant dense<0.5> : tensor<33x1000xbf16>
  %h = sopt.mul %y, %half : tensor<33x1000xbf16>
  %r = sopt.relu %h : tensor<33x1000xbf16>
  return %r : tensor<33x1000xbf16>
}

func.func @dense_csc_f16(%x: tensor<1x64xf16>, %s: tensor<64x4099xf16, #CSC>) -> tensor<1x4099xf16> {
  %y = sopt.spmm %x, %s : tensor<1x64xf16>, tensor<64x4099xf16, #CSC> -> tensor<1x4099xf16>
  return %y : tensor<1x4099xf16>
}

func.func @dense_csc_vec4(%x: tensor<100x129xf32>, %s: tensor<129x70xf32, #CSC>,
                          %b: tensor<70xf32>) -> tensor<100x70xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
      tiles_per_block = 4, vector_width = 4, row_order = natural>}
      : tensor<100x129xf32>, tensor<129x70xf32, #CSC> -> tensor<100x70xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<70xf32> -> tensor<100x70xf32>
  %z = sopt.add %y, %bb : tensor<100x70xf32>
  return %z : tensor<100x70xf32>
}

func.func @dense_csr_column(%x: tensor<5x3xf32>, %s: tensor<3x1xf32, #CSR>) -> tensor<5x1xf32> {
  %y = sopt.spmm %x, %s : tensor<5x3xf32>, tensor<3x1xf32, #CSR> -> tensor<5x1xf32>
  return %y : tensor<5x1xf32>
}

func.func @dense_csc_blocks(%x: tensor<37x257xf32>, %s: tensor<257x300xf32, #CSC>,
                            %b: tensor<300xf32>) -> tensor<37x300xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32,
      tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks>}
      : tensor<37x257xf32>, tensor<257x300xf32, #CSC> -> tensor<37x300xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<300xf32> -> tensor<37x300xf32>
  %z = sopt.add %y, %bb : tensor<37x300xf32>
  return %z : tensor<37x300xf32>
}

func.func @dense_csc_blocks_f16(%x: tensor<40x257xf16>, %s: tensor<257x300xf16, #CSC>,
                                %b: tensor<300xf16>) -> tensor<40x300xf16> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 32,
      tiles_per_block = 1, vector_width = 1, row_order = natural, tiling = dense_blocks, block_rows = 32>}
      : tensor<40x257xf16>, tensor<257x300xf16, #CSC> -> tensor<40x300xf16>
  %bb = sopt.broadcast %b dims = [1] : tensor<300xf16> -> tensor<40x300xf16>
  %z = sopt.add %y, %bb : tensor<40x300xf16>
  return %z : tensor<40x300xf16>
}

func.func @dense_csc_slices(%x: tensor<37x257xf32>, %s: tensor<257x300xf32, #CSC>,
                            %b: tensor<300xf32>) -> tensor<37x300xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 32, threads_per_tile = 32,
      tiles_per_block = 8, vector_width = 1, row_order = natural, tiling = staged_slices>}
      : tensor<37x257xf32>, tensor<257x300xf32, #CSC> -> tensor<37x300xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<300xf32> -> tensor<37x300xf32>
  %z = sopt.add %y, %bb : tensor<37x300xf32>
  return %z : tensor<37x300xf32>
}

func.func @dense_csc_slices_vec4(%x: tensor<100x129xf32>, %s: tensor<129x70xf32, #CSC>,
                                 %b: tensor<70xf32>) -> tensor<100x70xf32> {
  %y = sopt.spmm %x, %s {schedule = #sopt.spmm_schedule<tile_columns = 64, threads_per_tile = 16,
      tiles_per_block = 64, vector_width = 4, row_order = natural, tiling = staged_slices>}
      : tensor<100x129xf32>, tensor<129x70xf32, #CSC> -> tensor<100x70xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<70xf32> -> tensor<100x70xf32>
  %z = sopt.add %y, %bb : tensor<100x70xf32>
  return %z : tensor<100x70xf32>
}

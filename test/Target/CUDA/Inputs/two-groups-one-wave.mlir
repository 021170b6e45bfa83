// Two groups in one kernel with one grid-wide barrier (the log crosses).
func.func @two_groups_one_wave(%x: tensor<256x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<256x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<256x128xf32> -> tensor<256xf32>
  %l = sopt.log %r : tensor<256xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<256xf32> -> tensor<f32>
  %n = sopt.neg %t : tensor<f32>
  return %n : tensor<f32>
}

# Writes a function applying `n` softmaxes in a row over a 64x128 tensor
# (awk -v n=N -f softmax-chain.awk).
BEGIN {
  t = "tensor<64x128xf32>"
  print "func.func @chain(%s0: " t ") -> " t " {"
  for (i = 1; i <= n; i++)
    print "  %s" i " = sopt.softmax %s" i - 1 " dim = 1 : " t
  print "  return %s" n " : " t
  print "}"
}

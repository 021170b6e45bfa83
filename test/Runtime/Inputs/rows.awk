# A 512 x 2048 DLMC pattern (.smtx) for tool-schedules.test: rows of `e`
# entries spread over the columns, every 64th row of `big` entries instead
# when `big` is set (`rows` and `cols` set other sizes; `stagger` moves row
# i's entries right by i * stagger modulo their spacing, so that the rows
# no longer share columns).
BEGIN {
  rows = rows ? rows : 512; cols = cols ? cols : 2048; nnz = 0
  for (i = 0; i < rows; ++i) {
    len[i] = (big && i % 64 == 0) ? big : e
    nnz += len[i]
  }
  printf "%d, %d, %d\n", rows, cols, nnz
  p = 0; printf "0"
  for (i = 0; i < rows; ++i) { p += len[i]; printf " %d", p }
  print ""
  for (i = 0; i < rows; ++i)
    for (j = 0; j < len[i]; ++j)
      printf "%d ", int(j * cols / len[i]) + (stagger ? (i * stagger) % int(cols / len[i]) : 0)
  print ""
}

"""torch.library.opcheck of the SpMM and SDDMM ops (schema, fake
implementation, autograd registration, AOT dispatch) on their CPU
references, and the ops under torch.compile(fullgraph=True)."""

import torch

import sparse_opt  # noqa: F401  (registers the ops)
from sparse_opt import ops

torch.manual_seed(0)
for rows, cols, n in [(9, 7, 5), (1, 13, 3), (6, 1, 2), (17, 33, 1)]:
    a = torch.randn(rows, cols).relu().to_sparse_csr()
    arrays = (a.crow_indices().clone(), a.col_indices().clone(), a.values().clone())
    x = torch.randn(cols, n)
    torch.library.opcheck(torch.ops.sparse_opt.spmm.default, (*arrays, x, cols))
    error = (ops.spmm(a, x) - a.to_dense() @ x).abs().max().item()
    assert error < 1e-5, error
    lhs, rhs = torch.randn(rows, 4), torch.randn(cols, 4)
    torch.library.opcheck(torch.ops.sparse_opt.sddmm.default, (lhs, rhs, *arrays, cols))
    error = (ops.sddmm(lhs, rhs, a).to_dense() - (lhs @ rhs.T) * a.to_dense()).abs().max().item()
    assert error < 1e-5, error

    def layer(p, c, v, x):
        return torch.ops.sparse_opt.spmm(p, c, v, x, cols).relu()

    compiled = torch.compile(layer, fullgraph=True, backend="eager")
    assert torch.allclose(compiled(*arrays, x), (a.to_dense() @ x).relu(), atol=1e-5)
    print(f"{rows}x{cols} n={n}: ok")

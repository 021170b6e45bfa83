"""SpMM and SDDMM as PyTorch custom ops on the project's kernels.

    torch.ops.sparse_opt.spmm(positions, coordinates, values, dense, cols)
        = A @ dense, A the (rows x cols) CSR matrix of those arrays
    torch.ops.sparse_opt.sddmm(lhs, rhs, positions, coordinates, values, cols)
        = the values of (lhs @ rhs.T) * S at S's entries, in S's order

The ops take a CSR matrix as its three arrays (dense tensors), so they
trace under torch.compile(fullgraph=True); `spmm(a, x)` and `sddmm(a, b, s)`
below take `torch.sparse_csr` tensors and unpack them. On CUDA each
(shape, dtype) compiles once through sparse-opt and nvcc (the disk cache of
toolchain.py); on the CPU they run a PyTorch reference. Their fake
implementations give shapes without running anything."""

import ctypes

import torch

from .toolchain import build_library, generate_cuda, poison, preparing
from .types import CSR, Value

_functions = {}


def _function(mlir, name):
    if mlir not in _functions:
        library = ctypes.CDLL(str(build_library(generate_cuda(mlir, name), name)))
        fn = getattr(library, name)
        fn.restype = ctypes.c_int
        _functions[mlir] = (library, fn)
    return _functions[mlir][1]


def _csr_type(rows, cols, dtype):
    return Value("", (rows, cols), dtype, "csr").type


def _spmm_function(rows, cols, n, dtype):
    a = _csr_type(rows, cols, dtype)
    x, y = Value("", (cols, n), dtype).type, Value("", (rows, n), dtype).type
    return _function(f"#CSR = {CSR}\nfunc.func @sopt_spmm(%a: {a}, %x: {x}) -> {y} {{\n"
                     f"  %y = sopt.spmm %a, %x : {a}, {x} -> {y}\n"
                     f"  return %y : {y}\n}}\n", "sopt_spmm")


def _sddmm_function(rows, cols, k, dtype):
    s = _csr_type(rows, cols, dtype)
    a, bt = Value("", (rows, k), dtype).type, Value("", (cols, k), dtype).type
    return _function(f"#CSR = {CSR}\nfunc.func @sopt_sddmm(%a: {a}, %b: {bt}, %s: {s}) -> {s} {{\n"
                     f"  %d = sopt.sddmm %a, %b, %s transpose_rhs : {a}, {bt}, {s} -> {s}\n"
                     f"  return %d : {s}\n}}\n", "sopt_sddmm")


def _check(status, name):
    if status != 0:
        raise RuntimeError(f"sparse_opt: {name} returned CUDA error {status}")


def _entry_rows(positions):
    """The row of each stored entry (the CPU references)."""
    rows = positions.numel() - 1
    return torch.repeat_interleave(torch.arange(rows, device=positions.device),
                                   positions[1:] - positions[:-1])


def _narrow(positions, coordinates):
    return positions.to(torch.int32).contiguous(), coordinates.to(torch.int32).contiguous()


@torch.library.custom_op("sparse_opt::spmm", mutates_args=())
def spmm_csr(positions: torch.Tensor, coordinates: torch.Tensor, values: torch.Tensor,
             dense: torch.Tensor, cols: int) -> torch.Tensor:
    rows = positions.numel() - 1
    n = dense.shape[1]
    if dense.device.type != "cuda":
        if preparing():
            _spmm_function(rows, cols, n, values.dtype)
        products = values.to(torch.float64)[:, None] * dense.to(torch.float64)[coordinates]
        out = torch.zeros((rows, dense.shape[1]), dtype=torch.float64, device=dense.device)
        return out.index_add_(0, _entry_rows(positions), products).to(dense.dtype)
    fn = _spmm_function(rows, cols, n, values.dtype)
    pos, crd = _narrow(positions, coordinates)
    vals, dense = values.contiguous(), dense.contiguous()
    out = poison(torch.empty((rows, n), dtype=dense.dtype, device=dense.device))
    with torch.cuda.device(dense.device):
        _check(fn(ctypes.c_void_p(pos.data_ptr()), ctypes.c_void_p(crd.data_ptr()),
                  ctypes.c_void_p(vals.data_ptr()), ctypes.c_int64(vals.numel()),
                  ctypes.c_void_p(dense.data_ptr()), ctypes.c_void_p(out.data_ptr()),
                  ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)), "spmm")
    return out


@spmm_csr.register_fake
def _(positions, coordinates, values, dense, cols):
    return dense.new_empty((positions.shape[0] - 1, dense.shape[1]))


@torch.library.custom_op("sparse_opt::sddmm", mutates_args=())
def sddmm_csr(lhs: torch.Tensor, rhs: torch.Tensor, positions: torch.Tensor,
              coordinates: torch.Tensor, values: torch.Tensor, cols: int) -> torch.Tensor:
    rows = positions.numel() - 1
    if lhs.device.type != "cuda":
        if preparing():
            _sddmm_function(rows, cols, lhs.shape[1], values.dtype)
        dots = (lhs.to(torch.float64)[_entry_rows(positions)] * rhs.to(torch.float64)[coordinates]).sum(-1)
        return (dots * values.to(torch.float64)).to(values.dtype)
    fn = _sddmm_function(rows, cols, lhs.shape[1], values.dtype)
    pos, crd = _narrow(positions, coordinates)
    lhs, rhs, vals = lhs.contiguous(), rhs.contiguous(), values.contiguous()
    out = poison(torch.empty_like(vals))
    with torch.cuda.device(lhs.device):
        _check(fn(ctypes.c_void_p(lhs.data_ptr()), ctypes.c_void_p(rhs.data_ptr()),
                  ctypes.c_void_p(pos.data_ptr()), ctypes.c_void_p(crd.data_ptr()),
                  ctypes.c_void_p(vals.data_ptr()), ctypes.c_int64(vals.numel()),
                  ctypes.c_void_p(out.data_ptr()),
                  ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)), "sddmm")
    return out


@sddmm_csr.register_fake
def _(lhs, rhs, positions, coordinates, values, cols):
    return torch.empty_like(values)


def spmm(a, x):
    """`a @ x` for a `torch.sparse_csr` matrix `a` and a dense matrix `x`."""
    return torch.ops.sparse_opt.spmm(a.crow_indices(), a.col_indices(), a.values(), x, a.shape[1])


def sddmm(lhs, rhs, pattern):
    """`(lhs @ rhs.T) * pattern` at `pattern`'s entries, as a
    `torch.sparse_csr` tensor with its structure."""
    values = torch.ops.sparse_opt.sddmm(lhs, rhs, pattern.crow_indices(), pattern.col_indices(),
                                        pattern.values(), pattern.shape[1])
    return torch.sparse_csr_tensor(pattern.crow_indices(), pattern.col_indices(), values,
                                   pattern.shape)

"""MLIR spellings of PyTorch tensors: element types, tensor types, the
32-bit CSR/CSC encodings the project's sparse kernels take."""

from dataclasses import dataclass

import torch

ELEMENT_TYPES = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float64: "f64",
    torch.bool: "i1",
    torch.int32: "i32",
    torch.int64: "i64",
}
FLOAT_TYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64)

# The kernels read 32-bit positions and coordinates; torch's int64 index
# arrays are narrowed when the graph is called.
CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>"
CSC = "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 32, crdWidth = 32 }>"


class Unsupported(Exception):
    """A node the dialect cannot express; the message says why (it is
    what the fallback report prints)."""


def element_type(dtype):
    try:
        return ELEMENT_TYPES[dtype]
    except KeyError:
        raise Unsupported(f"element type {dtype} has no sopt spelling") from None


@dataclass(frozen=True)
class Value:
    """An SSA value of the function being built. `layout` is "dense",
    "csr" or "csc" (a CSC value is the transpose of a CSR tensor and
    shares its arrays)."""

    name: str
    shape: tuple
    dtype: torch.dtype
    layout: str = "dense"

    @property
    def type(self):
        dims = "x".join(str(d) for d in self.shape)
        body = f"{dims}x{element_type(self.dtype)}" if self.shape else element_type(self.dtype)
        if self.layout == "csr":
            return f"tensor<{body}, #CSR>"
        if self.layout == "csc":
            return f"tensor<{body}, #CSC>"
        return f"tensor<{body}>"

    @property
    def sparse(self):
        return self.layout != "dense"


def float_literal(value):
    """A float as MLIR parses it (a decimal point is required)."""
    value = float(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise Unsupported(f"constant {value} has no decimal spelling")
    return f"{value:.17e}"


def scalar_literal(value, dtype):
    if dtype == torch.bool:
        return "true" if value else "false"
    if dtype in FLOAT_TYPES:
        return float_literal(value)
    return str(int(value))

"""PyTorch front end of sparse-opt: `import_graph`/`import_program` (FX ->
sopt MLIR), the `sparse_opt` torch.compile backend, and the
`torch.ops.sparse_opt.spmm`/`sddmm` custom ops (docs/PyTorch.md)."""

from .backend import compile_exported, sparse_opt_backend
from .importer import ImportedGraph, import_graph, import_program
from .types import Unsupported
from . import ops  # registers torch.ops.sparse_opt.spmm and sddmm

try:
    from torch._dynamo import register_backend as _register

    _register(sparse_opt_backend, name="sparse_opt")
except Exception:  # already registered through the entry point
    pass

__all__ = ["ImportedGraph", "compile_exported", "Unsupported", "import_graph", "import_program", "sparse_opt_backend"]

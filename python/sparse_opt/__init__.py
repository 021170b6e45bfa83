"""PyTorch front end of sparse-opt: `import_graph`/`import_program` (FX ->
sopt MLIR), the `sparse_opt` torch.compile backend, and the
`torch.ops.sparse_opt.spmm`/`sddmm` custom ops (docs/PyTorch.md)."""

from .backend import compile_exported, sparse_opt_backend
from .importer import ImportedGraph, import_graph, import_program
from .types import Unsupported
from . import ops  # noqa: F401  (registers torch.ops.sparse_opt.spmm and sddmm)


def _register_backend():
    """`torch.compile(backend="sparse_opt")`: an installed package names the
    backend through its entry point (Dynamo loads it on first use); from
    a source tree on PYTHONPATH it is registered here."""
    from importlib.metadata import entry_points

    from torch._dynamo.backends.registry import _COMPILER_FNS, register_backend

    installed = any(e.name == "sparse_opt" for e in entry_points(group="torch_dynamo_backends"))
    if not installed and "sparse_opt" not in _COMPILER_FNS:
        register_backend(sparse_opt_backend, name="sparse_opt")


_register_backend()

__all__ = ["ImportedGraph", "compile_exported", "Unsupported", "import_graph", "import_program", "sparse_opt_backend"]

"""`torch.compile(model, backend="sparse_opt")`.

Dynamo hands over a graph; the parts the dialect expresses are compiled by
sparse-opt and nvcc (once per input shapes: a new shape compiles again,
hits the disk cache the next time), the rest runs in PyTorch. Inference
only: a subgraph called with autograd recording (inputs that require
grad, grad mode on) runs in PyTorch instead. Inputs on the CPU run in
PyTorch too (with SPARSE_OPT_PREPARE=1 their CUDA is still generated and
compiled into the cache, for a GPU machine that has no sparse-opt)."""

import time

import torch

from .importer import import_graph
from .partition import partition
from .runtime import CompiledGraph
from .toolchain import ToolchainError, build_library, generate_cuda, log, preparing
from .types import Unsupported


def _signature(args):
    """What a compiled library depends on: shapes, types, and the pattern of
    a CSR parameter (compiled in; a parameter's arrays are fixed)."""
    def of(a):
        if not isinstance(a, torch.Tensor):
            return ("value", a)
        key = (tuple(a.shape), a.dtype, a.layout, a.device.type)
        if a.layout == torch.sparse_csr and isinstance(a, torch.nn.Parameter):
            key += (a.crow_indices().data_ptr(), a.col_indices().data_ptr(), a._nnz())
        return key
    return tuple(of(a) for a in args)


def _first_error(err):
    """The line that says what went wrong (a compiler's `error:` line)."""
    lines = str(err).splitlines()
    return next((line.strip() for line in lines if "error:" in line), lines[0] if lines else "")


class CompiledSubgraph(torch.nn.Module):
    """A partition: compiled per input signature, called through the C ABI."""

    def __init__(self, gm, name):
        super().__init__()
        self.gm = gm
        self.name = name
        self.compiled = {}

    def _compile(self, args):
        started = time.perf_counter()
        imported = import_graph(self.gm, args, name=self.name)
        entry = generate_cuda(imported.text, self.name, files=imported.files)
        library = build_library(entry, self.name)
        log(f"{self.name} ready in {time.perf_counter() - started:.1f} s")
        return imported, library

    def forward(self, *args):
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        on_gpu = tensors and all(t.is_cuda for t in tensors)
        training = torch.is_grad_enabled() and any(t.requires_grad for t in tensors)
        if not on_gpu or training:
            if not on_gpu and preparing():
                try:
                    self._compile(args)
                except (Unsupported, ToolchainError) as err:
                    log(f"{self.name} would run in PyTorch: {_first_error(err)}")
            return self.gm(*args)
        key = _signature(args)
        if key not in self.compiled:
            try:
                imported, library = self._compile(args)
                self.compiled[key] = CompiledGraph(imported, library)
            except (Unsupported, ToolchainError) as err:
                # What the compiler refuses runs in PyTorch, said once.
                log(f"{self.name} runs in PyTorch: {_first_error(err)}")
                self.compiled[key] = None
        compiled = self.compiled[key]
        return compiled(args) if compiled else self.gm(*args)


def compile_exported(exported):
    """A `torch.export.ExportedProgram` through the same partitioning and
    compilation: the route for `torch.sparse_csr` parameters, which
    torch.compile does not trace (their patterns become compile-time
    constants). Returns a module called like the original."""
    module = exported.module()
    inputs = [n.meta.get("val") for n in module.graph.nodes if n.op == "placeholder"]
    return sparse_opt_backend(module, inputs, returns_module=True)


def sparse_opt_backend(gm, example_inputs, **options):
    fused, names, report = partition(gm, example_inputs)
    log(report)
    for name in names:
        sub = getattr(fused, name)
        setattr(fused, name, CompiledSubgraph(sub, "sopt_graph"))
    fused.recompile()
    return fused if options.get("returns_module") else fused.forward

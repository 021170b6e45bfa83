"""Splitting a graph into the parts sparse-opt compiles and the parts left
to PyTorch, with a one-line report of what was left and why."""

from collections import Counter

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from .importer import GraphImporter, SparseInput, canonical_name, node_meta
from .types import Unsupported, Value

# Partitions of only these compute nothing: left to PyTorch (they are free
# there) rather than compiled into a copy kernel.
LAYOUT_ONLY = {"view", "reshape", "_unsafe_view", "flatten", "unflatten", "unsqueeze",
               "squeeze", "permute", "transpose", "t", "expand", "contiguous", "clone",
               "detach", "getitem", "dropout", "to", "float", "_assert_tensor_metadata",
               "swapaxes", "expand_as", "view_as", "alias"}


def _hint(x):
    """A symbolic size as the value it had when Dynamo traced: whether a
    node is supported does not depend on it (each call compiles for its
    own sizes)."""
    if isinstance(x, torch.SymInt):
        return x.node.hint if x.node.has_hint() else None
    if isinstance(x, (torch.SymFloat, torch.SymBool)):
        return None
    return x


def _shape(meta):
    shape = tuple(_hint(d) for d in meta.shape)
    if None in shape:
        raise Unsupported("a size without an example value")
    return shape


def _operand_from_meta(importer, node, index):
    """A value standing for `node`'s result when a consumer is tried on
    its own."""
    if node.op == "get_attr":
        tensor = importer.gm
        for part in node.target.split("."):
            tensor = getattr(tensor, part)
        return importer.attribute(node.target, tensor) if isinstance(tensor, torch.Tensor) else tensor
    meta = node_meta(node)
    if isinstance(meta, torch.Tensor):
        if meta.layout == torch.sparse_csr:
            return SparseInput(_shape(meta), meta.dtype, ("input", index))
        return importer.builder.argument(_shape(meta), meta.dtype, ("input", index))
    if isinstance(meta, (tuple, list)):
        return type(meta)(importer.builder.argument(_shape(m), m.dtype, ("input", index))
                          if isinstance(m, torch.Tensor) else _hint(m) for m in meta)
    if meta is None:
        raise Unsupported(f"no shape known for {node.name}")
    return _hint(meta)


class SoptSupport(OperatorSupportBase):
    """A node is supported when its lowering accepts it on its own."""

    def __init__(self, gm):
        self.gm = gm
        self.reasons = {}

    def is_node_supported(self, submodules, node):
        if node.op not in ("call_function", "call_method", "call_module"):
            return False
        importer = GraphImporter(self.gm)
        try:
            inputs = {}
            for i, n in enumerate(node.all_input_nodes):
                inputs[n] = _operand_from_meta(importer, n, i)
            args = torch.fx.node.map_aggregate(
                node.args, lambda a: inputs[a] if isinstance(a, torch.fx.Node) else a)
            kwargs = torch.fx.node.map_aggregate(
                node.kwargs, lambda a: inputs[a] if isinstance(a, torch.fx.Node) else a)
            result = importer.lower(node, args, kwargs)
        except Unsupported as err:
            self.reasons[node] = str(err)
            return False
        ok = isinstance(result, Value) or (
            isinstance(result, (tuple, list)) and all(isinstance(r, Value) for r in result))
        if not ok and result is not None:
            # Sizes and other Python values: computed by PyTorch's graph.
            return False
        return ok


def partition(gm, example_inputs):
    """`gm` with each compilable part moved into a submodule `sopt_<i>`;
    returns the graph, the submodule names and the fallback report."""
    if any(node_meta(n) is None and n.users for n in gm.graph.nodes
           if n.op in ("placeholder", "call_function", "call_method", "call_module")):
        from torch.fx.passes.fake_tensor_prop import FakeTensorProp
        FakeTensorProp(gm).propagate(*example_inputs)
    support = SoptSupport(gm)
    partitioner = CapabilityBasedPartitioner(gm, support, allows_single_node_partition=True)
    partitions = [p for p in partitioner.propose_partitions()
                  if any(canonical_name(n) not in LAYOUT_ONLY for n in p.nodes)]
    compiled_ops = sum(len(p.nodes) for p in partitions)
    fused = partitioner.fuse_partitions(partitions, prefix="sopt_") if partitions else gm
    names = [n.target for n in fused.graph.nodes
             if n.op == "call_module" and n.target.startswith("sopt_")]
    left = Counter(f"{canonical_name(n)} ({reason})" for n, reason in support.reasons.items())
    report = f"sparse-opt takes {len(names)} subgraph(s) of {compiled_ops} op(s)"
    if left:
        report += "; left to PyTorch: " + ", ".join(
            f"{what}" + (f" x{count}" if count > 1 else "") for what, count in left.items())
    return fused, names, report

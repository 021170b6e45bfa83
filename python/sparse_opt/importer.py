"""torch.fx graph -> one `func.func` of sopt ops.

The graph comes from Dynamo (torch functions, Tensor methods, Python
operators, parameters as inputs), from torch.export (ATen ops) or from
torch.fx.symbolic_trace (modules as `call_module`). Shapes are static: the
importer is given the inputs (tensors, fake or real, or Python values for
non-tensor inputs) and asks PyTorch for each node's result shape by running
the node on meta tensors. Dense tensor inputs become arguments in order;
a `torch.sparse_csr` input or parameter becomes a `#sparse_tensor.encoding`
argument; module parameters and `get_attr` tensors become arguments too,
except tiny ones, which become constants."""

from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.node import map_aggregate

from .builder import FunctionBuilder
from .lowerings import BOOLEAN_RESULTS, LOWERINGS, OPERATOR_NAMES
from .patterns import smtx
from .types import FLOAT_TYPES, Unsupported, Value

# Parameters of at most this many elements are spelled into the IR.
CONSTANT_ELEMENTS = 16


@dataclass(frozen=True)
class SparseInput:
    """A CSR tensor of the graph, declared as an argument where a product
    uses it (as CSR, or as the CSC tensor of its transpose)."""

    shape: tuple
    dtype: torch.dtype
    source: tuple
    sparse: bool = True
    pattern: str = None  # the .smtx file of a parameter's pattern


@dataclass
class ImportedGraph:
    """The MLIR text and how to call it: `arguments` lists, per function
    argument, its source (("input", i) or ("attr", name)) and layout;
    `results` the result types; `output` the graph's output structure with
    each result replaced by its index (a `ResultIndex`)."""

    name: str
    text: str
    arguments: list
    results: list
    output: object
    attributes: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)  # name -> text, beside the MLIR


@dataclass(frozen=True)
class ResultIndex:
    index: int


def canonical_name(node):
    target = node.target
    if node.op == "call_method":
        return target
    if isinstance(target, torch._ops.OpOverload):
        return target.overloadpacket.__name__
    if isinstance(target, torch._ops.OpOverloadPacket):
        return target.__name__
    if target in OPERATOR_NAMES:
        return OPERATOR_NAMES[target]
    return getattr(target, "__name__", str(target))


def node_meta(node):
    return node.meta.get("val", node.meta.get("example_value"))


def _meta_like(x):
    if isinstance(x, (Value, SparseInput)):
        return torch.empty(x.shape, dtype=x.dtype, device="meta")
    if isinstance(x, torch.Tensor):
        return torch.empty(x.shape, dtype=x.dtype, device="meta")
    return x


def _contains_tensor(x):
    found = []
    map_aggregate(x, lambda v: found.append(v) if isinstance(v, torch.Tensor) else None)
    return bool(found)


# call_module: the functional form of the modules the importer knows.
def _module_call(module):
    if isinstance(module, nn.Linear):
        return "linear", F.linear, lambda x: (x, module.weight, module.bias), {}
    if isinstance(module, nn.LayerNorm):
        return ("layer_norm", F.layer_norm,
                lambda x: (x, module.normalized_shape, module.weight, module.bias, module.eps), {})
    if isinstance(module, nn.RMSNorm):
        return ("rms_norm", F.rms_norm,
                lambda x: (x, module.normalized_shape, module.weight, module.eps), {})
    if isinstance(module, nn.GELU):
        return "gelu", F.gelu, lambda x: (x,), {"approximate": module.approximate}
    for cls, name, fn in [(nn.ReLU, "relu", F.relu), (nn.SiLU, "silu", F.silu),
                          (nn.Sigmoid, "sigmoid", torch.sigmoid), (nn.Tanh, "tanh", torch.tanh)]:
        if isinstance(module, cls):
            return name, fn, lambda x: (x,), {}
    if isinstance(module, nn.Softmax):
        return "softmax", F.softmax, lambda x: (x, module.dim), {}
    if isinstance(module, nn.Dropout):
        return ("dropout", F.dropout, lambda x: (x, module.p, module.training and module.p > 0), {})
    if isinstance(module, nn.Identity):
        return "contiguous", lambda x: x, lambda x: (x,), {}
    raise Unsupported(f"module {type(module).__name__}")


class GraphImporter:
    def __init__(self, gm, name="graph"):
        self.gm = gm
        self.builder = FunctionBuilder(name)
        self.attributes = {}
        self.files = {}
        self._attribute_values = {}

    def attribute(self, qualname, tensor):
        """A parameter or buffer of the module as an operand: a constant
        when tiny, else an argument the call passes (`attributes`)."""
        if qualname not in self._attribute_values:
            self._attribute_values[qualname] = self._attribute_operand(qualname, tensor)
        return self._attribute_values[qualname]

    def _attribute_operand(self, qualname, tensor):
        if tensor is None:
            return None
        if (tensor.layout == torch.strided and tensor.dtype in FLOAT_TYPES
                and 0 < tensor.dim() and tensor.numel() <= CONSTANT_ELEMENTS):
            return self.builder.dense_constant(tensor.detach().cpu())
        self.attributes[qualname] = tensor
        if tensor.layout == torch.sparse_csr:
            name, text = smtx(tensor)
            self.files[name] = text
            return SparseInput(tuple(tensor.shape), tensor.dtype, ("attr", qualname), pattern=name)
        return self.builder.argument(tensor.shape, tensor.dtype, ("attr", qualname))

    def placeholder(self, index, example):
        if not isinstance(example, torch.Tensor):
            return example  # a Python value: bound at import time
        if example.layout == torch.sparse_csr:
            if example.dim() != 2:
                raise Unsupported("a batched CSR tensor")
            pattern = None
            if isinstance(example, nn.Parameter) and not isinstance(
                    example, torch._subclasses.FakeTensor):
                # A parameter's pattern is fixed: compile for it.
                pattern, text = smtx(example)
                self.files[pattern] = text
            return SparseInput(tuple(example.shape), example.dtype, ("input", index), pattern=pattern)
        if example.layout != torch.strided:
            raise Unsupported(f"an input of layout {example.layout}")
        return self.builder.argument(example.shape, example.dtype, ("input", index))

    def lower(self, node, args, kwargs):
        """`node`'s value: Values for tensors, Python values otherwise."""
        meta_fn = node.target
        name = canonical_name(node)
        if node.op == "call_module" and node.target == "_guards_fn":
            return None  # torch.export's checks of the inputs: nothing to compute
        if node.op == "call_module":
            module = self.gm.get_submodule(node.target)
            name, meta_fn, operands, kwargs = _module_call(module)
            params = {id(p): f"{node.target}.{n}" for n, p in module.named_parameters(recurse=False)}
            args = tuple(self.attribute(params[id(a)], a) if isinstance(a, torch.Tensor) else a
                         for a in operands(*args))
        elif node.op == "call_method":
            method = node.target
            meta_fn = lambda self_, *a, **k: getattr(self_, method)(*a, **k)  # noqa: E731
        meta_args = map_aggregate(args, _meta_like)
        meta_kwargs = map_aggregate(kwargs, _meta_like)
        try:
            out = meta_fn(*meta_args, **meta_kwargs)
        except Exception as err:
            raise Unsupported(f"{name}: PyTorch could not infer its result ({type(err).__name__})")
        if not _contains_tensor(out) and name not in LOWERINGS:
            return out  # sizes, shapes, dims: Python values
        if name not in LOWERINGS:
            raise Unsupported(f"no sopt lowering for {name}")
        if (isinstance(out, torch.Tensor) and out.dtype not in FLOAT_TYPES
                and name != "getitem" and name not in BOOLEAN_RESULTS):
            raise Unsupported(f"{name} producing {out.dtype}")
        return LOWERINGS[name](self.builder, out, *args, **kwargs)

    def run(self, inputs):
        env = {}
        placeholders = 0
        output = None
        for node in self.gm.graph.nodes:
            if node.op == "placeholder":
                env[node] = self.placeholder(placeholders, inputs[placeholders])
                placeholders += 1
            elif node.op == "get_attr":
                tensor = self.gm
                for part in node.target.split("."):
                    tensor = getattr(tensor, part)
                env[node] = self.attribute(node.target, tensor) if isinstance(
                    tensor, torch.Tensor) else tensor
            elif node.op == "output":
                output = node.args[0]
            else:
                args = map_aggregate(node.args, lambda a: env[a] if isinstance(a, torch.fx.Node) else a)
                kwargs = map_aggregate(node.kwargs,
                                       lambda a: env[a] if isinstance(a, torch.fx.Node) else a)
                env[node] = self.lower(node, args, kwargs)
        results = []

        def result(a):
            if not isinstance(a, torch.fx.Node):
                return a
            value = env[a]
            if isinstance(value, SparseInput) or (isinstance(value, Value) and value.name.startswith("%arg")):
                raise Unsupported("the graph returns an input unchanged")
            if not isinstance(value, Value):
                return value
            results.append(value)
            return ResultIndex(len(results) - 1)

        structure = map_aggregate(output, result)
        if not results:
            raise Unsupported("the graph computes no tensor")
        return ImportedGraph(self.builder.name, self.builder.text(results),
                             [(v.layout, source) for v, source in self.builder.arguments],
                             [(v.shape, v.dtype) for v in results], structure, self.attributes,
                             self.files)


def import_graph(gm, inputs, name="graph"):
    """Imports `gm` for `inputs` (one per placeholder: tensors, real, fake
    or meta, or Python values). Raises `Unsupported` naming the first node
    the dialect cannot express."""
    importer = GraphImporter(gm, name)
    return importer.run(list(inputs))


def import_program(exported, name="graph"):
    """An `torch.export.ExportedProgram`, its parameters and buffers as
    arguments (in the order of its graph's placeholders)."""
    inputs = [node_meta(n) for n in exported.graph_module.graph.nodes if n.op == "placeholder"]
    return import_graph(exported.graph_module, inputs, name)

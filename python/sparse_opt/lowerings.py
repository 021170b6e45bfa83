"""One lowering per PyTorch operator the dialect expresses.

A lowering is registered under the names the operator has in the graphs
Dynamo and torch.export produce (torch functions, Tensor methods and ATen
overload packets share a name and, for the arguments used here, a
signature). It receives the builder `b`, the node's result as a meta
tensor `out` (shape and dtype, computed by PyTorch itself), and the
node's arguments, where tensors are `Value`s. It raises `Unsupported`
with a reason for what it cannot express."""

import math
import operator

import torch

from .types import FLOAT_TYPES, Unsupported, Value, float_literal

LOWERINGS = {}


def lowering(*names):
    def register(fn):
        for name in names:
            LOWERINGS[name] = fn
        return fn
    return register


def _dense(value, what):
    if getattr(value, "sparse", False):
        raise Unsupported(f"{what} of a sparse tensor")
    if not isinstance(value, Value):
        raise Unsupported(f"{what} of a non-tensor")
    return value


def _operand(b, x, out):
    """A tensor or a Python number as an operand of `out`'s shape and
    element type."""
    if isinstance(x, Value):
        return b.broadcast(b.cast(_dense(x, "an elementwise op"), out.dtype), out.shape)
    if isinstance(x, (int, float, bool)):
        return b.constant(x, out.shape, out.dtype)
    raise Unsupported(f"operand of type {type(x).__name__}")


def _float_out(out, what):
    if out.dtype not in FLOAT_TYPES:
        raise Unsupported(f"{what} producing {out.dtype}")


# --- elementwise --------------------------------------------------------

def _binary(op):
    def lower(b, out, lhs, rhs, alpha=1):
        _float_out(out, op)
        rhs_operand = _operand(b, rhs, out)
        if alpha != 1:
            rhs_operand = b.binary("mul", rhs_operand, b.constant(alpha, out.shape, out.dtype))
        return b.binary(op, _operand(b, lhs, out), rhs_operand)
    return lower


lowering("add", "iadd", "__add__", "__radd__")(_binary("add"))
lowering("sub", "isub", "__sub__")(_binary("sub"))
lowering("mul", "imul", "__mul__", "__rmul__")(_binary("mul"))
lowering("maximum", "fmax")(_binary("max"))
lowering("minimum", "fmin")(_binary("min"))


@lowering("rsub", "__rsub__")
def _rsub(b, out, lhs, rhs, alpha=1):
    # rhs - alpha * lhs
    return _binary("sub")(b, out, rhs, lhs, alpha=alpha)


# --- comparisons and choices ------------------------------------------------

# Lowerings whose result is boolean (the importer otherwise wants floats).
BOOLEAN_RESULTS = set()


def _compare(direction):
    def lower(b, out, lhs, rhs):
        # Compared in the operands' promoted type, which must be a float.
        dtype = torch.result_type(*(torch.empty((), dtype=x.dtype) if isinstance(x, Value) else x
                                    for x in (lhs, rhs)))
        if dtype not in FLOAT_TYPES:
            raise Unsupported(f"a comparison of {dtype} values")
        like = torch.empty(out.shape, dtype=dtype, device="meta")
        left, right = _operand(b, lhs, like), _operand(b, rhs, like)
        return b.emit(f"sopt.compare {direction}, {left.name}, {right.name} : {left.type}",
                      out.shape, torch.bool)
    return lower


for _name, _direction in [("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"), ("gt", "gt"),
                          ("ge", "ge"), ("__eq__", "eq"), ("__ne__", "ne"), ("__lt__", "lt"),
                          ("__le__", "le"), ("__gt__", "gt"), ("__ge__", "ge")]:
    lowering(_name)(_compare(_direction))
    BOOLEAN_RESULTS.add(_name)


def _condition(b, condition, shape):
    if not isinstance(condition, Value) or condition.dtype != torch.bool:
        raise Unsupported("a condition that is not a boolean tensor")
    return b.broadcast(condition, shape)


def _select(b, out, condition, on_true, on_false):
    _float_out(out, "a choice")
    c = _condition(b, condition, out.shape)
    t, f = _operand(b, on_true, out), _operand(b, on_false, out)
    return b.emit(f"sopt.select {c.name}, {t.name}, {f.name} : {t.type}", out.shape, out.dtype)


@lowering("where")
def _where(b, out, condition, input=None, other=None):
    if input is None:
        raise Unsupported("where(condition) (indices)")
    return _select(b, out, condition, input, other)


@lowering("masked_fill")
def _masked_fill(b, out, input, mask, value):
    return _select(b, out, mask, value, input)


@lowering("div", "truediv", "itruediv", "__truediv__", "true_divide")
def _div(b, out, lhs, rhs, rounding_mode=None):
    if rounding_mode is not None:
        raise Unsupported(f"division with rounding_mode={rounding_mode!r}")
    _float_out(out, "div")
    if isinstance(rhs, (int, float)) and rhs != 0:
        return b.binary("mul", _operand(b, lhs, out), b.constant(1.0 / rhs, out.shape, out.dtype))
    return b.binary("div", _operand(b, lhs, out), _operand(b, rhs, out))


@lowering("pow", "__pow__")
def _pow(b, out, base, exponent):
    _float_out(out, "pow")
    if exponent == 2:
        x = _operand(b, base, out)
        return b.binary("mul", x, x)
    if exponent == 0.5:
        return b.unary("sqrt", _operand(b, base, out))
    return b.binary("pow", _operand(b, base, out), _operand(b, exponent, out))


def _unary(op):
    def lower(b, out, input, *rest, **kwargs):
        _float_out(out, op)
        return b.unary(op, _operand(b, input, out))
    return lower


for _name, _op in [("neg", "neg"), ("__neg__", "neg"), ("abs", "abs"), ("exp", "exp"),
                   ("log", "log"), ("sqrt", "sqrt"), ("rsqrt", "rsqrt"), ("tanh", "tanh"),
                   ("sigmoid", "sigmoid"), ("erf", "erf"), ("reciprocal", "reciprocal"),
                   ("relu", "relu")]:
    lowering(_name)(_unary(_op))


@lowering("gelu")
def _gelu(b, out, input, approximate="none"):
    _float_out(out, "gelu")
    if approximate not in ("none", "tanh"):
        raise Unsupported(f"gelu approximation {approximate!r}")
    x = _operand(b, input, out)
    spelled = " approximation = tanh" if approximate == "tanh" else ""
    return b.emit(f"sopt.gelu {x.name}{spelled} : {x.type}", x.shape, x.dtype)


@lowering("silu")
def _silu(b, out, input, inplace=False):
    _float_out(out, "silu")
    x = _operand(b, input, out)
    return b.binary("mul", x, b.unary("sigmoid", x))


@lowering("square")
def _square(b, out, input):
    x = _operand(b, input, out)
    return b.binary("mul", x, x)


# --- no computation ------------------------------------------------------

@lowering("contiguous", "clone", "detach", "alias", "lift_fresh_copy", "_assert_tensor_metadata")
def _same(b, out, input, *rest, **kwargs):
    return input if out is not None else None


@lowering("dropout", "feature_dropout", "alpha_dropout")
def _dropout(b, out, input, p=0.5, training=False, inplace=False):
    if training and p > 0:
        raise Unsupported("dropout in training mode (the backend compiles inference)")
    return input


@lowering("to", "type", "float", "half", "bfloat16", "double", "type_as", "_to_copy")
def _convert(b, out, input, *rest, **kwargs):
    return b.cast(_dense(input, "a conversion"), out.dtype)


# --- layout ---------------------------------------------------------------

@lowering("view", "reshape", "_unsafe_view", "flatten", "unflatten", "unsqueeze", "squeeze",
          "view_as", "reshape_as")
def _reshape(b, out, input, *rest, **kwargs):
    return b.reshape(_dense(input, "a reshape"), out.shape)


@lowering("permute")
def _permute(b, out, input, *dims):
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    rank = len(input.shape)
    return b.transpose(_dense(input, "a permute"), [d % rank for d in dims])


@lowering("transpose", "swapaxes", "swapdims")
def _transpose(b, out, input, dim0, dim1):
    rank = len(input.shape)
    perm = list(range(rank))
    perm[dim0 % rank], perm[dim1 % rank] = perm[dim1 % rank], perm[dim0 % rank]
    return b.transpose(_dense(input, "a transpose"), perm)


@lowering("t")
def _t(b, out, input):
    return b.transpose(_dense(input, "a transpose"), list(range(len(input.shape)))[::-1])


@lowering("expand", "expand_as", "broadcast_to")
def _expand(b, out, input, *rest, **kwargs):
    return b.broadcast(_dense(input, "an expand"), out.shape)


# --- reductions -------------------------------------------------------------

def _reduction(kind):
    def lower(b, out, input, dim=None, keepdim=False, dtype=None, **kwargs):
        _float_out(out, kind)
        x = b.cast(_dense(input, f"a {kind} reduction"), out.dtype)
        if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
            dim = list(range(len(x.shape)))
        elif isinstance(dim, int):
            dim = [dim]
        return b.reduce(kind, x, list(dim), bool(keepdim))
    return lower


lowering("sum")(_reduction("sum"))
lowering("mean")(_reduction("mean"))
lowering("amax")(_reduction("max"))
lowering("amin")(_reduction("min"))


# --- normalisations -----------------------------------------------------------

def _softmax_input(b, out, input):
    _float_out(out, "softmax")
    return b.cast(_dense(input, "a softmax"), out.dtype)


def _along_last(b, x, dim, body):
    """`body` applied along the last dimension: the emitter reduces rows,
    so another dimension is moved last and back."""
    rank = len(x.shape)
    d = dim % rank
    if d == rank - 1:
        return body(x, d)
    perm = list(range(rank))
    perm[d], perm[-1] = perm[-1], perm[d]
    return b.transpose(body(b.transpose(x, perm), rank - 1), perm)


@lowering("softmax", "_softmax")
def _softmax(b, out, input, dim=None, dtype=None, **kwargs):
    x = _softmax_input(b, out, input)
    return _along_last(b, x, dim, lambda t, d: b.emit(
        f"sopt.softmax {t.name} dim = {d} : {t.type}", t.shape, t.dtype))


@lowering("log_softmax", "_log_softmax")
def _log_softmax(b, out, input, dim=None, dtype=None, **kwargs):
    def body(x, d):
        peak = b.broadcast(b.reduce("max", x, [d], True), x.shape)
        shifted = b.binary("sub", x, peak)
        total = b.reduce("sum", b.unary("exp", shifted), [d], True)
        return b.binary("sub", shifted, b.broadcast(b.unary("log", total), x.shape))
    return _along_last(b, _softmax_input(b, out, input), dim, body)


def _norm_operands(b, out, input, normalized_shape, vectors):
    """Normalising over several trailing dimensions is normalising over
    their product: the input and the affine vectors are flattened."""
    _float_out(out, "a normalisation")
    x = _dense(input, "a normalisation")
    count = len(normalized_shape)
    if tuple(x.shape[len(x.shape) - count:]) != tuple(normalized_shape):
        raise Unsupported("normalized_shape is not the input's trailing shape")
    width = math.prod(normalized_shape)
    flat = b.reshape(x, x.shape[:len(x.shape) - count] + (width,)) if count > 1 else x
    flat_vectors = [None if v is None else
                    b.reshape(b.cast(_dense(v, "an affine vector"), x.dtype), (width,))
                    for v in vectors]
    return flat, flat_vectors


@lowering("layer_norm")
def _layer_norm(b, out, input, normalized_shape, weight=None, bias=None, eps=1e-5, *rest):
    x, (scale, shift) = _norm_operands(b, out, input, normalized_shape, [weight, bias])
    text = f"sopt.layer_norm {x.name}"
    if scale is not None:
        text += f" scale({scale.name} : {scale.type})"
    if shift is not None:
        text += f" bias({shift.name} : {shift.type})"
    y = b.emit(f"{text} epsilon = {float_literal(eps)} : {x.type}", x.shape, x.dtype)
    return b.reshape(y, out.shape)


@lowering("rms_norm")
def _rms_norm(b, out, input, normalized_shape, weight=None, eps=None):
    x, (scale,) = _norm_operands(b, out, input, normalized_shape, [weight])
    if eps is None:  # PyTorch's default
        eps = torch.finfo(out.dtype).eps
    text = f"sopt.rms_norm {x.name}"
    if scale is not None:
        text += f" scale({scale.name} : {scale.type})"
    y = b.emit(f"{text} epsilon = {float_literal(eps)} : {x.type}", x.shape, x.dtype)
    return b.reshape(y, out.shape)


# --- products -----------------------------------------------------------------

def _matmul_2d(b, lhs, rhs, dtype, transpose_rhs=False):
    m = lhs.shape[0]
    n = rhs.shape[0] if transpose_rhs else rhs.shape[1]
    result = Value("", (m, n), dtype)
    flag = " transpose_rhs" if transpose_rhs else ""
    return b.emit(f"sopt.matmul {lhs.name}, {rhs.name}{flag} : {lhs.type}, {rhs.type} -> {result.type}",
                  (m, n), dtype)


def _spmm(b, lhs, rhs, dtype):
    m = lhs.shape[0]
    n = rhs.shape[1]
    result = Value("", (m, n), dtype)
    return b.emit(f"sopt.spmm {lhs.name}, {rhs.name} : {lhs.type}, {rhs.type} -> {result.type}",
                  (m, n), dtype)


@lowering("linear")
def _linear(b, out, input, weight, bias=None):
    x = _dense(input, "a linear layer's input")
    _float_out(out, "linear")
    rows = math.prod(x.shape[:-1])
    flat = b.reshape(x, (rows, x.shape[-1])) if len(x.shape) != 2 else x
    if getattr(weight, "sparse", False):
        y = _spmm(b, flat, b.sparse_argument(weight, transposed=True), out.dtype)
    else:
        y = _matmul_2d(b, flat, _dense(weight, "a linear layer's weight"), out.dtype,
                       transpose_rhs=True)
    if bias is not None:
        y = b.binary("add", y, b.broadcast(_dense(bias, "a bias"), y.shape))
    return b.reshape(y, out.shape)


@lowering("addmm")
def _addmm(b, out, bias, lhs, rhs, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        raise Unsupported("addmm with beta or alpha")
    y = _matmul_2d(b, _dense(lhs, "a matmul"), _dense(rhs, "a matmul"), out.dtype)
    return b.binary("add", y, b.broadcast(_dense(bias, "a bias"), y.shape))


@lowering("mm", "matmul", "bmm", "__matmul__")
def _matmul(b, out, lhs, rhs):
    _float_out(out, "matmul")
    if getattr(lhs, "sparse", False) or getattr(rhs, "sparse", False):
        if len(lhs.shape) != 2 or len(rhs.shape) != 2:
            raise Unsupported("a sparse product of other than two matrices")
        left = b.sparse_argument(lhs, False) if lhs.sparse else lhs
        right = b.sparse_argument(rhs, False) if rhs.sparse else rhs
        return _spmm(b, left, right, out.dtype)
    lhs, rhs = _dense(lhs, "a matmul"), _dense(rhs, "a matmul")
    if len(lhs.shape) < 2 or len(rhs.shape) < 2:
        raise Unsupported("a matmul with a vector operand")
    if len(rhs.shape) == 2:  # [..., m, k] x [k, n]: one matrix product
        rows = math.prod(lhs.shape[:-1])
        y = _matmul_2d(b, b.reshape(lhs, (rows, lhs.shape[-1])), rhs, out.dtype)
        return b.reshape(y, out.shape)
    batch = tuple(out.shape[:-2])
    lhs = b.broadcast(lhs, batch + lhs.shape[-2:])
    rhs = b.broadcast(rhs, batch + rhs.shape[-2:])
    result = Value("", out.shape, out.dtype)
    return b.emit(f"sopt.matmul {lhs.name}, {rhs.name} : {lhs.type}, {rhs.type} -> {result.type}",
                  out.shape, out.dtype)


@lowering("scaled_dot_product_attention")
def _attention(b, out, query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
               scale=None, enable_gqa=False):
    _float_out(out, "attention")
    if dropout_p:
        raise Unsupported("attention with dropout (the backend compiles inference)")
    q, k, v = (_dense(t, "attention") for t in (query, key, value))
    if len(q.shape) < 3:
        raise Unsupported("attention on fewer than three dimensions")
    batch = tuple(out.shape[:-2])
    if enable_gqa and k.shape[:-2] != batch:
        raise Unsupported("grouped-query attention with fewer key heads")
    k = b.broadcast(k, batch + k.shape[-2:])
    v = b.broadcast(v, batch + v.shape[-2:])
    text = f"sopt.attention {q.name}, {k.name}, {v.name}"
    if attn_mask is not None:
        mask = _dense(attn_mask, "an attention mask")
        if mask.dtype != torch.bool:
            mask = b.cast(mask, q.dtype)
        mask = b.broadcast(mask, batch + (q.shape[-2], k.shape[-2]))
        text += f" mask({mask.name} : {mask.type})"
    if is_causal:
        if attn_mask is not None:
            raise Unsupported("attention with both a mask and is_causal")
        text += " causal"
    if scale is not None:
        text += f" scale = {float_literal(scale)}"
    return b.emit(f"{text} : {q.type}, {k.type}, {v.type} -> {Value('', out.shape, out.dtype).type}",
                  out.shape, out.dtype)


@lowering("getitem")
def _getitem(b, out, container, index):
    if isinstance(container, (tuple, list)):
        return container[index]
    raise Unsupported("tensor indexing (slices and gathers are left to PyTorch)")


# Python operators in Dynamo graphs, by the name the table uses.
OPERATOR_NAMES = {
    operator.add: "add", operator.iadd: "add", operator.sub: "sub", operator.isub: "sub",
    operator.mul: "mul", operator.imul: "mul", operator.truediv: "truediv",
    operator.itruediv: "truediv", operator.neg: "neg", operator.pow: "pow",
    operator.matmul: "matmul", operator.getitem: "getitem", operator.eq: "eq",
    operator.ne: "ne", operator.lt: "lt", operator.le: "le", operator.gt: "gt", operator.ge: "ge",
}

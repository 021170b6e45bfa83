"""Writes one `func.func` of sopt ops: arguments, SSA values, and the few
shape-changing helpers every lowering needs (broadcast, cast, reshape)."""

import math

from .types import CSC, CSR, FLOAT_TYPES, Unsupported, Value, element_type, scalar_literal


class FunctionBuilder:
    def __init__(self, name):
        self.name = name
        self.arguments = []   # (Value, ArgumentSource)
        self.lines = []
        self._next = 0
        self._sparse = {}
        self._argument_attributes = {}

    # --- arguments and values ------------------------------------------
    def argument(self, shape, dtype, source, layout="dense"):
        element_type(dtype)
        value = Value(f"%arg{len(self.arguments)}", tuple(shape), dtype, layout)
        self.arguments.append((value, source))
        return value

    def sparse_argument(self, sparse, transposed):
        """A sparse graph input (`SparseInput`) as the CSR tensor it is, or
        as the CSC tensor of its transpose (the same four arrays)."""
        key = (sparse.source, transposed)
        if key not in self._sparse:
            if sparse.dtype not in FLOAT_TYPES:
                raise Unsupported(f"sparse values of {sparse.dtype}")
            shape = sparse.shape[::-1] if transposed else sparse.shape
            value = self.argument(shape, sparse.dtype, sparse.source, "csc" if transposed else "csr")
            if sparse.pattern:
                # A CSC argument's file is that of its transpose: the CSR
                # tensor's own (docs/Sparse.md).
                self._argument_attributes[value.name] = f'{{sopt.sparsity_pattern = "{sparse.pattern}"}}'
            self._sparse[key] = value
        return self._sparse[key]

    def emit(self, text, shape, dtype, layout="dense"):
        value = Value(f"%{self._next}", tuple(int(d) for d in shape), dtype, layout)
        self._next += 1
        self.lines.append(f"  {value.name} = {text}")
        return value

    # --- helpers shared by the lowerings --------------------------------
    def constant(self, scalar, shape, dtype):
        if any(d == 0 for d in shape):
            raise Unsupported("a zero-sized constant")
        result = Value("", tuple(shape), dtype)
        return self.emit(f"sopt.constant dense<{scalar_literal(scalar, dtype)}> : {result.type}",
                         shape, dtype)

    def dense_constant(self, tensor):
        """A small tensor spelled out element by element."""
        dtype = tensor.dtype
        result = Value("", tuple(tensor.shape), dtype)

        def spell(x):
            if isinstance(x, list):
                return "[" + ", ".join(spell(e) for e in x) + "]"
            return scalar_literal(x, dtype)

        return self.emit(f"sopt.constant dense<{spell(tensor.tolist())}> : {result.type}",
                         tensor.shape, dtype)

    def cast(self, value, dtype):
        if value.dtype == dtype:
            return value
        self.require_dense(value, "a cast")
        target = Value("", value.shape, dtype)
        return self.emit(f"sopt.cast {value.name} : {value.type} to {target.type}",
                         value.shape, dtype)

    def broadcast(self, value, shape):
        """PyTorch broadcasting: trailing dimensions align; a size-1
        dimension stretches."""
        shape = tuple(shape)
        if value.shape == shape:
            return value
        self.require_dense(value, "a broadcast")
        offset = len(shape) - len(value.shape)
        if offset < 0:
            raise Unsupported(f"cannot broadcast {list(value.shape)} to {list(shape)}")
        for i, d in enumerate(value.shape):
            if d not in (1, shape[offset + i]):
                raise Unsupported(f"cannot broadcast {list(value.shape)} to {list(shape)}")
        if not value.shape:
            raise Unsupported("a rank-0 tensor operand")
        dims = ", ".join(str(offset + i) for i in range(len(value.shape)))
        target = Value("", shape, value.dtype)
        return self.emit(f"sopt.broadcast {value.name} dims = [{dims}] : {value.type} -> {target.type}",
                         shape, value.dtype)

    def reshape(self, value, shape):
        shape = tuple(int(d) for d in shape)
        if value.shape == shape:
            return value
        self.require_dense(value, "a reshape")
        if math.prod(shape) != math.prod(value.shape):
            raise Unsupported(f"reshape of {list(value.shape)} to {list(shape)}")
        if not shape or not value.shape:
            raise Unsupported("a rank-0 reshape")
        target = Value("", shape, value.dtype)
        return self.emit(f"sopt.reshape {value.name} : {value.type} -> {target.type}",
                         shape, value.dtype)

    def transpose(self, value, permutation):
        permutation = [int(p) for p in permutation]
        if permutation == sorted(permutation):
            return value
        self.require_dense(value, "a transpose")
        shape = tuple(value.shape[p] for p in permutation)
        target = Value("", shape, value.dtype)
        perm = ", ".join(map(str, permutation))
        return self.emit(f"sopt.transpose {value.name} permutation = [{perm}] : {value.type} -> {target.type}",
                         shape, value.dtype)

    def unary(self, op, value):
        self.require_float(value, op)
        return self.emit(f"sopt.{op} {value.name} : {value.type}", value.shape, value.dtype)

    def binary(self, op, lhs, rhs):
        self.require_float(lhs, op)
        return self.emit(f"sopt.{op} {lhs.name}, {rhs.name} : {lhs.type}", lhs.shape, lhs.dtype)

    def reduce(self, kind, value, dims, keep_dims):
        self.require_float(value, f"a {kind} reduction")
        rank = len(value.shape)
        dims = sorted(set(d % rank for d in dims))
        trailing = dims == list(range(rank - len(dims), rank))
        if not trailing and dims != list(range(len(dims))):
            # The emitter reduces leading or trailing dimensions: move the
            # reduced ones last, then put the kept size-1 dimensions back.
            kept = [d for d in range(rank) if d not in dims]
            moved = self.transpose(value, kept + dims)
            reduced = self.reduce(kind, moved, list(range(len(kept), rank)), False)
            if not keep_dims:
                return reduced
            return self.reshape(reduced, [1 if i in dims else d for i, d in enumerate(value.shape)])
        if keep_dims:
            shape = tuple(1 if i in dims else d for i, d in enumerate(value.shape))
        else:
            shape = tuple(d for i, d in enumerate(value.shape) if i not in dims)
        if not shape:
            raise Unsupported("a reduction to a rank-0 tensor")
        target = Value("", shape, value.dtype)
        keep = " keep_dims" if keep_dims else ""
        dim_list = ", ".join(map(str, dims))
        return self.emit(f"sopt.reduce {kind} {value.name} dims = [{dim_list}]{keep} : "
                         f"{value.type} -> {target.type}", shape, value.dtype)

    @staticmethod
    def require_dense(value, what):
        if value.sparse:
            raise Unsupported(f"{what} of a sparse tensor")

    @staticmethod
    def require_float(value, what):
        FunctionBuilder.require_dense(value, what)
        if value.dtype not in FLOAT_TYPES:
            raise Unsupported(f"{what} on {value.dtype}")

    # --- the text ----------------------------------------------------------
    def text(self, results):
        args = ", ".join(f"{v.name}: {v.type}" + (" " + self._argument_attributes[v.name]
                                                  if v.name in self._argument_attributes else "")
                         for v, _ in self.arguments)
        result_types = ", ".join(v.type for v in results)
        body = "\n".join(self.lines)
        returned = ", ".join(v.name for v in results)
        aliases = []
        if any(v.layout == "csr" for v, _ in self.arguments):
            aliases.append(f"#CSR = {CSR}")
        if any(v.layout == "csc" for v, _ in self.arguments):
            aliases.append(f"#CSC = {CSC}")
        header = "".join(a + "\n" for a in aliases)
        return (f"{header}func.func @{self.name}({args}) -> ({result_types}) {{\n{body}\n"
                f"  return {returned} : {result_types}\n}}\n")

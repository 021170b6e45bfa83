"""Calling a compiled graph from PyTorch: the C ABI of the generated host
function (device pointers in argument order, a CSR argument as
positions, coordinates, values and nnz, then the results, then the
stream), outputs allocated by PyTorch, PyTorch's current stream."""

import ctypes

import torch
from torch.fx.node import map_aggregate

from .importer import ResultIndex
from .toolchain import poison


def _csr_arrays(tensor):
    """32-bit positions and coordinates of a CSR tensor (the kernels' index
    width), its values and nnz."""
    positions = tensor.crow_indices().to(torch.int32)
    coordinates = tensor.col_indices().to(torch.int32)
    return positions, coordinates, tensor.values().contiguous(), tensor._nnz()


class CompiledGraph:
    def __init__(self, imported, library):
        self.imported = imported
        self.library = ctypes.CDLL(str(library))
        self.function = getattr(self.library, imported.name)
        self.function.restype = ctypes.c_int
        types = []
        for layout, _ in imported.arguments:
            types += [ctypes.c_void_p] if layout == "dense" else [ctypes.c_void_p] * 3 + [ctypes.c_int64]
        types += [ctypes.c_void_p] * len(imported.results) + [ctypes.c_void_p]
        self.function.argtypes = types
        # Index arrays of sparse parameters, narrowed once per version.
        self._narrowed = {}

    def _sparse(self, source, tensor):
        key = (source, tensor.crow_indices().data_ptr(), tensor.values().data_ptr(), tensor._version)
        cached = self._narrowed.get(source)
        if source[0] == "attr" and cached and cached[0] == key:
            return cached[1]
        arrays = _csr_arrays(tensor)
        if source[0] == "attr":
            self._narrowed[source] = (key, arrays)
        return arrays

    def __call__(self, inputs):
        imported = self.imported
        keep, pointers, device = [], [], None
        for layout, source in imported.arguments:
            tensor = inputs[source[1]] if source[0] == "input" else imported.attributes[source[1]]
            device = device or tensor.device
            if layout == "dense":
                tensor = tensor.contiguous()
                keep.append(tensor)
                pointers.append(tensor.data_ptr())
            else:
                positions, coordinates, values, nnz = self._sparse(source, tensor)
                keep += [positions, coordinates, values]
                pointers += [positions.data_ptr(), coordinates.data_ptr(), values.data_ptr(), nnz]
        with torch.cuda.device(device):
            outputs = [poison(torch.empty(shape, dtype=dtype, device=device))
                       for shape, dtype in imported.results]
            stream = torch.cuda.current_stream().cuda_stream
            status = self.function(*pointers, *[o.data_ptr() for o in outputs], stream)
        if status != 0:
            raise RuntimeError(f"sparse_opt: {imported.name} returned CUDA error {status}")
        return map_aggregate(imported.output,
                             lambda r: outputs[r.index] if isinstance(r, ResultIndex) else r)

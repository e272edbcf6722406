"""tvm_ffi.dtype, its type codes and the dtype literals (``tvm_ffi.float32`` ...)."""

import sys as _sys

from .core import DataType, DataTypeCode, dtype

bool = dtype("bool")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float16 = dtype("float16")
float32 = dtype("float32")
float64 = dtype("float64")
bfloat16 = dtype("bfloat16")
float8_e3m4 = dtype("float8_e3m4")
float8_e4m3 = dtype("float8_e4m3")
float8_e4m3b11fnuz = dtype("float8_e4m3b11fnuz")
float8_e4m3fn = dtype("float8_e4m3fn")
float8_e4m3fnuz = dtype("float8_e4m3fnuz")
float8_e5m2 = dtype("float8_e5m2")
float8_e5m2fnuz = dtype("float8_e5m2fnuz")
float8_e8m0fnu = dtype("float8_e8m0fnu")
float6_e2m3fn = dtype("float6_e2m3fn")
float6_e3m2fn = dtype("float6_e3m2fn")
float4_e2m1fn = dtype("float4_e2m1fn")
float4_e2m1fnx2 = dtype("float4_e2m1fnx2")
# torch's spelling of the packed pair; not exported from tvm_ffi itself.
float4_e2m1fn_x2 = float4_e2m1fnx2

LITERALS = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
    "float4_e2m1fnx2",
)


class _NumpyDtypeToStr(dict):
    """numpy dtype -> tvm-ffi dtype name, for the numpy dtypes a tensor of tvm-ffi can hold.

    numpy and ml_dtypes are imported lazily by tvm_ffi, so the entries are added on first use:
    the numpy ones once numpy is imported, the ml_dtypes ones once ml_dtypes is. A key of either
    kind exists only after its module was imported, so every read sees its entry.
    """

    # numpy's own dtypes: the literals up to float64 (bool, the ints, the floats).
    _NUMPY_NAMES = LITERALS[: LITERALS.index("float64") + 1]
    _ML_DTYPES_NAMES = ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn")

    def __init__(self):
        super().__init__()
        self._have_numpy = False
        self._have_ml_dtypes = False

    def _fill(self):
        if not self._have_numpy:
            np = _sys.modules.get("numpy")
            if np is None:
                return
            for name in self._NUMPY_NAMES:
                dict.__setitem__(self, np.dtype(name), name)
            self._have_numpy = True
        if not self._have_ml_dtypes:
            ml = _sys.modules.get("ml_dtypes")
            if ml is None:
                return
            np = _sys.modules["numpy"]
            for name in self._ML_DTYPES_NAMES:
                if hasattr(ml, name):
                    dict.__setitem__(self, np.dtype(getattr(ml, name)), name)
            self._have_ml_dtypes = True


def _reading_filled(method):
    """method of dict, run after _NumpyDtypeToStr._fill."""

    def read(self, *args):
        self._fill()
        return method(self, *args)

    read.__name__ = method.__name__
    return read


for _name in (
    "__contains__",
    "__getitem__",
    "get",
    "__iter__",
    "__len__",
    "keys",
    "values",
    "items",
    "__repr__",
):
    setattr(_NumpyDtypeToStr, _name, _reading_filled(getattr(dict, _name)))
del _name


# Tables that clients (Apache TVM) read from the dtype class.
dtype._NUMPY_DTYPE_TO_STR = _NumpyDtypeToStr()
dtype._INTEGER_CODES = frozenset([DataTypeCode.INT, DataTypeCode.UINT])
# float, bfloat and the float8/6/4 kinds (codes 7 to 17).
dtype._FLOAT_CODES = frozenset(
    code
    for code in DataTypeCode
    if code in (DataTypeCode.FLOAT, DataTypeCode.BFLOAT) or 7 <= code <= 17
)

__all__ = ["dtype", "DataType", "DataTypeCode"] + list(LITERALS)

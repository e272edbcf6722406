"""tvm_ffi.dtype, its type codes and the dtype literals (``tvm_ffi.float32`` ...)."""

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

__all__ = ["dtype", "DataType", "DataTypeCode"] + list(LITERALS)

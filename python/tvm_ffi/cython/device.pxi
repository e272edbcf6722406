# tvm_ffi.Device, tvm_ffi.DLDeviceType and tvm_ffi.dtype.

import enum as _enum
import numbers as _numbers
import sys as _sys


class DLDeviceType(_enum.IntEnum):
    """DLPack device types."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


_DEVICE_TYPE_TO_NAME = {
    1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi",
    10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed", 14: "oneapi",
    15: "webgpu", 16: "hexagon", 17: "maia", 18: "trn",
}
# Names accepted by Device(str): the printable names of devices one can target,
# plus "mps" (metal) and "wgpu" (webgpu). Host/managed memory kinds are not targets.
_DEVICE_NAME_TO_TYPE = {
    "cpu": 1, "cuda": 2, "opencl": 4, "vulkan": 7, "metal": 8, "mps": 8, "vpi": 9, "rocm": 10,
    "ext_dev": 12, "hexagon": 16, "wgpu": 15, "webgpu": 15, "maia": 17, "trn": 18,
}


cdef int parse_device_index(object index) except? -1:
    if index is None:
        return 0
    if not isinstance(index, _numbers.Integral) and hasattr(index, "item"):
        index = index.item()
    if not isinstance(index, _numbers.Integral):
        raise TypeError("Invalid device index: %r" % (index,))
    return check_device_index(int(index))


cdef int check_device_index(object index) except? -1:
    # DLDevice.device_id is an int32; a larger index is bad input, not an overflow.
    if index < -0x80000000 or index > 0x7FFFFFFF:
        raise ValueError("Invalid device index: %d (out of the int32 range)" % index)
    return index


cdef class Device:
    """A device: DLPack device type plus index, e.g. ``Device("cuda", 0)``, ``Device("cuda:1")``.

    ``type``, ``str`` and ``repr`` name the device type through ``__device_type_name__``, which a
    subclass may override (TVM names its RPC devices ``remote[i]:cuda`` that way). The class
    attributes ``_DEVICE_TYPE_TO_NAME`` (DLDeviceType -> name) and ``_DEVICE_NAME_TO_TYPE`` (name
    -> DLDeviceType) are the tables both directions use.
    """
    cdef DLDevice cdevice

    _DEVICE_TYPE_TO_NAME = {DLDeviceType(code): name for code, name in _DEVICE_TYPE_TO_NAME.items()}
    _DEVICE_NAME_TO_TYPE = {name: DLDeviceType(code) for name, code in _DEVICE_NAME_TO_TYPE.items()}

    def __init__(self, device_type, index=None):
        cdef int code
        cdef int idx = parse_device_index(index)
        if isinstance(device_type, str):
            text = device_type.split(" ", 1)[0]
            parts = text.split(":")
            if len(parts) > 2:
                raise ValueError("Invalid device: %s" % device_type)
            name = parts[0]
            if name not in _DEVICE_NAME_TO_TYPE:
                raise ValueError("Unknown device: %s" % name)
            code = _DEVICE_NAME_TO_TYPE[name]
            if len(parts) == 2:
                try:
                    parsed_index = int(parts[1])
                except ValueError:
                    raise ValueError("Invalid device index: %s" % parts[1]) from None
                idx = check_device_index(parsed_index)
        elif isinstance(device_type, int) and not isinstance(device_type, Device):
            code = device_type
        else:
            raise TypeError("Invalid device type: %r (expected a str or int)" % (device_type,))
        self.cdevice.device_type = <CDLDeviceType>code
        self.cdevice.device_id = idx

    def dlpack_device_type(self):
        """The DLPack device type code (an int)."""
        return <int>self.cdevice.device_type

    @property
    def device_type(self):
        """The device type as DLDeviceType (a plain int for codes DLPack does not define)."""
        code = <int>self.cdevice.device_type
        try:
            return DLDeviceType(code)
        except ValueError:
            return code

    @property
    def type(self):
        """Printable name of the device type, e.g. "cuda": ``__device_type_name__()``."""
        return self.__device_type_name__()

    def __device_type_name__(self):
        """The name of the device type (KeyError for codes without one); subclasses may override."""
        return _DEVICE_TYPE_TO_NAME[<int>self.cdevice.device_type]

    @property
    def index(self):
        return self.cdevice.device_id

    def __eq__(self, other):
        if not isinstance(other, Device):
            return False
        return (<int>(<Device>other).cdevice.device_type == <int>self.cdevice.device_type and
                (<Device>other).cdevice.device_id == self.cdevice.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((<int>self.cdevice.device_type, self.cdevice.device_id))

    def __repr__(self):
        return "device(type='%s', index=%d)" % (self.type, self.index)

    def __str__(self):
        return "%s:%d" % (self.type, self.index)

    def __reduce__(self):
        return (_create_device_from_tuple,
                (type(self), <int>self.cdevice.device_type, self.cdevice.device_id))


def _create_device_from_tuple(cls, device_type, index):
    """Unpickle a Device (or a subclass installed with _set_class_device)."""
    cdef Device out = <Device>cls.__new__(cls)
    out.cdevice.device_type = <CDLDeviceType><int>device_type
    out.cdevice.device_id = index
    return out


# Class of Devices the FFI produces (see _set_class_device).
_CLASS_DEVICE = Device


def _set_class_device(cls):
    """Make FFI-produced Devices (and tvm_ffi.device(...)) instances of cls, a Device subclass."""
    global _CLASS_DEVICE
    if not (isinstance(cls, type) and issubclass(cls, Device)):
        raise TypeError("_set_class_device expects a subclass of Device, got %r" % (cls,))
    _CLASS_DEVICE = cls


cdef Device make_device(DLDevice dev):
    cdef Device out = <Device>_CLASS_DEVICE.__new__(_CLASS_DEVICE)
    out.cdevice = dev
    return out


def device(device_type, index=None):
    """``device("cuda:0")``, ``device("cuda", 1)``, ``device(DLDeviceType.kDLCPU)``.

    An index inside the string wins over the ``index`` argument.
    """
    return _CLASS_DEVICE(device_type, index)


class DataTypeCode(_enum.IntEnum):
    """DLPack type codes of DLDataType."""
    INT = 0
    UINT = 1
    FLOAT = 2
    HANDLE = 3
    BFLOAT = 4
    BOOL = 6
    Float8E3M4 = 7
    Float8E4M3 = 8
    Float8E4M3B11FNUZ = 9
    Float8E4M3FN = 10
    Float8E4M3FNUZ = 11
    Float8E5M2 = 12
    Float8E5M2FNUZ = 13
    Float8E8M0FNU = 14
    Float6E2M3FN = 15
    Float6E3M2FN = 16
    Float4E2M1FN = 17


cdef class DataType:
    """A parsed DLDataType: ``DataType("float32")`` has type_code, bits, lanes, itemsize."""
    cdef DLDataType cdtype

    def __init__(self, text):
        self.cdtype = parse_dtype_text(str(text))

    @property
    def type_code(self):
        return self.cdtype.code

    @property
    def bits(self):
        return self.cdtype.bits

    @property
    def lanes(self):
        return <int16_t>self.cdtype.lanes

    @property
    def itemsize(self):
        return dl_itemsize(self.cdtype)

    def __str__(self):
        return str(dl_to_dtype(self.cdtype))

    def __repr__(self):
        return "DataType('%s')" % str(self)

    def __eq__(self, other):
        if not isinstance(other, DataType):
            return False
        return pack_dl(self.cdtype) == pack_dl((<DataType>other).cdtype)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(pack_dl(self.cdtype))

    def __reduce__(self):
        # By the numbers, as the reference pickles it: pickles load in either implementation.
        return (_create_cdtype_from_tuple,
                (type(self), self.cdtype.code, self.cdtype.bits, <int16_t>self.cdtype.lanes))


def _create_cdtype_from_tuple(cls, type_code, bits, lanes):
    """Unpickle a DataType (or subclass) from its DLDataType fields."""
    cdef DataType out = <DataType>cls.__new__(cls)
    out.cdtype.code = <uint8_t>type_code
    out.cdtype.bits = <uint8_t>bits
    out.cdtype.lanes = <uint16_t><int16_t>lanes
    return out


# Parsed form of every dtype string seen, and the dtype of every packed DLDataType.
cdef dict _DTYPE_BY_STR = {}
cdef dict _DTYPE_BY_PACKED = {}
# Codes DLPack defines (complex, 5, has no printable name in tvm-ffi).
cdef frozenset _KNOWN_TYPE_CODES = frozenset([0, 1, 2, 3, 4, 6] + list(range(7, 18)))
# kDLExtCustomBegin: codes from here on are a framework's custom types ("custom[name]bits").
cdef int _CUSTOM_TYPE_CODE_BEGIN = 129
_FLOAT_TYPE_CODES = frozenset([2, 4] + list(range(7, 18)))


cdef inline uint32_t pack_dl(DLDataType t) noexcept:
    return <uint32_t>t.code | (<uint32_t>t.bits << 8) | (<uint32_t>t.lanes << 16)


cdef object dl_itemsize(DLDataType t):
    cdef int lanes = <int16_t>t.lanes
    if lanes < 0:
        raise ValueError("Cannot determine itemsize for scalable vector types")
    return (<int>t.bits * lanes + 7) // 8


cdef DLDataType dtype_to_dl(object x) except *:
    cdef DataType parsed = _DTYPE_BY_STR.get(<str>x)
    if parsed is None:
        parsed = parse_dtype(str(x))
    return parsed.cdtype


cdef DLDataType parse_dtype_text(str text) except *:
    cdef TVMFFIByteArray arr = str_to_bytearray(text)
    cdef DLDataType out
    if TVMFFIDataTypeFromString(&arr, &out) != 0:
        # The runtime words the failure as the spec does ("unknown dtype `<s>`", the lanes and
        # bits range messages), or passes on a custom type lookup's own error.
        raise_last_ffi_error()
    return out


cdef DataType parse_dtype(str text):
    cdef DataType out = DataType.__new__(DataType)
    out.cdtype = parse_dtype_text(text)
    return out


cdef object dl_to_dtype(DLDataType t):
    cdef TVMFFIAny text
    cdef DataType parsed
    cdef uint32_t key = pack_dl(t)
    out = _DTYPE_BY_PACKED.get(key)
    if out is not None and type(out) is _CLASS_DTYPE:
        return out
    text.type_index = kTVMFFINone
    text.zero_padding = 0
    text.v_int64 = 0
    check_call(TVMFFIDataTypeToString(&t, &text))
    # The text need not parse back to t (handle prints without bits, custom types and the float
    # kinds without bits, lanes 0 and -1 print as one lane): keep t itself.
    parsed = DataType.__new__(DataType)
    parsed.cdtype = t
    out = str.__new__(_CLASS_DTYPE, any_to_py_owned(&text))
    out._tvm_ffi_dtype = parsed
    if t.code < _CUSTOM_TYPE_CODE_BEGIN:
        # A framework may rename its custom types at any time; the built-in names never change.
        _DTYPE_BY_PACKED[key] = out
    return out


# numpy / ml_dtypes dtype names tvm-ffi knows (numpy bool is deliberately absent).
_NUMPY_DTYPE_NAMES = frozenset([
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "int2", "int4", "uint2", "uint4", "bfloat16",
    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
    "float4_e2m1fn",
])
# torch dtype name -> tvm-ffi name.
_TORCH_DTYPE_NAMES = {
    "int8": "int8", "int16": "int16", "short": "int16", "int32": "int32", "int": "int32",
    "int64": "int64", "long": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "float16": "float16", "half": "float16",
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "bfloat16": "bfloat16", "bool": "bool", "float8_e4m3fn": "float8_e4m3fn",
    "float8_e4m3fnuz": "float8_e4m3fnuz", "float8_e5m2": "float8_e5m2",
    "float8_e5m2fnuz": "float8_e5m2fnuz", "float8_e8m0fnu": "float8_e8m0fnu",
    "float4_e2m1fn_x2": "float4_e2m1fnx2",
}


cdef object framework_dtype_name(object value):
    """tvm-ffi name of a torch.dtype or numpy.dtype; None for other values; KeyError for a
    framework dtype tvm-ffi has no name for."""
    cdef type t = type(value)
    mod = t.__module__ or ""
    if mod == "torch" and t.__name__ == "dtype":
        text = str(value)
        if text.startswith("torch."):
            text = text[len("torch."):]
        return _TORCH_DTYPE_NAMES[text]
    np = _sys.modules.get("numpy")
    if np is not None and isinstance(value, np.dtype):
        name = value.name
        if name not in _NUMPY_DTYPE_NAMES:
            raise KeyError(name)
        return name
    return None


def _dtype_name_of(value):
    """Name of a numpy / ml_dtypes / torch dtype (or scalar type) as tvm-ffi spells it."""
    mod = type(value).__module__ or ""
    if mod.startswith("torch"):
        text = str(value)
        return text[len("torch."):] if text.startswith("torch.") else text
    if isinstance(value, type) and (value.__module__ or "").startswith(("numpy", "ml_dtypes")):
        import numpy
        return numpy.dtype(value).name
    return None


class dtype(str):
    """A data type, e.g. ``dtype("float32")``: a str keeping its spelling, with type_code,
    bits, lanes, itemsize and the is_* predicates.

    Every spelling the runtime parses is accepted ("f32", "bf16", "fp8_e4m3fn" ...);
    ``str(dtype("f32")) == "f32"``. numpy dtypes convert through their name; torch dtypes
    and numpy scalar types are accepted too. Unknown text raises ValueError.
    """

    __slots__ = ["_tvm_ffi_dtype"]

    def __new__(cls, content):
        if not isinstance(content, str):
            name = _dtype_name_of(content)
            content = str(content) if name is None else name
        parsed = _DTYPE_BY_STR.get(content)
        if parsed is None:
            parsed = parse_dtype(str(content))
            _DTYPE_BY_STR[str(content)] = parsed
        self = str.__new__(cls, content)
        self._tvm_ffi_dtype = parsed
        return self

    def _parsed(self):
        return self._tvm_ffi_dtype

    @property
    def type_code(self):
        """DLDataTypeCode (kDLInt=0, kDLUInt=1, kDLFloat=2, ...)."""
        return (<DataType>self._tvm_ffi_dtype).cdtype.code

    @property
    def bits(self):
        return (<DataType>self._tvm_ffi_dtype).cdtype.bits

    @property
    def lanes(self):
        """Number of lanes (negative: a scalable vector of -lanes times vscale)."""
        return <int16_t>(<DataType>self._tvm_ffi_dtype).cdtype.lanes

    @property
    def itemsize(self):
        """Bytes of one element (all lanes), rounded up for sub-byte types."""
        return dl_itemsize((<DataType>self._tvm_ffi_dtype).cdtype)

    @property
    def is_bool(self):
        return (<DataType>self._tvm_ffi_dtype).cdtype.code == 6

    @property
    def is_integer(self):
        """Signed or unsigned integer (bool is not an integer)."""
        return (<DataType>self._tvm_ffi_dtype).cdtype.code in (0, 1)

    @property
    def is_float(self):
        """Any floating-point type: float, bfloat and the float8/6/4 families."""
        return (<DataType>self._tvm_ffi_dtype).cdtype.code in _FLOAT_TYPE_CODES

    @property
    def is_handle(self):
        return (<DataType>self._tvm_ffi_dtype).cdtype.code == 3

    def with_lanes(self, lanes: int) -> "dtype":
        """The same scalar type with `lanes` lanes (text: the canonical name)."""
        cdef DLDataType t = (<DataType>self._tvm_ffi_dtype).cdtype
        t.lanes = <uint16_t><int16_t>lanes
        return dl_to_dtype(t)

    @staticmethod
    def from_dlpack_data_type(dltype):
        """The dtype of a DLPack ``(code, bits, lanes)`` triple, spelled canonically."""
        cdef DLDataType t
        code, bits, lanes = dltype
        if code not in _KNOWN_TYPE_CODES and not _CUSTOM_TYPE_CODE_BEGIN <= code <= 255:
            raise ValueError("DLDataType contains unknown type_code=%d" % code)
        t.code = code
        t.bits = bits
        t.lanes = <uint16_t><int16_t>lanes
        return dl_to_dtype(t)

    @staticmethod
    def is_dtype(value):
        """Whether value is a dtype or text that parses as one."""
        if isinstance(value, dtype):
            return True
        if not isinstance(value, str):
            return False
        try:
            dtype(value)
        except ValueError:
            return False
        return True

    def to_numpy(self):
        """The numpy dtype (ml_dtypes supplies bfloat16 and the float8 family)."""
        import numpy
        try:
            return numpy.dtype(str(self))
        except TypeError:
            try:
                import ml_dtypes
            except ImportError:
                raise TypeError("numpy has no dtype %r and ml_dtypes is not installed"
                                % str(self)) from None
            if not hasattr(ml_dtypes, str(self)):
                raise TypeError("neither numpy nor ml_dtypes has dtype %r" % str(self)) from None
            return numpy.dtype(getattr(ml_dtypes, str(self)))

    def __repr__(self):
        return "dtype('%s')" % str(self)

    def __reduce__(self):
        return (type(self), (str(self),))


# Class of dtypes the FFI produces (see _set_class_dtype).
_CLASS_DTYPE = dtype


def _set_class_dtype(cls):
    """Make FFI-produced dtypes instances of cls, a subclass of tvm_ffi.dtype."""
    global _CLASS_DTYPE
    if not (isinstance(cls, type) and issubclass(cls, dtype)):
        raise TypeError("_set_class_dtype expects a subclass of dtype, got %r" % (cls,))
    _CLASS_DTYPE = cls

# tvm_ffi.Device, tvm_ffi.DLDeviceType and tvm_ffi.dtype.

import enum as _enum


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
_DEVICE_NAME_TO_TYPE = {name: code for code, name in _DEVICE_TYPE_TO_NAME.items()}
# Spellings used by other frameworks for the same devices.
_DEVICE_NAME_TO_TYPE.update({"llvm": 1, "c": 1, "gpu": 2, "mps": 8, "hip": 10, "cuda_pinned": 3})


cdef class Device:
    """A device: DLPack device type plus index, e.g. ``Device("cuda", 0)``."""
    cdef DLDevice cdevice

    def __init__(self, device_type, index=0):
        cdef int code
        if isinstance(device_type, str):
            name = device_type
            if ":" in name:
                name, _, idx = name.partition(":")
                try:
                    index = int(idx)
                except ValueError:
                    raise ValueError("invalid device string %r: index %r is not an int"
                                     % (device_type, idx)) from None
            if name not in _DEVICE_NAME_TO_TYPE:
                raise ValueError("unknown device type %r (known: %s)"
                                 % (name, ", ".join(sorted(_DEVICE_NAME_TO_TYPE))))
            code = _DEVICE_NAME_TO_TYPE[name]
        elif isinstance(device_type, int):
            code = device_type
        else:
            raise TypeError("device type must be a str or int, got %s"
                            % type(device_type).__name__)
        if not isinstance(index, int):
            raise TypeError("device index must be an int, got %s" % type(index).__name__)
        if index < 0 or index > 0x7FFFFFFF:
            raise ValueError("device index must be in [0, 2147483647], got %d" % index)
        self.cdevice.device_type = <CDLDeviceType>code
        self.cdevice.device_id = index

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
        """Short name of the device type, e.g. "cuda"."""
        code = <int>self.cdevice.device_type
        return _DEVICE_TYPE_TO_NAME.get(code, "device%d" % code)

    @property
    def index(self):
        return self.cdevice.device_id

    def __eq__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return (<int>(<Device>other).cdevice.device_type == <int>self.cdevice.device_type and
                (<Device>other).cdevice.device_id == self.cdevice.device_id)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash((<int>self.cdevice.device_type, self.cdevice.device_id))

    def __repr__(self):
        return "device(type=%r, index=%d)" % (self.type, self.index)

    def __str__(self):
        return "%s:%d" % (self.type, self.index)

    def __reduce__(self):
        return (Device, (<int>self.cdevice.device_type, self.cdevice.device_id))


cdef Device make_device(DLDevice dev):
    cdef Device out = <Device>Device.__new__(Device)
    out.cdevice = dev
    return out


def device(device_type, index=None):
    """``device("cuda:0")``, ``device("cuda", 1)``, ``device(DLDeviceType.kDLCPU)``."""
    if isinstance(device_type, Device):
        return device_type
    if index is None:
        if isinstance(device_type, str) and ":" in device_type:
            return Device(device_type)
        index = 0
    elif isinstance(device_type, str) and ":" in device_type:
        raise ValueError("device string %r already has an index; do not pass index=%r"
                         % (device_type, index))
    return Device(device_type, index)


cdef class DataType:
    """Parsed DLDataType behind a tvm_ffi.dtype string."""
    cdef DLDataType cdtype


# Parsed form of every dtype string seen, and the dtype of every packed DLDataType.
cdef dict _DTYPE_BY_STR = {}
cdef dict _DTYPE_BY_PACKED = {}


cdef inline uint32_t pack_dl(DLDataType t) noexcept:
    return <uint32_t>t.code | (<uint32_t>t.bits << 8) | (<uint32_t>t.lanes << 16)


cdef DLDataType dtype_to_dl(object x) except *:
    cdef DataType parsed = _DTYPE_BY_STR.get(<str>x)
    if parsed is None:
        parsed = parse_dtype(str(x))
    return parsed.cdtype


cdef DataType parse_dtype(str text):
    cdef TVMFFIByteArray arr = str_to_bytearray(text)
    cdef DataType out = DataType.__new__(DataType)
    check_call(TVMFFIDataTypeFromString(&arr, &out.cdtype))
    return out


cdef object dl_to_dtype(DLDataType t):
    cdef TVMFFIAny text
    cdef uint32_t key = pack_dl(t)
    out = _DTYPE_BY_PACKED.get(key)
    if out is not None:
        return out
    text.type_index = kTVMFFINone
    text.zero_padding = 0
    text.v_int64 = 0
    check_call(TVMFFIDataTypeToString(&t, &text))
    out = dtype(any_to_py_owned(&text))
    _DTYPE_BY_PACKED[key] = out
    return out


def _dtype_name_of(value):
    """Name of a numpy / ml_dtypes / torch dtype (or scalar type) as tvm-ffi spells it."""
    mod = type(value).__module__ or ""
    if mod.startswith("torch"):
        text = str(value)
        return text[len("torch."):] if text.startswith("torch.") else text
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None:
        try:
            return numpy.dtype(value).name
        except TypeError:
            pass
    raise TypeError("cannot convert %r to tvm_ffi.dtype" % (value,))


class dtype(str):
    """A data type, e.g. ``dtype("float32")``: a str with bits, lanes, type_code, itemsize.

    Also accepts numpy, ml_dtypes and torch dtypes.
    """

    __slots__ = ()

    def __new__(cls, value):
        if isinstance(value, dtype) and cls is dtype:
            return value
        if not isinstance(value, str):
            value = _dtype_name_of(value)
        parsed = _DTYPE_BY_STR.get(value)
        if parsed is None:
            parsed = parse_dtype(str(value))
        self = str.__new__(cls, value)
        _DTYPE_BY_STR[str(value)] = parsed
        return self

    def _parsed(self):
        cdef DataType parsed = _DTYPE_BY_STR.get(str(self))
        if parsed is None:
            parsed = parse_dtype(str(self))
            _DTYPE_BY_STR[str(self)] = parsed
        return parsed

    @property
    def type_code(self):
        """DLDataTypeCode (kDLInt=0, kDLUInt=1, kDLFloat=2, ...)."""
        return (<DataType>self._parsed()).cdtype.code

    @property
    def bits(self):
        return (<DataType>self._parsed()).cdtype.bits

    @property
    def lanes(self):
        return (<DataType>self._parsed()).cdtype.lanes

    @property
    def itemsize(self):
        """Bytes of one element (all lanes), rounded up for sub-byte types."""
        cdef DLDataType t = (<DataType>self._parsed()).cdtype
        return (<int>t.bits * <int>t.lanes + 7) // 8

    def with_lanes(self, int lanes):
        """The same scalar type with `lanes` lanes."""
        cdef DLDataType t = (<DataType>self._parsed()).cdtype
        t.lanes = lanes
        return dl_to_dtype(t)

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
        return (dtype, (str(self),))

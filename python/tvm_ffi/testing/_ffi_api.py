"""The ``testing.*`` global functions as module attributes (``_ffi_api.echo``)."""

from ..registry import init_ffi_api as _FFI_INIT_FUNC

_FFI_INIT_FUNC("testing", __name__)

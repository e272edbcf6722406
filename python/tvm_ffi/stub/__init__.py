"""Stub generation for FFI packages (the ``tvm-ffi-stubgen`` tool).

The generator rewrites the blocks between ``# tvm-ffi-stubgen(begin): ...`` and
``# tvm-ffi-stubgen(end)`` markers of ``.py``/``.pyi`` files from what the loaded libraries
register: global functions, object types and their fields and methods. Entry point:
``tvm_ffi.stub.cli.__main__``.
"""

"""torch-c-dlpack-ext beside this tvm_ffi: importing it before tvm_ffi keeps torch.Tensor's
exchange table usable, and tensors cross both ways; prints "ok <step>"."""

import torch
import torch_c_dlpack_ext  # noqa: F401  (publishes a table for torch releases without one)
import tvm_ffi
from tvm_ffi import _optional_torch_c_dlpack as optional

assert hasattr(torch.Tensor, "__dlpack_c_exchange_api__")
assert optional._check_and_update_dlpack_c_exchange_api(torch.Tensor)
print("ok table", flush=True)

x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
t = tvm_ffi.from_dlpack(x)
assert t.shape == (3, 4) and str(t.dtype) == "float32"
y = torch.from_dlpack(t)
assert y.data_ptr() == x.data_ptr() and torch.equal(y, x)
echo = tvm_ffi.get_global_func("ffi.Array")
assert echo(x)[0].shape == (3, 4)
print("ok exchange", flush=True)

"""jax-tvm-ffi on this tvm_ffi: a Python function registered as a JAX FFI target on the CPU,
called through jax.ffi.ffi_call with borrowed and with owned tensors; prints "ok <step>"."""

import jax
import jax.numpy as jnp
import jax_tvm_ffi
import numpy as np
import tvm_ffi


def add_one(x, y):
    np.from_dlpack(y)[:] = np.from_dlpack(x) + 1


for owned in (False, True):
    name = "tvm_ffi_add_one_%s" % ("owned" if owned else "view")
    jax_tvm_ffi.register_ffi_target(
        name, tvm_ffi.convert(add_one), ["args", "rets"], platform="cpu", pass_owned_tensor=owned
    )
    x = jnp.arange(8, dtype=jnp.float32)
    call = jax.ffi.ffi_call(name, jax.ShapeDtypeStruct(x.shape, x.dtype))
    np.testing.assert_allclose(np.asarray(call(x)), np.arange(8) + 1)
    np.testing.assert_allclose(np.asarray(jax.jit(call)(x)), np.arange(8) + 1)
    print("ok", "owned" if owned else "view", flush=True)

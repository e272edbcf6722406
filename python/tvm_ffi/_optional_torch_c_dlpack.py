"""Makes sure ``torch.Tensor`` publishes the DLPack C exchange API.

torch releases with DLPack 1.3 (2.13 and later) set ``torch.Tensor.__dlpack_c_exchange_api__``
themselves; then this module does nothing. Older ones either published the 1.2-style
``__c_dlpack_exchange_api__`` (an int address, wrapped here into the 1.3 capsule) or nothing, in
which case the ``torch_c_dlpack_ext`` package is imported when installed, and failing that an
addon library is compiled against the installed torch into the tvm-ffi cache (once: later
processes load the cached file) and its table published. Without a table, torch tensors still
work, through ``__dlpack__`` (slower, and calls get no framework allocator).
When CUDA is available, ``torch.cuda.Stream`` also gets ``__cuda_stream__`` if it lacks one.

``import tvm_ffi`` never imports torch: when torch is already imported this runs then, else it
runs the first time a torch tensor reaches tvm_ffi (the core asks ``_on_type_without_table``
about each type that publishes no table). ``TVM_FFI_DISABLE_TORCH_C_DLPACK=1`` turns it off.
"""

import ctypes
import os
import sys
import threading
import warnings

from . import core

_ATTR = "__dlpack_c_exchange_api__"
_ATTR_V12 = "__c_dlpack_exchange_api__"
# Capsule names must outlive their capsules: this bytes object lives as long as the module.
_CAPSULE_NAME = b"dlpack_exchange_api"

_lock = threading.Lock()
# None until ensure_torch_c_dlpack() ran with torch imported; then whether torch.Tensor
# publishes a table.
_result = None


def disabled():
    """Whether TVM_FFI_DISABLE_TORCH_C_DLPACK=1 turns this module off."""
    return os.environ.get("TVM_FFI_DISABLE_TORCH_C_DLPACK") == "1"


def _capsule_of_address(address):
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(address, _CAPSULE_NAME, None)


def _is_capsule(value):
    return type(value).__name__ == "PyCapsule"


def _adopt_v12_table(tensor_cls):
    """Publishes a 1.2-style table (int address or capsule) under the 1.3 name."""
    value = getattr(tensor_cls, _ATTR_V12, None)
    if value is None:
        return False
    if _is_capsule(value):
        capsule = value
    elif isinstance(value, int) and not isinstance(value, bool) and value != 0:
        capsule = _capsule_of_address(value)
    else:
        return False
    setattr(tensor_cls, _ATTR, capsule)
    return True


# ---- step 4: the addon compiled against the installed torch ----------------------------------

_BUILD_FAILED = "Failed to JIT torch c dlpack extension, EnvTensorAllocator will not be enabled"
_BUILD_SCRIPT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "utils", "_build_optional_torch_c_dlpack.py"
)
# Loaded addon libraries by path: ctypes never unloads them, and the published table lives in
# the library, so it must stay loaded for the life of the process.
_addons = {}
_addons_lock = threading.Lock()


def addon_library_name(torch_version, cxx11abi, variant):
    """``libtorch_c_dlpack_addon_torch<major><minor>-<variant>-<hash8>.so``: the addon's file
    name for a torch version string (``torch.__version__``), its C++11 ABI flag and its build
    variant ("cpu", "cuda" or "rocm"). The hash covers the whole version and the ABI flag."""
    import hashlib

    if variant not in ("cpu", "cuda", "rocm"):
        raise ValueError("variant must be 'cpu', 'cuda' or 'rocm', got %r" % (variant,))
    parts = str(torch_version).split("+")[0].split(".")
    if len(parts) < 2 or not parts[0].isdigit():
        raise ValueError("cannot read major.minor from torch version %r" % (torch_version,))
    minor = "".join(c for c in parts[1] if c.isdigit())
    key = "%s|cxx11abi=%d" % (torch_version, int(bool(cxx11abi)))
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]
    return "libtorch_c_dlpack_addon_torch%s%s-%s-%s.so" % (parts[0], minor, variant, digest)


def _torch_variant(torch):
    version = getattr(torch, "version", None)
    if getattr(version, "hip", None):
        return "rocm"
    if getattr(version, "cuda", None):
        return "cuda"
    return "cpu"


def addon_path(torch, cache_dir=None):
    """Where the addon for this torch lives: ``cache_dir`` or the tvm-ffi cache
    ($TVM_FFI_CACHE_DIR, default ~/.cache/tvm-ffi), under the name of addon_library_name."""
    if cache_dir is None:
        from .cpp._build import cache_root

        cache_dir = cache_root()
    name = addon_library_name(
        torch.__version__, torch._C._GLIBCXX_USE_CXX11_ABI, _torch_variant(torch)
    )
    return os.path.join(os.fspath(cache_dir), name)


def load_addon(lib_path):
    """Loads a built addon and returns its table as a ``"dlpack_exchange_api"`` capsule (the
    value ``torch.Tensor.__dlpack_c_exchange_api__`` takes). OSError when it cannot be loaded,
    RuntimeError when the table is missing or not DLPack 1.x."""
    lib_path = os.path.abspath(os.fspath(lib_path))
    with _addons_lock:
        lib = _addons.get(lib_path)
        if lib is None:
            lib = ctypes.CDLL(lib_path)
            _addons[lib_path] = lib
    get_table = lib.TorchDLPackExchangeAPIPtr
    get_table.restype = ctypes.c_uint64
    get_table.argtypes = []
    address = get_table()
    if not address:
        raise RuntimeError("%s: TorchDLPackExchangeAPIPtr() returned NULL" % lib_path)
    major = ctypes.c_uint32.from_address(address).value
    if major != 1:
        raise RuntimeError(
            "%s: DLPack exchange table of major version %d, expected 1" % (lib_path, major)
        )
    return _capsule_of_address(address)


def _run_build_script(lib_path):
    """Compiles the addon to lib_path in a subprocess; RuntimeError with its output on failure."""
    import subprocess

    env = dict(os.environ)
    # The script imports tvm_ffi: no second build from there, and the same tvm_ffi as ours.
    env["TVM_FFI_DISABLE_TORCH_C_DLPACK"] = "1"
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    cmd = [
        sys.executable,
        _BUILD_SCRIPT,
        "--output-dir",
        os.path.dirname(lib_path),
        "--libname",
        os.path.basename(lib_path),
    ]
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0 or not os.path.isfile(lib_path):
        raise RuntimeError(
            proc.stdout.strip() or "the build script exited with %d" % proc.returncode
        )


class AddonBuildFailedBefore(RuntimeError):
    """build_addon did not build: an earlier build with the same inputs failed (the failure is
    remembered in ``<addon file>.failed``; delete that file to try again)."""


def failure_marker_path(lib_path):
    """The file remembering a failed build of the addon at lib_path: ``<lib_path>.failed``, so
    keyed like the addon itself (another torch version or build variant builds anew)."""
    return os.fspath(lib_path) + ".failed"


def _build_inputs():
    """What a failed build depends on besides the torch build that names the addon: the
    compiler and flags chosen through the environment, and the addon's source and build
    script. A remembered failure counts only while they are unchanged."""
    import hashlib

    digest = hashlib.sha256()
    utils_dir = os.path.dirname(_BUILD_SCRIPT)
    for name in ("_torch_c_dlpack_addon.cc", os.path.basename(_BUILD_SCRIPT)):
        try:
            with open(os.path.join(utils_dir, name), "rb") as f:
                digest.update(f.read())
        except OSError:
            digest.update(b"missing " + name.encode())
    inputs = {
        name: os.environ.get(name, "")
        for name in ("CXX", "TVM_FFI_TORCH_ADDON_CFLAGS", "TVM_FFI_TORCH_ADDON_LDFLAGS")
    }
    inputs["sources"] = digest.hexdigest()
    return inputs


def _failed_before(lib_path, inputs):
    """Whether a failure of a build with these inputs is remembered for lib_path."""
    import json

    try:
        with open(failure_marker_path(lib_path), encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(record, dict) and record.get("inputs") == inputs


def _remember_failure(lib_path, inputs, output):
    """Writes the failure marker (atomically: a reader sees all of it or none). A cache
    directory that cannot be written only means the next process tries again."""
    import json

    marker = failure_marker_path(lib_path)
    tmp = "%s.%d.tmp" % (marker, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"inputs": inputs, "output": output}, f, indent=1)
        os.replace(tmp, marker)
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass


def build_addon(torch, cache_dir=None):
    """The addon library for the installed torch: the cached file when present, else built now
    (under a lock file beside it, so parallel processes build it once). Returns its path;
    raises RuntimeError (with the compiler's output) when the build fails, and remembers the
    failure beside the library (failure_marker_path): while the compiler, the flags
    (CXX, TVM_FFI_TORCH_ADDON_CFLAGS, TVM_FFI_TORCH_ADDON_LDFLAGS) and the addon's sources
    stay the same, later calls raise AddonBuildFailedBefore instead of building again."""
    from .utils.lockfile import FileLock

    lib_path = addon_path(torch, cache_dir)
    if os.path.isfile(lib_path):
        return lib_path
    inputs = _build_inputs()
    if _failed_before(lib_path, inputs):
        raise AddonBuildFailedBefore("an earlier build failed (%s)" % failure_marker_path(lib_path))
    os.makedirs(os.path.dirname(lib_path), exist_ok=True)
    with FileLock(lib_path + ".lock"):
        if not os.path.isfile(lib_path):
            # A process that built while this one waited for the lock may have failed.
            if _failed_before(lib_path, inputs):
                raise AddonBuildFailedBefore(
                    "an earlier build failed (%s)" % failure_marker_path(lib_path)
                )
            try:
                _run_build_script(lib_path)
            except Exception as err:
                _remember_failure(lib_path, inputs, str(err))
                raise
            try:
                os.remove(failure_marker_path(lib_path))
            except OSError:
                pass
    return lib_path


def _jit_addon(torch):
    """Step 4: the addon's capsule, or None when it cannot be built or loaded. A failed build
    warns (tensor_exchange.md 2.4) in the process that ran it; later processes find the
    failure remembered in the cache and neither build nor warn again."""
    lib_path = None
    try:
        lib_path = addon_path(torch)
        return load_addon(build_addon(torch))
    except AddonBuildFailedBefore:
        return None
    except Exception as err:
        message = "%s\n%s" % (_BUILD_FAILED, err)
        marker = failure_marker_path(lib_path) if lib_path else None
        if marker and os.path.isfile(marker):
            message += (
                "\n(tvm_ffi will not try again while %s exists: delete it, or change CXX or "
                "TVM_FFI_TORCH_ADDON_CFLAGS/LDFLAGS, to build again)" % marker
            )
        warnings.warn(message, stacklevel=2)
        return None


def _publish(torch):
    """Steps of tensor_exchange.md 2.4 in order; True when torch.Tensor ends up with a table."""
    tensor_cls = torch.Tensor
    if hasattr(tensor_cls, _ATTR):
        return True
    if _adopt_v12_table(tensor_cls):
        return True
    try:
        import torch_c_dlpack_ext  # noqa: F401  (installs the attribute on import)
    except ImportError:
        pass
    else:
        if hasattr(tensor_cls, _ATTR) or _adopt_v12_table(tensor_cls):
            return True
    capsule = _jit_addon(torch)
    if capsule is None:
        return False
    setattr(tensor_cls, _ATTR, capsule)
    return True


def _patch_cuda_stream(torch):
    """torch.cuda.Stream objects passed as arguments become their raw handle."""
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        return
    stream_cls = getattr(cuda, "Stream", None)
    if stream_cls is not None and not hasattr(stream_cls, "__cuda_stream__"):

        def __cuda_stream__(self):
            return (0, self.cuda_stream)

        stream_cls.__cuda_stream__ = __cuda_stream__


def ensure_torch_c_dlpack():
    """Runs the steps once torch is imported (never imports it): True when torch.Tensor
    publishes a table, False when it does not, None when torch is not imported yet or
    the module is disabled. Later calls return the first answer."""
    global _result
    if disabled():
        return None
    torch = sys.modules.get("torch")
    # A torch still being imported has no Tensor yet: try again later.
    if torch is None or getattr(torch, "Tensor", None) is None:
        return None
    with _lock:
        if _result is None:
            _result = _publish(torch)
            _patch_cuda_stream(torch)
        return _result


# ---- the names of the reference implementation's module, which clients call -------------------


def load_torch_c_dlpack_extension():
    """Runs the steps above now if torch is imported (it is never imported here: a torch
    imported later gets them on first use). Returns the addon library (a ctypes handle) when
    torch.Tensor's table comes from one this process loaded, else None."""
    ensure_torch_c_dlpack()
    torch = sys.modules.get("torch")
    if torch is None or getattr(torch, "Tensor", None) is None or disabled():
        return None
    try:
        lib_path = os.path.abspath(addon_path(torch))
    except Exception:  # a torch without the attributes the addon name needs
        return None
    with _addons_lock:
        return _addons.get(lib_path)


def _torch_extension_device(torch_module):
    """The backend named in the addon library's file name: "rocm" for a ROCm build of torch
    with a GPU, "cuda" for a CUDA one, else "cpu"."""
    cuda = getattr(torch_module, "cuda", None)
    if cuda is None or not cuda.is_available():
        return "cpu"
    version = getattr(torch_module, "version", None)
    if getattr(version, "hip", None):
        return "rocm"
    return "cuda"


def _create_dlpack_exchange_api_capsule(ptr_as_int):
    """A ``"dlpack_exchange_api"`` capsule of the table at address ptr_as_int."""
    return _capsule_of_address(ptr_as_int)


def _check_and_update_dlpack_c_exchange_api(tensor_cls):
    """Whether tensor_cls publishes an exchange table, publishing a 1.2-style one under the 1.3
    name first."""
    return hasattr(tensor_cls, _ATTR) or _adopt_v12_table(tensor_cls)


def patch_torch_cuda_stream_protocol():
    """Gives torch.cuda.Stream ``__cuda_stream__`` when CUDA is available and it has none."""
    torch = sys.modules.get("torch")
    if torch is not None:
        _patch_cuda_stream(torch)


def _on_type_without_table(cls):
    """The core's question about a type with no table (see the module doc): True when
    a table was just installed for it, False once nothing can change any more."""
    if _result is not None or disabled():
        return False
    torch = sys.modules.get("torch")
    tensor_cls = getattr(torch, "Tensor", None) if torch is not None else None
    if tensor_cls is None or not isinstance(cls, type) or not issubclass(cls, tensor_cls):
        return None
    return bool(ensure_torch_c_dlpack())


def _install():
    if disabled():
        return
    if "torch" in sys.modules and ensure_torch_c_dlpack() is not None:
        return
    core._set_exchange_missing_hook(_on_type_without_table)


_install()

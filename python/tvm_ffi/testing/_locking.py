"""A machine-local lock that serializes GPU use across parallel test processes."""

import getpass
import os
import tempfile
from pathlib import Path

from ..utils.lockfile import FileLock

_LOCK_DIR_ENV_VAR = "TVM_FFI_TEST_LOCK_DIR"
_LOCK_DIR_PREFIX = "tvm-ffi-test-locks"
_LOCK_FILENAME = "gpu.lock"


def _ensure_gpu_lock_path():
    """The path of the GPU lock file, its directory created when missing.

    The directory is ``$TVM_FFI_TEST_LOCK_DIR`` when set (for processes of several users that
    must share one lock), else ``<tempdir>/tvm-ffi-test-locks-<user>``: one per user, so that
    users sharing a host do not trip over each other's file permissions.
    """
    directory = os.environ.get(_LOCK_DIR_ENV_VAR)
    if not directory:
        try:
            user = getpass.getuser()
        except Exception:
            user = str(os.getuid()) if hasattr(os, "getuid") else "user"
        directory = os.path.join(tempfile.gettempdir(), "%s-%s" % (_LOCK_DIR_PREFIX, user))
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    return path / _LOCK_FILENAME


def run_with_gpu_lock(func, /, *args, **kwargs):
    """``func(*args, **kwargs)`` while holding the machine-local GPU lock; returns its result.

    Test workers running in parallel take the lock around everything that touches a device
    (creation, allocation, launches, synchronization and the checks of results), so that they
    do not use the GPU at the same time. Work that needs no device, such as compiling sources,
    belongs outside ``func`` so that it still runs in parallel.
    """
    with FileLock(_ensure_gpu_lock_path()):
        return func(*args, **kwargs)

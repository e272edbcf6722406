"""tvm_ffi.utils.lockfile.FileLock: advisory exclusive lock across processes."""

import subprocess
import sys

import pytest
from tvm_ffi.utils import FileLock
from tvm_ffi.utils.lockfile import FileLock as LockfileFileLock


def _other_process_acquire(path):
    code = "import sys; from tvm_ffi.utils import FileLock; print(FileLock(sys.argv[1]).acquire())"
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], cwd="/", capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_utils_exports_the_lockfile_class():
    assert FileLock is LockfileFileLock


def test_acquire_excludes_another_process(tmp_path):
    lock = FileLock(tmp_path / "lock")
    assert lock.acquire()
    assert _other_process_acquire(tmp_path / "lock") == "False"
    lock.release()
    assert _other_process_acquire(tmp_path / "lock") == "True"


def test_acquire_twice_on_one_instance_is_false(tmp_path):
    lock = FileLock(tmp_path / "lock")
    assert lock.acquire()
    assert not lock.acquire()
    lock.release()


def test_blocking_acquire_when_held_by_self_raises(tmp_path):
    lock = FileLock(tmp_path / "lock")
    lock.acquire()
    with pytest.raises(RuntimeError, match="Lock is already held by this instance."):
        lock.blocking_acquire()
    lock.release()


def test_blocking_acquire_times_out(tmp_path):
    holder = FileLock(tmp_path / "lock")
    holder.acquire()
    with pytest.raises(
        TimeoutError, match="Failed to acquire lock on '.*lock' after 0.05 seconds."
    ):
        FileLock(tmp_path / "lock").blocking_acquire(timeout=0.05, poll_interval=0.01)
    holder.release()


def test_context_manager_holds_then_releases_and_keeps_exceptions(tmp_path):
    lock = FileLock(tmp_path / "lock")
    with pytest.raises(KeyError):
        with lock:
            assert lock._file_descriptor is not None
            raise KeyError("x")
    assert lock._file_descriptor is None


def test_release_when_not_held_does_nothing(tmp_path):
    lock = FileLock(tmp_path / "lock")
    lock.release()
    assert lock._file_descriptor is None


def test_unopenable_path_is_a_runtime_error(tmp_path):
    with pytest.raises(RuntimeError, match="An unexpected error occurred"):
        FileLock(tmp_path / "no" / "such" / "dir" / "lock").acquire()

"""An advisory, exclusive, cross-process file lock (``fcntl.flock``; ``msvcrt.locking`` on
Windows)."""

import os
import sys
import time

if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd):
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd):
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd):
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """Exclusive lock on the file at ``lock_file_path`` (created when missing).

    ``acquire()`` tries once; ``blocking_acquire()`` waits. As a context manager it waits on
    entry and releases on exit. ``_file_descriptor`` is None whenever the lock is not held.
    """

    def __init__(self, lock_file_path):
        self.lock_file_path = os.fspath(lock_file_path)
        self._file_descriptor = None

    def acquire(self):
        """Take the lock without waiting: True when taken, False when another holder has it
        or this instance already holds it."""
        if self._file_descriptor is not None:
            return False
        try:
            fd = os.open(self.lock_file_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise RuntimeError("An unexpected error occurred: %s" % err) from err
        try:
            taken = _try_lock(fd)
        except OSError as err:
            os.close(fd)
            raise RuntimeError("An unexpected error occurred: %s" % err) from err
        if not taken:
            os.close(fd)
            return False
        self._file_descriptor = fd
        return True

    def blocking_acquire(self, timeout=None, poll_interval=0.1):
        """Wait for the lock (at most ``timeout`` seconds when given); returns True.

        RuntimeError when this instance holds it already; TimeoutError when time runs out.
        """
        if self._file_descriptor is not None:
            raise RuntimeError("Lock is already held by this instance.")
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.acquire():
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(
                    "Failed to acquire lock on '%s' after %s seconds."
                    % (self.lock_file_path, timeout)
                )
            time.sleep(poll_interval)
        return True

    def release(self):
        """Unlock and close the file; nothing when the lock is not held."""
        fd, self._file_descriptor = self._file_descriptor, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self):
        self.blocking_acquire()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.release()
        return False

    def __del__(self):
        self.release()

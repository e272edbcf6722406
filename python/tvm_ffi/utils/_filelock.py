"""An advisory inter-process file lock (fcntl.flock)."""

import fcntl
import os
import time


class FileLock:
    """Exclusive advisory lock on the file at path; usable as a context manager.

    ``acquire()`` tries once without blocking; ``blocking_acquire(timeout=None,
    poll_interval=0.1)`` retries until the lock is taken or timeout seconds passed.
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        self._fd = None

    def acquire(self):
        """Take the lock if free; True when this object now holds it."""
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    def blocking_acquire(self, timeout=None, poll_interval=0.1):
        """Wait for the lock; False when timeout (seconds) ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.acquire():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(poll_interval)
        return True

    def release(self):
        """Give the lock back (no-op when not held)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def __enter__(self):
        self.blocking_acquire()
        return self

    def __exit__(self, *exc):
        self.release()
        return False

    def __del__(self):
        self.release()

"""Child processes forked from one warm interpreter, for tests that kill a writer over and over.

Starting Python and importing the kiosk takes a child most of its short life (0.15-0.25 s
here), and a test that SIGKILLs a writer a hundred times paid for it a hundred times. The
zygote is one Python process started once, with the children's modules imported and nothing
else begun (no thread, no open database); each child is a fork of it running a script with
its own ``argv``, its standard output a pipe the test reads. The child is still a real
process that opens its own database and dies by a real SIGKILL at the moment the test
picks; the zygote reaps it and reports how it ended.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

SERVER = r"""
import json, os, sys, traceback
out_fd, control = int(sys.argv[1]), os.dup(1)
for name in sys.argv[2:]:
    __import__(name)
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(out_fd, 1)
            os.close(control)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            sys.argv = ["-c", *request["argv"]]
            exec(compile(request["code"], "<child>", "exec"), {"__name__": "__main__"})
            sys.stdout.flush()
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
    os.write(control, f"{pid}\n".encode())
    _, status = os.waitpid(pid, 0)
    os.write(control, f"{os.waitstatus_to_exitcode(status)}\n".encode())
"""


class Child:
    """One forked child: its output as it comes, and its end."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def read(self, timeout: float) -> bytes:
        """What the child has written so far, waiting up to ``timeout`` s for something."""
        ready, _, _ = select.select([self.zygote.out], [], [], timeout)
        return self.zygote.drain() if ready else b""

    def kill(self) -> tuple[int, bytes, str]:
        """SIGKILL the child (unless it has ended already): (its exit code, the rest of its
        output, its standard error)."""
        ended, _, _ = select.select([self.zygote.control], [], [], 0)
        if not ended:  # the zygote has not reaped it, so the pid is still this child's
            os.kill(self.pid, signal.SIGKILL)
        self.returncode = int(self.zygote.control.readline())
        return self.returncode, self.zygote.drain(), self.zygote.errors()


class Zygote:
    """A warm interpreter that forks children; a context manager. ``preload``: modules to import
    once; ``cwd``, ``env`` as for the children."""

    def __init__(self, preload: list[str], cwd: Path, env: dict[str, str], stderr: Path) -> None:
        self.out, out_w = os.pipe()
        os.set_blocking(self.out, False)
        self.stderr_path = stderr
        self._stderr = stderr.open("ab")
        self._seen_errors = 0
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(out_w), *preload], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, pass_fds=(out_w,),
            bufsize=0)  # unbuffered: a pending exit report is seen by select, not hidden in a buffer
        os.close(out_w)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.requests = self.process.stdin
        self.control = self.process.stdout
        self.child: Child | None = None

    def spawn(self, code: str, argv: list[str]) -> Child:
        """Fork a child that runs ``code`` as ``python -c code *argv`` would."""
        self.requests.write(json.dumps({"code": code, "argv": argv}).encode() + b"\n")
        self.requests.flush()
        line = self.control.readline()
        if not line:
            raise RuntimeError(f"the zygote has died: {self.errors()}")
        self.child = Child(self, int(line))
        return self.child

    def drain(self) -> bytes:
        data = b""
        while True:
            try:
                chunk = os.read(self.out, 65536)
            except BlockingIOError:
                return data
            if not chunk:
                return data
            data += chunk

    def errors(self) -> str:
        """The standard error written since the last call (a child's traceback)."""
        text = self.stderr_path.read_bytes()[self._seen_errors:]
        self._seen_errors += len(text)
        return text.decode(errors="replace")

    def close(self) -> None:
        if self.child is not None and self.child.returncode is None:  # a test that failed mid-child
            self.child.kill()
        self.requests.close()
        self.process.wait(10)
        self.control.close()
        os.close(self.out)
        self._stderr.close()

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

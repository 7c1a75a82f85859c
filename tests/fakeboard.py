"""A stand-in for a board and its flasher, for tests of the serial runner's board path.

`python fakeboard.py STATE ELF` is the "flasher": what it does is read from STATE/mode
("ok", "fail-once", "fail", "hang", "dead"); it counts its calls in STATE/count. Flashing
"ok" starts QEMU's mps2-an386 with the program and its UART0 on a pty (the board running
the new program; the previous one is stopped), and writes that pty's name to STATE/pty.
"dead" starts QEMU paused (-S): flashed, but the board never answers.

`Relay` (used by the tests) is the board's USB serial device: a pseudo-terminal that stays
while boards come and go behind it, passing bytes to and from the pty named in STATE/pty,
as an ST-LINK's virtual COM port stays while the target is reset and re-flashed.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path


def flash(state: Path, elf: str) -> int:
    n = int((state / "count").read_text()) + 1 if (state / "count").exists() else 1
    (state / "count").write_text(str(n))
    mode = (state / "mode").read_text().strip()
    if mode == "fail" or (mode == "fail-once" and n == 1):
        print("Error: init mode failed (unable to connect to the target)", file=sys.stderr)
        return 1
    if mode == "hang":
        time.sleep(3600)
    pid_file = state / "qemu.pid"
    if pid_file.exists():
        try:
            os.killpg(int(pid_file.read_text()), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
    log = state / "qemu.log"
    cmd = ["qemu-system-arm", "-M", "mps2-an386", "-display", "none", "-monitor", "none", "-serial", "pty"]
    cmd += ["-icount", "shift=0", "-kernel", elf] + (["-S"] if mode == "dead" else [])
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    pid_file.write_text(str(proc.pid))
    for _ in range(500):
        m = re.search(rb"char device redirected to (/dev/\S+)", log.read_bytes())
        if m:
            (state / "pty.new").write_bytes(m.group(1))
            os.replace(state / "pty.new", state / "pty")
            return 0
        time.sleep(0.01)
    print("qemu named no pty", file=sys.stderr)
    return 1


class Relay:
    """The stable serial device (`path`) in front of whichever QEMU STATE/pty names."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the device exists between sessions
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        current, fd = None, None
        while not self._stop:
            name = (self.state / "pty").read_text() if (self.state / "pty").exists() else None
            if name != current:
                if fd is not None:
                    os.close(fd)
                fd = None
                current = name
                if name:
                    try:
                        fd = os.open(name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
                        tty.setraw(fd)
                    except OSError:
                        fd, current = None, None
            fds = [self.master] + ([fd] if fd is not None else [])
            r, _, _ = select.select(fds, [], [], 0.02)
            for f in r:
                try:
                    data = os.read(f, 4096)
                except OSError:
                    data = b""
                    if f == fd:
                        os.close(fd)
                        fd, current = None, None
                        continue
                if f == self.master and fd is not None and data:
                    os.write(fd, data)
                elif f == fd and data:
                    os.write(self.master, data)
                # bytes for a board that is not there are lost, as on a real link

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        pid_file = self.state / "qemu.pid"
        if pid_file.exists():
            try:
                os.killpg(int(pid_file.read_text()), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        os.close(self.master)
        os.close(self._slave)


if __name__ == "__main__":
    sys.exit(flash(Path(sys.argv[1]), sys.argv[2]))

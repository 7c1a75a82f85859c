"""The serial transport: harness runs over a plain UART (docs/protocol.md).

A board has no semihosting: the harness's output, the driver's input and the exit code
travel as framed, checksummed lines over its UART (platforms/armv7m/serial.c on the
target). This module is the host's end: it starts the target (flashes a board, or starts
QEMU with its UART on a pseudo-terminal), opens the port with pyserial, does the
handshake, answers input requests and collects the output, and accepts a run only when
every frame arrived intact and in order. A transport error (lost or corrupt bytes, a
frame missing, the target restarting) raises LinkError and the run is tried again up to
`[runner] attempts` times; a target that never answers, or stops answering, raises
RunTimeout (a hang). Either way nothing of that run reaches the results store.

Frame: '!' SEQ(4 hex) TYPE CRC(8 hex) PAYLOAD '\\n'; CRC-32 (zlib's) over the wire bytes
of SEQ, TYPE and PAYLOAD; payload bytes outside 0x20..0x7e, '\\\\' and '!' escaped as
'\\\\' and two hex digits. Types, target to host: B boot (seq 0, repeated until answered),
D output, R input request ("OOOOOOOO LLLL": offset and length, hex), X exit (decimal
code); host to target: G go (answer to B), I input (seq of the request it answers,
empty payload = end of input).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pqlab import PqlabError
from pqlab.platforms import Platform
from pqlab.runner import Limit, RunError, RunTimeout, indented, reap, spawn

PROTOCOL = b"pqlab-serial 1"
PTY_LINE = re.compile(rb"char device redirected to (/dev/\S+)")
FLASHERS = {  # flasher -> (executable, Debian or PyPI package that provides it)
    "openocd": ("openocd", "apt-get install --no-install-recommends openocd"),
    "st-flash": ("st-flash", "apt-get install --no-install-recommends stlink-tools"),
    "pyocd": ("pyocd", "pip install pyocd"),
    "qemu": ("qemu-system-arm", "apt-get install --no-install-recommends qemu-system-arm"),
}
PORT_ENV = "PQLAB_SERIAL_PORT"  # the board's serial port, overriding platform.toml's `port`

# Test hook: called with every chunk read from the port and the session, returns what the
# session sees (fault injection: lost, corrupt bytes, a reset). None in normal use.
inject: Callable[[bytes, Session], bytes] | None = None


class LinkError(RunError):
    """The serial transport lost or corrupted data, or the target restarted: the run is void."""


class FlashError(RunTimeout):
    """The program could not be put on the target within the allowed attempts: the board
    does not answer. Treated like a hang, so a bench does not go on re-flashing it for
    every remaining program."""


def escape(data: bytes) -> bytes:
    out = bytearray()
    for b in data:
        if b < 0x20 or b > 0x7E or b in b"\\!":
            out += b"\\%02x" % b
        else:
            out.append(b)
    return bytes(out)


def unescape(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i] == 0x5C:  # backslash
            h = data[i + 1 : i + 3]
            if len(h) != 2 or not re.fullmatch(rb"[0-9a-f]{2}", h):
                raise ValueError(f"bad escape at byte {i}")
            out.append(int(h, 16))
            i += 3
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def frame(seq: int, ftype: str, payload: bytes = b"") -> bytes:
    body = b"%04x" % (seq & 0xFFFF) + ftype.encode() + escape(payload)
    crc = zlib.crc32(body)
    return b"!" + body[:5] + b"%08x" % crc + body[5:] + b"\n"


@dataclass
class Frame:
    seq: int
    type: str
    payload: bytes


@dataclass
class Bad:
    """Bytes that are not a valid frame: why, and the bytes."""

    reason: str
    raw: bytes


class Reader:
    """Splits the byte stream into frames and bad pieces (a frame that fails its checks,
    bytes outside any frame). Keeps an unfinished frame until its end arrives."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def feed(self, data: bytes) -> Iterator[Frame | Bad]:
        self.buf += data
        while self.buf:
            if self.buf[0] != 0x21:  # '!'
                cut = self.buf.find(b"!")
                cut = len(self.buf) if cut < 0 else cut
                noise = bytes(self.buf[:cut])
                del self.buf[:cut]
                yield Bad("bytes outside a frame", noise)
                continue
            nl = self.buf.find(b"\n")
            bang = self.buf.find(b"!", 1)
            if 0 <= bang < (nl if nl >= 0 else len(self.buf)):
                raw = bytes(self.buf[:bang])
                del self.buf[:bang]
                yield Bad("frame cut short (its end was lost)", raw)
                continue
            if nl < 0:
                return  # unfinished
            raw = bytes(self.buf[: nl + 1])
            del self.buf[: nl + 1]
            yield self.check(raw)

    @staticmethod
    def check(raw: bytes) -> Frame | Bad:
        m = re.fullmatch(rb"!([0-9a-f]{4})([A-Z])([0-9a-f]{8})([\x20-\x7e]*)\n", raw)
        if not m:
            return Bad("malformed frame", raw)
        seq, ftype, crc, payload = m.groups()
        if zlib.crc32(seq + ftype + payload) != int(crc, 16):
            return Bad("CRC mismatch", raw)
        try:
            data = unescape(payload)
        except ValueError as e:
            return Bad(f"malformed payload ({e})", raw)
        return Frame(int(seq, 16), ftype.decode(), data)


@dataclass
class Session:
    """One run's conversation with the target."""

    port: object  # a pyserial Serial (or anything with read(n), write(b))
    stdin: bytes
    cwd: Path
    output: bytearray = field(default_factory=bytearray)
    frames: int = 0
    booted: bool = False
    running: bool = False
    seq: int = 0
    exit_code: int | None = None
    input_served: int = 0

    def handle(self, item: Frame | Bad) -> None:
        if isinstance(item, Bad):
            if self.running:
                raise LinkError(
                    f"serial link: {item.reason} after frame {self.seq}: {item.raw[:80]!r} (lost or corrupt bytes)"
                )
            return  # before the handshake: start-up noise, stale bytes of an earlier run
        if item.type == "B":
            if self.running:
                raise LinkError(f"serial link: the target restarted (boot frame) after frame {self.seq}: reset mid-run")
            if item.payload != PROTOCOL:
                raise LinkError(f"serial link: target speaks {item.payload!r}, pqlab {PROTOCOL!r}")
            self.booted = True
            self.port.write(frame(0, "G"))
            return
        if not self.booted:
            return  # a frame of an earlier run, before this target's boot frame
        if item.seq != (self.seq + 1) & 0xFFFF:
            raise LinkError(
                f"serial link: frame {item.seq} after frame {self.seq}: "
                f"{(item.seq - self.seq - 1) & 0xFFFF} frame(s) lost or out of order"
            )
        self.running = True
        self.seq = item.seq
        self.frames += 1
        if item.type == "D":
            self.output += item.payload
        elif item.type == "R":
            m = re.fullmatch(rb"([0-9a-f]{8}) ([0-9a-f]{4})", item.payload)
            if not m:
                raise LinkError(f"serial link: malformed input request {item.payload!r}")
            off, n = int(m.group(1), 16), int(m.group(2), 16)
            if off > len(self.stdin):
                raise LinkError(f"serial link: input requested at offset {off}, beyond its {len(self.stdin)} bytes")
            self.port.write(frame(item.seq, "I", self.stdin[off : off + n]))
            self.input_served = max(self.input_served, min(len(self.stdin), off + n))
        elif item.type == "X":
            try:
                self.exit_code = int(item.payload)
            except ValueError:
                raise LinkError(f"serial link: malformed exit frame {item.payload!r}") from None
        else:
            raise LinkError(f"serial link: unknown frame type {item.type!r}")


def talk(port, stdin: bytes, deadline: float, cwd: Path, what: str, proc: subprocess.Popen | None = None) -> Session:
    """Run the conversation until the exit frame; raises LinkError or RunTimeout, and RunError
    when the target's process (QEMU) ends before the exit frame."""
    s = Session(port, stdin, cwd)
    reader = Reader()
    while s.exit_code is None:
        if proc is not None and proc.poll() is not None:
            err = (proc.stderr.read() or b"").decode(errors="replace")
            raise RunError(
                f"the target process ended (exit code {proc.returncode}) after {s.frames} frame(s) on {what}\n"
                f"  its stderr:\n{indented(err, 800)}\n  last output:\n{indented(s.output[-500:].decode(errors='replace'), 500)}"
            )
        if time.monotonic() > deadline:
            if not s.booted:
                raise RunTimeout(
                    f"target silent: no boot frame from {what} before the time limit "
                    "(not running, not flashed, wrong port or baud rate?)"
                )
            raise RunTimeout(
                f"target stopped answering after {s.frames} frame(s) (hung target?) on {what}\n"
                f"  last output:\n{indented(s.output[-500:].decode(errors='replace'), 500)}"
            )
        try:
            data = port.read(4096)
        except OSError as e:  # pyserial's SerialException is an OSError: the device went away
            if proc is not None:
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
                if proc.poll() is not None:
                    continue  # reported above, with the process's exit code and stderr
            raise LinkError(
                f"serial link: the port failed after {s.frames} frame(s) ({e}): board unplugged, "
                "or its USB serial device reset?"
            ) from e
        if inject is not None:
            data = inject(data, s)
        for item in reader.feed(data):
            s.handle(item)
    return s


def _config(plat: Platform) -> dict:
    r = plat.raw.get("runner", {})
    if "target" not in r and "flash" not in r:
        raise PqlabError(f"platform {plat.name}: a serial runner needs [runner] target (QEMU) or flash (a board)")
    return r


def executable(plat: Platform) -> str:
    r = _config(plat)
    return plat.subst((r.get("target") or r["flash"])[:1])[0]


def install_hint(plat: Platform) -> str:
    r = _config(plat)
    if "target" in r:
        return FLASHERS["qemu"][1]
    name = r.get("flasher", "")
    if name in FLASHERS:
        return FLASHERS[name][1]
    pk = r.get("packages", [])
    return f"apt-get install --no-install-recommends {' '.join(pk)}" if pk else "see docs/boards.md"


def _open(path: str, baud: int, wait_s: float = 0.0):
    """Open the port; a board whose USB serial device appears only after its reset is given
    `wait_s` seconds to appear."""
    try:
        import serial  # pyserial
    except ImportError as e:
        raise PqlabError("the serial runner needs pyserial: pip install pyserial (a pqlab dependency)") from e
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return serial.Serial(path, baud, timeout=0.02, write_timeout=5)
        except (serial.SerialException, OSError) as e:
            if time.monotonic() >= deadline:
                raise RunError(
                    f"cannot open serial port {path}: {e} (board connected? another program holding the port? "
                    f"${PORT_ENV} names another device)"
                ) from e
            time.sleep(0.1)


def _start_qemu(cmd: list[str], cwd: Path, limit: float) -> tuple[subprocess.Popen, str]:
    """Start a target that stays up for the session and names its pty on stdout."""
    proc = spawn(cmd, cwd)
    deadline = time.monotonic() + min(limit, 30)
    got = b""
    os.set_blocking(proc.stdout.fileno(), False)
    while time.monotonic() < deadline:
        chunk = proc.stdout.read() or b""
        got += chunk
        m = PTY_LINE.search(got)
        if m:
            return proc, m.group(1).decode()
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    reap(proc)
    err = proc.stderr.read() or b""
    raise RunError(
        f"the target command named no pty (no 'char device redirected to'):\n"
        f"  command: {shlex.join(cmd)}\n  output:\n{indented((got + err).decode(errors='replace'), 800)}"
    )


def _flash(plat: Platform, cmd: list[str], cwd: Path, attempts: int, timeout: float) -> None:
    """Run the flasher; a failure or a flasher that hangs is tried again, `attempts` in all."""
    errors = []
    for n in range(1, attempts + 1):
        try:
            proc = spawn(cmd, cwd)
        except OSError as e:
            raise FlashError(f"cannot start the flasher of {plat.name}: {e}") from e
        try:
            _, err = proc.communicate(timeout=timeout)
            if proc.returncode == 0:
                return
            errors.append(f"attempt {n}: exit code {proc.returncode}\n{indented(err.decode(errors='replace'), 400)}")
        except subprocess.TimeoutExpired:
            reap(proc)
            proc.communicate()
            errors.append(f"attempt {n}: no answer within {timeout:g} s (flash_timeout_s)")
        finally:
            reap(proc)
    raise FlashError(
        f"flashing {plat.name} failed {attempts} time(s) (board connected and powered? its probe free?):\n"
        f"  command: {shlex.join(cmd)}\n" + "\n".join(errors)
    )


def _binary(plat: Platform, elf: Path, cwd: Path) -> Path:
    out = cwd / "program.bin"
    r = subprocess.run([plat.tool("objcopy"), "-O", "binary", str(elf), str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RunError(f"objcopy -O binary {elf} failed: {r.stderr.strip()}")
    return out


def run_once(plat: Platform, elf: Path, stdin: bytes, limit: Limit, cwd: Path) -> tuple[str, int, str, list[str]]:
    """One attempt: start the target, talk to it. Returns (output, exit code, notes, command)."""
    r = _config(plat)
    baud = int(r.get("baud", 115200))
    deadline = time.monotonic() + limit.seconds
    values = {"elf": str(elf), "run_dir": str(cwd)}
    if any("{bin}" in a for a in r.get("flash", [])):
        values["bin"] = str(_binary(plat, elf, cwd))
    proc = None
    try:
        if "target" in r:
            cmd = plat.subst(r["target"], **values)
            proc, pty = _start_qemu(cmd, cwd, limit.seconds)
            path = str(r.get("port", "{pty}")).format(pty=pty)
        else:
            cmd = plat.subst(r["flash"], **values)
            path = os.environ.get(PORT_ENV) or str(r.get("port", "/dev/ttyACM0"))
        if proc is not None:
            port = _open(path, baud)
        elif Path(path).exists():
            # a board: the port is open before the flasher resets it, so nothing the fresh
            # program sends is missed; what came before (an earlier program) is dropped
            port = _open(path, baud)
            try:
                _flash(plat, cmd, cwd, int(r.get("flash_attempts", 3)), float(r.get("flash_timeout_s", 60)))
            except BaseException:
                port.close()
                raise
            port.reset_input_buffer()
        else:
            # a board whose serial device appears after the reset (native USB): flash, then wait
            _flash(plat, cmd, cwd, int(r.get("flash_attempts", 3)), float(r.get("flash_timeout_s", 60)))
            port = _open(path, baud, wait_s=10.0)
        try:
            s = talk(port, stdin, deadline, cwd, f"{path} ({plat.name})", proc)
        finally:
            port.close()
        note = f"{s.frames} frames, {len(s.output)} output bytes, {s.input_served} input bytes over {path}"
        return s.output.decode(errors="replace"), int(s.exit_code or 0), note, cmd
    finally:
        if proc is not None:
            reap(proc)


def run(plat: Platform, elf: Path, stdin: bytes, limit: Limit, cwd: Path, warn: Callable[[str], None]):
    """run_once, tried again after a transport error, `[runner] attempts` times in all."""
    attempts = int(plat.raw.get("runner", {}).get("attempts", 1))
    errors = []
    for n in range(1, attempts + 1):
        try:
            return run_once(plat, elf, stdin, limit, cwd)
        except LinkError as e:
            errors.append(f"attempt {n}: {e}")
            if n < attempts:
                warn(f"{plat.name}: run of {elf.name} void ({e}); trying again ({n + 1}/{attempts})")
    raise LinkError(
        f"serial transport failed in all {attempts} attempt(s), nothing recorded:\n  " + "\n  ".join(errors)
    )

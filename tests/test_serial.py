"""The serial transport end to end: pqlab's serial runner and protocol against QEMU's
mps2-an386 with its UART0 on a pseudo-terminal (docs/protocol.md), including faults: lost
bytes, corrupted bytes, a reset of the target mid-run, a silent target. A run whose
transport check failed is never stored."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import sys
import zlib
from pathlib import Path

import pytest
from cli_runner import pqlab

from pqlab import ROOT
from pqlab import serial as S
from pqlab.platforms import clear_platform_paths

FOREIGN = Path(__file__).parent / "foreign"
DEMO = ("demokem-plain", "--impl-path", FOREIGN, "-j", 1)


# ---- the protocol alone ----


def test_frame_round_trip_and_escapes():
    payload = bytes(range(256)) + b"!\\\n#pqlab 1 test\n"
    f = S.frame(0x1234, "D", payload)
    assert f.startswith(b"!1234D") and f.endswith(b"\n") and f.count(b"!") == 1 and f.count(b"\n") == 1
    (got,) = list(S.Reader().feed(f))
    assert got == S.Frame(0x1234, "D", payload)
    # the CRC is zlib's CRC-32 over the wire bytes of seq, type and payload
    assert int(f[6:14], 16) == zlib.crc32(f[1:6] + f[14:-1])


def test_every_single_byte_fault_is_seen():
    """Each byte of a frame lost, or changed to any other printable byte: never a valid frame
    that differs from the one sent."""
    f = S.frame(7, "D", b"speed crypto_kem_keypair 123456\n")
    for i in range(len(f)):
        variants = [f[:i] + f[i + 1 :]] + [f[:i] + bytes([c]) + f[i + 1 :] for c in range(0x20, 0x7F) if c != f[i]]
        for v in variants:
            items = list(S.Reader().feed(v + S.frame(8, "D", b"next")))
            good = [x for x in items if isinstance(x, S.Frame)]
            assert S.Frame(7, "D", b"speed crypto_kem_keypair 123456\n") not in good or v == f
            assert all(x in (S.Frame(8, "D", b"next"),) for x in good), (i, v)


def test_session_checks_sequence_and_reset():
    class Port:
        def __init__(self):
            self.sent = b""

        def write(self, b):
            self.sent += b

    s = S.Session(Port(), b"abc", Path("."))
    s.handle(S.Bad("bytes outside a frame", b"noise"))  # before the boot frame: ignored
    s.handle(S.Frame(0, "B", S.PROTOCOL))
    assert s.port.sent == S.frame(0, "G")
    s.handle(S.Frame(1, "R", b"00000001 0010"))
    assert s.port.sent.endswith(S.frame(1, "I", b"bc"))
    with pytest.raises(S.LinkError, match="1 frame\\(s\\) lost"):
        s.handle(S.Frame(3, "D", b"x"))
    with pytest.raises(S.LinkError, match="reset mid-run"):
        s.handle(S.Frame(0, "B", S.PROTOCOL))
    with pytest.raises(S.LinkError, match="lost or corrupt"):
        s.handle(S.Bad("CRC mismatch", b"!0002D..."))


# ---- end to end over QEMU's pty ----


@pytest.fixture
def one_attempt(tmp_path):
    """mps2-an386-uart as a platform outside the tree with a single attempt per run (faults
    are not hidden by a retry) and a QEMU monitor socket in the run folder (to reset the
    target)."""
    text = (ROOT / "platforms" / "mps2-an386-uart" / "platform.toml").read_text()
    text = text.replace('name = "mps2-an386-uart"', 'name = "an386-uart-once"').replace("attempts = 2", "attempts = 1")
    text = text.replace('"../armv7m/', '"{root}/platforms/armv7m/').replace("{platform_dir}/../", "{root}/platforms/")
    text = text.replace('"-monitor", "none"', '"-monitor", "unix:{run_dir}/monitor.sock,server=on,wait=off"')
    d = tmp_path / "plat" / "once"
    d.mkdir(parents=True)
    (d / "platform.toml").write_text(text)
    yield ("--platform-path", d, "-p", "an386-uart-once")
    clear_platform_paths()


@pytest.fixture
def hook():
    yield
    S.inject = None


def after_handshake(action):
    """An inject hook that applies `action(data, session, position)` to the bytes read once
    the session runs (after its first frame), position counting those bytes."""
    seen = {"n": 0}

    def f(data, s):
        if not s.running:
            return data
        pos = seen["n"]
        seen["n"] += len(data)
        return action(data, s, pos)

    return f


def monitor(run_dir: Path, command: bytes) -> None:
    """A command to the QEMU monitor of the run, waiting until QEMU has taken it (its next
    prompt, or the connection closing for `quit`): a command sent on a connection that closes
    at once may never be read."""
    with socket.socket(socket.AF_UNIX) as mon:
        mon.settimeout(10)
        mon.connect(str(run_dir / "monitor.sock"))
        got = b""
        while b"(qemu) " not in got:
            got += mon.recv(4096)
        mon.sendall(command + b"\n")
        got = b""
        try:
            while b"(qemu) " not in got:
                chunk = mon.recv(4096)
                if not chunk:
                    break
                got += chunk
        except OSError:
            pass


def test_program_over_uart():
    code, out = pqlab("test", *DEMO, "-p", "mps2-an386-uart")
    assert code == 0, out
    assert "ok   demokem-plain/ref on mps2-an386-uart" in out
    code, out = pqlab("test", "ml-kem-768", "-i", "ref", "-p", "mps2-an386-uart", "-j", 1)
    assert code == 0, out
    assert "ok   ml-kem-768/ref on mps2-an386-uart" in out


def test_figures_over_uart_equal_semihosting(tmp_path):
    """The transport stays outside the measured operations: the same stack peaks over the UART
    as over semihosting, and the same QEMU instruction counts to one SysTick tick."""
    from pqlab.results import Store

    db = tmp_path / "r.db"
    code, out = pqlab("bench", "ml-kem-768", "-i", "ref", "-p", "mps2-an386-uart", "-p", "mps2-an386", "-n", 2, "-j", 1,
                      "--db", db)  # fmt: skip
    assert code == 0, out
    s = Store(db, readonly=True)
    rows = s.latest()
    s.close()
    got: dict = {}
    for r in rows:
        if r["metric"] in ("speed", "stack"):
            got.setdefault(r["platform"], []).append((r["metric"], r["operation"], r["value"]))
    uart, semi = sorted(got["mps2-an386-uart"]), sorted(got["mps2-an386"])
    assert [r[:2] for r in uart] == [r[:2] for r in semi] and len(semi) >= 9
    for (metric, op, a), (_, _, b) in zip(uart, semi):
        # stack peaks exactly; instruction counts to QEMU's SysTick quantum (one tick = 40
        # instructions under -icount shift=0, platform.toml's timer note): where a tick falls
        # depends on the code before the measured call, which the two transports change
        assert a == b if metric == "stack" else abs(a - b) <= 40, (metric, op, a, b)


def prompt(tmp_path: Path) -> Path:
    """An ACVP ML-KEM-768 keyGen prompt of two cases, answers from kyber-py."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_acvp_framework import keygen_prompt

    d = keygen_prompt(2)
    d["testGroups"] = [g for g in d["testGroups"] if g["parameterSet"] == "ML-KEM-768"]
    p = tmp_path / "prompt.json"
    p.write_text(json.dumps(d))
    return p


def test_driver_input_over_uart(tmp_path):
    """ACVP through the driver program: its whole input travels as requested, checked frames."""
    p = prompt(tmp_path)
    code, out = pqlab("acvp", p, "--expected", p, "-p", "mps2-an386-uart", "-j", 1)
    assert code == 0, out
    assert "2 test cases answered on mps2-an386-uart, 2 compared, 0 mismatches" in out


OK_FRAME = re.compile(rb"![0-9a-f]{4}D[0-9a-f]{8}[^!\n]*( ok\\0a)\n")


def once(edit):
    """An inject hook that applies `edit(data, m)` once, to the first whole data frame ending in
    a test record's ' ok' + escaped newline (m: its match, group 1 the ' ok...'): a point well
    inside the run. Bytes are passed on in whole lines (a partial frame waits for the next
    read), so a frame split between two reads is still found."""
    done: list = []
    held = bytearray()

    def f(d, s):
        held.extend(d)
        cut = held.rfind(b"\n") + 1
        out = bytes(held[:cut])
        del held[:cut]
        m = None if done else OK_FRAME.search(out)
        if m is None:
            return out
        done.append(m)
        return edit(out, m)

    return f


def test_lost_byte_is_reported(one_attempt, hook):
    S.inject = once(lambda d, m: d[: m.start(1) + 1] + d[m.start(1) + 2 :])  # the 'o' is lost
    code, out = pqlab("test", *DEMO, *one_attempt)
    assert code != 0
    assert "serial transport failed in all 1 attempt(s), nothing recorded" in out
    assert "CRC mismatch" in out


def test_lost_frame_end_is_reported(one_attempt, hook):
    S.inject = once(lambda d, m: d[: m.end() - 1] + d[m.end() :])  # the frame's newline
    code, out = pqlab("test", *DEMO, *one_attempt)
    assert code != 0 and "frame cut short (its end was lost)" in out


def test_lost_frame_is_reported(one_attempt, hook):
    S.inject = once(lambda d, m: d[: m.start()] + d[m.end() :])
    code, out = pqlab("test", *DEMO, *one_attempt)
    assert code != 0 and "1 frame(s) lost or out of order" in out


def test_corrupt_byte_is_reported_and_retried(one_attempt, hook):
    def flipper():
        """'ok' of a test record becomes 'ol': printable, so only the CRC can tell."""
        return once(lambda d, m: d[: m.start(1) + 2] + b"l" + d[m.start(1) + 3 :])

    S.inject = flipper()
    code, out = pqlab("test", *DEMO, *one_attempt)
    assert code != 0 and "CRC mismatch" in out and "nothing recorded" in out
    # the in-tree platform allows two attempts: the first void, the second clean
    S.inject = flipper()
    code, out = pqlab("test", *DEMO, "-p", "mps2-an386-uart")
    assert code == 0, out
    assert "void" in out and "CRC mismatch" in out and "trying again (2/2)" in out


def test_reset_mid_run_is_reported(one_attempt, hook, tmp_path):
    """A real reset of the emulated board (QEMU monitor: system_reset) while the driver program
    waits for its input: the request is held back until the reset is done, so the target
    cannot run on."""
    import re

    def reset(d, s):
        if getattr(s, "was_reset", False):
            if not getattr(s, "rebooted", False):
                # until the target boots again, hold back what it sent before the reset took
                # effect (a repeated request)
                b = d.find(b"!0000B")
                if b < 0:
                    return b""
                s.rebooted = True
                return d[b:]
            return d
        m = re.search(rb"![0-9a-f]{4}R", d)
        if m is None:
            return d
        s.was_reset = True
        monitor(s.cwd, b"system_reset")
        return d[: m.start()]

    S.inject = reset
    code, out = pqlab("acvp", prompt(tmp_path), *one_attempt, "-j", 1, "--timeout", 60)
    assert code != 0
    assert "the target restarted (boot frame)" in out and "reset mid-run" in out
    assert "nothing recorded" in out


def test_target_process_ending_mid_run(one_attempt, hook, tmp_path):
    """QEMU itself ends (monitor: quit) while the driver waits for input: reported with its exit
    code at once, not after the time limit."""
    import re

    def quit_(d, s):
        if getattr(s, "quit", False):
            return b""  # nothing more from the target while QEMU quits
        m = re.search(rb"![0-9a-f]{4}R", d)
        if m is None:
            return d
        s.quit = True
        monitor(s.cwd, b"quit")
        return d[: m.start()]

    S.inject = quit_
    code, out = pqlab("acvp", prompt(tmp_path), *one_attempt, "-j", 1, "--timeout", 60)
    assert code != 0
    assert "the target process ended (exit code 0)" in out and "timeout" not in out


def test_silent_target_is_a_hang_and_nothing_is_stored(one_attempt, hook, tmp_path):
    db = tmp_path / "results.sqlite"
    S.inject = lambda d, s: b""  # nothing ever arrives
    code, out = pqlab("bench", *DEMO, *one_attempt, "--db", db, "--timeout", 3, "-n", 1)
    assert code != 0
    assert "timeout after 3 s" in out and "target silent: no boot frame" in out

    # the target stops answering after its first frame: once the handshake is done, the bytes
    # up to the first newline (one frame, however the reads split it), then nothing
    def stop_after_first_frame(d, s):
        if getattr(s, "cut", False) or not s.booted:
            return d if not s.booted else b""
        nl = d.find(b"\n")
        if nl < 0:
            return d
        s.cut = True
        return d[: nl + 1]

    S.inject = stop_after_first_frame
    code, out = pqlab("bench", *DEMO, *one_attempt, "--db", db, "--timeout", 3, "-n", 1)
    assert code != 0 and "target stopped answering after" in out and "(hung target?)" in out
    if db.exists():
        with sqlite3.connect(db) as c:
            assert c.execute("SELECT COUNT(*) FROM measurements").fetchone()[0] == 0

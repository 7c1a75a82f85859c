"""Runners: execute a harness binary on a platform (native, QEMU system/user, pqlab-sim).

Every run has a timeout. Any failure — timeout, crash, non-zero exit, protocol error —
raises RunError with the platform, the binary and the exact command line.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from pathlib import Path

from pqlab import PqlabError
from pqlab.platforms import Platform
from pqlab.protocol import Output, ProtocolError, parse


class RunError(PqlabError):
    """A failed run; `stderr` and `returncode` are the runner's, when it ran at all."""

    def __init__(self, message: str, stderr: str = "", returncode: int | None = None) -> None:
        super().__init__(message)
        self.stderr = stderr
        self.returncode = returncode


def indented(text: str, limit: int, prefix: str = "    ") -> str:
    """The last `limit` characters of `text` (a runner's stderr), one indented line per line,
    so that reports (valgrind's, a compiler's) read as they were printed, not as a repr."""
    text = text.strip()
    if len(text) > limit:
        text = "[...]" + text[-limit:]
    return "\n".join(prefix + line for line in text.splitlines()) if text else prefix + "(empty)"


def command(plat: Platform, elf: Path, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The runner's command line; `extra` runner options go right before the binary."""
    if plat.runner_kind == "native":
        return [str(elf)]
    out: list[str] = []
    for item in plat.runner_command:
        if item == "{elf}":
            out += [*extra, str(elf)]
        else:
            out += plat.subst([item])
    return out


def run(
    plat: Platform,
    elf: Path,
    program: str,
    stdin: bytes = b"",
    timeout: float | None = None,
    extra: list[str] | tuple[str, ...] = (),
) -> Output:
    """Run `elf`, feed `stdin` (also as ./pqlab.in for semihosting targets), parse its output."""
    plat.check_runner()
    cmd = command(plat, elf, extra)
    limit = timeout or plat.timeout_s
    where = f"platform {plat.name}, binary {elf}\n  command: {shlex.join(cmd)}"
    with tempfile.TemporaryDirectory(prefix="pqlab-run-") as cwd:
        (Path(cwd) / "pqlab.in").write_bytes(stdin)
        try:
            proc = subprocess.run(cmd, input=stdin, capture_output=True, timeout=limit, cwd=cwd)
        except subprocess.TimeoutExpired as e:
            tail = (e.stdout or b"")[-500:].decode(errors="replace")
            raise RunError(f"timeout after {limit:.0f} s (hung target?) on {where}\n  last output:\n{indented(tail, 500)}") from e
        except OSError as e:
            raise RunError(f"cannot start the runner on {where}: {e}") from e
    text = proc.stdout.decode(errors="replace")
    err = proc.stderr.decode(errors="replace").strip()
    try:
        out = parse(text, expect_program=program)
    except ProtocolError as e:
        raise RunError(
            f"{e} (exit code {proc.returncode}) on {where}\n  stderr:\n{indented(err, 1000)}\n"
            f"  stdout tail:\n{indented(text, 600)}",
            err,
            proc.returncode,
        ) from e
    if proc.returncode != 0 or not out.ok:
        failed = [" ".join(f) for t, f in out.records if t == "test" and f[-1] != "ok"]
        raise RunError(
            f"{program} failed (exit code {proc.returncode}) on {where}\n"
            + (f"  failed checks: {', '.join(failed)}\n" if failed else "")
            + f"  stderr:\n{indented(err, 1000)}",
            err,
            proc.returncode,
        )
    return out

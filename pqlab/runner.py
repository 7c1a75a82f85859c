"""Runners: execute a harness binary on a platform (native, QEMU system/user, pqlab-sim, Verilator).

Every run has a time limit (`Limit`: seconds and where that figure came from). Any
failure — timeout, crash, non-zero exit, protocol error — raises RunError with the
platform, the binary and the exact command line; a timeout raises RunTimeout.

Children never outlive pqlab. Each runs in a process group of its own (a new session),
so a timeout or an interrupt kills the runner with everything it started. On Linux each
child also asks the kernel for SIGKILL when pqlab dies (prctl PR_SET_PDEATHSIG), which
covers a SIGKILL of pqlab itself, the one signal it cannot handle. Its working folder,
/tmp/pqlab-run-<pid>-*, is removed when the run ends, at exit and after a signal; a
folder left by a killed pqlab is swept by the next pqlab (`sweep_stale`).
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pqlab import PqlabError
from pqlab.platforms import Platform
from pqlab.protocol import Output, ProtocolError, parse

TEMP_PREFIX = "pqlab-run-"
timeout_override: float | None = None  # the command's --timeout (pqlab.limits.set_override)


class RunError(PqlabError):
    """A failed run; `stderr` and `returncode` are the runner's, when it ran at all, and
    `seconds`, `cpu_seconds` its wall and CPU time when it ended (Ran's; None: not known)."""

    def __init__(self, message: str, stderr: str = "", returncode: int | None = None) -> None:
        super().__init__(message)
        self.stderr = stderr
        self.returncode = returncode
        self.seconds: float | None = None
        self.cpu_seconds: float | None = None


def indented(text: str, limit: int, prefix: str = "    ") -> str:
    """The last `limit` characters of `text` (a runner's stderr), one indented line per line,
    so that reports (valgrind's, a compiler's) read as they were printed, not as a repr."""
    text = text.strip()
    if len(text) > limit:
        text = "[...]" + text[-limit:]
    return "\n".join(prefix + line for line in text.splitlines()) if text else prefix + "(empty)"


class RunTimeout(RunError):
    """The target did not finish within its time limit; it was killed with its process group."""


class Interrupted(BaseException):
    """pqlab received SIGINT or SIGTERM: every child was killed, no new run starts.

    A BaseException, like KeyboardInterrupt, so that no `except Exception` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum  # the shell's convention: 130 for SIGINT, 143 for SIGTERM


@dataclass(frozen=True)
class Limit:
    """A run's time limit and the rule it came from (shown in a timeout's message)."""

    seconds: float
    source: str

    def __str__(self) -> str:
        return f"{self.seconds:g} s ({self.source})"


@dataclass
class Ran:
    """A finished run: its parsed output, the exact command, its wall time, its limit and its
    CPU time (user + system seconds of the runner and the children it waited for, from the
    kernel's accounting of the reaped process; None where the runner's process was not ours to
    reap: the serial transport)."""

    output: Output
    command: list[str]
    seconds: float
    limit: Limit
    cpu_seconds: float | None = None
    # the whole run's cycles as the runner counted them (pqlab-sim's JSON report, the Verilator
    # test bench's --stats), when run_full was asked for them (count_cycles); else None
    cycles: int | None = None


# --- children and temporary folders -------------------------------------------------------------

_lock = threading.RLock()  # re-entrant: the signal handler runs in the main thread, maybe inside run()
_children: set[subprocess.Popen] = set()
_folders: set[str] = set()
_stopping: int | None = None  # the signal that stops pqlab, once received


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's process group (its pid: it leads a session of its own).

    Only before the child is reaped, so the group id cannot belong to another process."""
    if proc.returncode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def stop_all(signum: int = signal.SIGTERM) -> None:
    """Kill every running child's process group and refuse new runs from now on."""
    global _stopping
    with _lock:
        if _stopping is None:
            _stopping = signum
        for proc in list(_children):
            _kill_group(proc)


def resume() -> None:
    """Allow runs again after stop_all() for an error, not a signal (pqlab used as a library)."""
    global _stopping
    with _lock:
        _stopping = None


def _remove_folders() -> None:
    with _lock:
        for d in list(_folders):
            shutil.rmtree(d, ignore_errors=True)
            _folders.discard(d)


atexit.register(_remove_folders)


@contextmanager
def temp_dir(kind: str = "") -> Iterator[Path]:
    """A private folder /tmp/pqlab-run-<pid>-[<kind>-]<random>, removed when the block ends,
    at exit and after SIGINT/SIGTERM; the pid lets a later pqlab sweep it if this one is
    killed outright."""
    d = tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-{kind + '-' if kind else ''}")
    with _lock:
        _folders.add(d)
    try:
        yield Path(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
        with _lock:
            _folders.discard(d)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def sweep_stale(tmp: Path | None = None) -> list[Path]:
    """Remove the run folders of pqlab processes that no longer exist (killed with SIGKILL,
    so their own clean-up never ran). Only our own folders whose owner pid is dead; a
    folder without a pid in its name (older pqlab) is left alone. Returns what was removed."""
    tmp = Path(tmp or tempfile.gettempdir())
    removed = []
    for d in tmp.glob(f"{TEMP_PREFIX}*"):
        m = re.match(rf"{re.escape(TEMP_PREFIX)}(\d+)-", d.name)
        try:
            if not m or not d.is_dir() or d.is_symlink() or d.stat().st_uid != os.getuid():
                continue
        except OSError:
            continue
        pid = int(m.group(1))
        if pid != os.getpid() and not _alive(pid):
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


@contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends (storing one run is all or nothing, and
    the run that was just stored is not lost to an interrupt halfway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _handle(signum: int, _frame) -> None:
    stop_all(signum)
    raise Interrupted(signum)


@contextmanager
def signal_handlers() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM kill every child's process group, then raise
    Interrupted in the main thread; finally-clauses remove the run folders and store nothing
    partial. The previous handlers come back afterwards."""
    old = {s: signal.signal(s, _handle) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _die_with_parent(parent: int) -> None:
    """Runs in the child between fork and exec: SIGKILL when the thread that started it dies
    (the runner thread waits for the child, so that is when pqlab dies). One prepared
    foreign call, nothing that could wait for a lock another thread held at the fork."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG, kept across exec
        if os.getppid() != parent:  # pqlab died before the call took effect
            os._exit(137)


def _prctl():
    if not sys.platform.startswith("linux"):
        return None
    try:
        f = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    f.argtypes = (ctypes.c_int, ctypes.c_ulong)
    f.restype = ctypes.c_int
    return f


_PRCTL = _prctl()


class Child(subprocess.Popen):
    """A Popen that keeps the kernel's resource usage of the reaped child (os.wait4): its
    user and system CPU time with that of the descendants it waited for (ninja's compilers,
    a runner's helpers). `cpu_seconds` is None until the child is reaped here."""

    rusage = None

    def _try_wait(self, wait_flags):  # the one place Popen reaps a child it waits for
        try:
            pid, sts, ru = os.wait4(self.pid, wait_flags)
        except ChildProcessError:  # reaped elsewhere: its usage is lost, cpu_seconds stays None
            return self.pid, 0
        if pid == self.pid:
            self.rusage = ru
        return pid, sts

    @property
    def cpu_seconds(self) -> float | None:
        return None if self.rusage is None else self.rusage.ru_utime + self.rusage.ru_stime


def _spawn(cmd: list[str], cwd: Path) -> Child:
    with _lock:
        if _stopping is not None:
            raise Interrupted(_stopping)
        proc = Child(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
            # the preexec function makes one prepared foreign call and no allocation
            preexec_fn=functools.partial(_die_with_parent, os.getpid()) if _PRCTL is not None else None,  # noqa: PLW1509
        )
        _children.add(proc)
    return proc


def reap(proc: subprocess.Popen) -> None:
    """Kill a child's process group (if still running), wait for it and forget it."""
    _kill_group(proc)
    if proc.returncode is None:
        proc.wait()
    with _lock:
        _children.discard(proc)


def spawn(cmd: list[str], cwd: Path) -> Child:
    """Start a child in a session of its own that dies with pqlab (see the module's notes);
    end it with reap()."""
    return _spawn(cmd, cwd)


# --- running a program --------------------------------------------------------------------------


def command(plat: Platform, elf: Path, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The runner's command line; `extra` runner options go right before the binary."""
    if plat.runner_kind == "native":
        return [str(elf)]
    values = {}
    if plat.runner_kind == "verilator":
        from pqlab import rtl

        values["model"] = str(rtl.model_path(plat))  # built once, then cached
    out: list[str] = []
    for item in plat.runner_command:
        if item == "{elf}":
            out += [*extra, str(elf)]
        else:
            out += plat.subst([item], **values)
    return out


def run_full(
    plat: Platform,
    elf: Path,
    program: str,
    stdin: bytes = b"",
    timeout: float | Limit | None = None,
    extra: list[str] | tuple[str, ...] = (),
    count_cycles: bool = False,
) -> Ran:
    """Run `elf`, feed `stdin` (also as ./pqlab.in for semihosting targets), parse its output.
    count_cycles: also ask a cycle-level runner (pqlab-sim, Verilator) for the whole run's
    cycles (Ran.cycles); other runners have none to give (None)."""
    plat.check_runner()
    counting = [] if not count_cycles else _CYCLES_OPTIONS.get(plat.runner_kind, [])
    cmd = command(plat, elf, [*extra, *counting])
    if timeout is None and timeout_override is not None:
        limit = Limit(timeout_override, "--timeout")
    elif timeout is None:
        limit = Limit(plat.timeout_s, f"timeout_s of platform {plat.name}")
    elif isinstance(timeout, Limit):
        limit = timeout
    else:
        limit = Limit(float(timeout), "--timeout")
    where = f"platform {plat.name}, binary {elf}\n  command: {shlex.join(cmd)}"
    if plat.runner_kind == "serial":
        return _run_serial(plat, elf, program, stdin, limit)
    t0 = time.perf_counter()
    with temp_dir() as cwd:
        (cwd / "pqlab.in").write_bytes(stdin)
        try:
            proc = _spawn(cmd, cwd)
        except OSError as e:
            raise RunError(f"cannot start the runner on {where}: {e}") from e
        try:
            try:
                stdout, stderr = proc.communicate(stdin, timeout=limit.seconds)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                stdout, stderr = proc.communicate()
                tail = stdout[-500:].decode(errors="replace")
                timeout_error = RunTimeout(
                    f"timeout after {limit}: {program} did not finish (hung target?) and was killed "
                    f"with its process group, on {where}\n"
                    f"  last output:\n{indented(tail, 500)}"
                )
                timeout_error.seconds, timeout_error.cpu_seconds = time.perf_counter() - t0, proc.cpu_seconds
                raise timeout_error from None
        finally:
            _kill_group(proc)  # an exception (Interrupted) left it running
            if proc.returncode is None:
                proc.wait()
            with _lock:
                _children.discard(proc)
        report = cwd / _SIM_REPORT
        sim_report = report.read_text() if counting and report.is_file() else None
    seconds = time.perf_counter() - t0
    with _lock:
        if _stopping is not None and proc.returncode == -signal.SIGKILL:
            raise Interrupted(_stopping)  # killed by stop_all: not a failure of the target
    text = stdout.decode(errors="replace")
    err = stderr.decode(errors="replace").strip()
    try:
        out = parse(text, expect_program=program)
    except ProtocolError as e:
        error = RunError(
            f"{e} (exit code {proc.returncode}) on {where}\n  stderr:\n{indented(err, 1000)}\n"
            f"  stdout tail:\n{indented(text, 600)}",
            err,
            proc.returncode,
        )
        error.seconds, error.cpu_seconds = seconds, proc.cpu_seconds
        raise error from e
    if proc.returncode != 0 or not out.ok:
        failed = [" ".join(f) for t, f in out.records if t == "test" and f[-1] != "ok"]
        error = RunError(
            f"{program} failed (exit code {proc.returncode}) on {where}\n"
            + (f"  failed checks: {', '.join(failed)}\n" if failed else "")
            + f"  stderr:\n{indented(err, 1000)}",
            err,
            proc.returncode,
        )
        error.seconds, error.cpu_seconds = seconds, proc.cpu_seconds
        raise error
    return Ran(out, cmd, seconds, limit, proc.cpu_seconds, _run_cycles(plat, sim_report, err) if counting else None)


_SIM_REPORT = "pqlab-run.json"  # pqlab-sim's report, in the run's own folder
# the runner options that make a cycle-level runner count the whole run (run_full's count_cycles)
_CYCLES_OPTIONS = {"pqlab-sim": ["--json", _SIM_REPORT], "verilator": ["--stats"]}


def _run_cycles(plat: Platform, sim_report: str | None, stderr: str) -> int:
    """The whole run's cycles: pqlab-sim's report or the test bench's `tb-stats` line; a runner
    asked for them that gives none is an error (a figure is never silently missing)."""
    if plat.runner_kind == "pqlab-sim":
        if sim_report is None:
            raise RunError(f"pqlab-sim wrote no report ({_SIM_REPORT}) on platform {plat.name}", stderr)
        return int(json.loads(sim_report)["cycles"])
    from pqlab import rtl

    m = rtl.STATS.search(stderr)
    if m is None:
        raise RunError(f"the test bench printed no tb-stats line on platform {plat.name}", stderr)
    return int(m.group(1))


def _run_serial(plat: Platform, elf: Path, program: str, stdin: bytes, limit: Limit) -> Ran:
    """A run over the serial transport (pqlab/serial.py): same parse, same checks."""
    from pqlab import serial as S

    t0 = time.perf_counter()
    with temp_dir("serial") as cwd:
        try:
            text, code, note, cmd = S.run(
                plat, elf, stdin, limit, cwd, lambda m: print(f"warning: {m}", file=sys.stderr)
            )
        except RunTimeout as e:
            raise RunTimeout(f"timeout after {limit}: {program} on platform {plat.name}, binary {elf}: {e}") from None
        except RunError as e:
            raise type(e)(f"{program} on platform {plat.name}, binary {elf}: {e}") from None
    seconds = time.perf_counter() - t0
    where = f"platform {plat.name}, binary {elf} ({note})"
    try:
        out = parse(text, expect_program=program)
    except ProtocolError as e:
        raise RunError(f"{e} (exit code {code}) on {where}\n  output tail:\n{indented(text, 600)}", "", code) from e
    if code != 0 or not out.ok:
        failed = [" ".join(f) for t, f in out.records if t == "test" and f[-1] != "ok"]
        raise RunError(
            f"{program} failed (exit code {code}) on {where}\n"
            + (f"  failed checks: {', '.join(failed)}\n" if failed else "")
            + f"  output tail:\n{indented(text, 600)}",
            "",
            code,
        )
    return Ran(out, cmd, seconds, limit)


def run(
    plat: Platform,
    elf: Path,
    program: str,
    stdin: bytes = b"",
    timeout: float | Limit | None = None,
    extra: list[str] | tuple[str, ...] = (),
) -> Output:
    """run_full() and only its parsed output."""
    return run_full(plat, elf, program, stdin, timeout, extra).output

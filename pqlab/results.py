"""Results store: every measurement with its full context in SQLite, never overwritten.

One run (one program on one implementation and platform) is written in one
transaction, so a crash mid-run leaves every earlier result intact. A database
that is not a valid pqlab store is reported, never replaced.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import subprocess
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from pqlab import ROOT, PqlabError

SCHEMA_VERSION = "4"  # 2: runs.model; 3: runs.toolchain, runs.host, runs.worker; 4: runs.code_placement
_V4 = (("code_placement", "''"),)  # before version 4 no platform had more than one code placement
MIGRATIONS = {
    # version -> (columns added to runs, each with the value that describes every older run)
    "2": (
        ("toolchain", "'gcc'"),  # before version 3 every run was built with the platform's own compiler
        ("host", "''"),  # not recorded
        ("worker", "''"),  # no cluster before version 3: a local run
        *_V4,
    ),
    "3": _V4,
}
RUN_DEFAULTS = {"toolchain": "gcc", "host": "", "worker": "", "code_placement": ""}
DEFAULT_DB = Path(os.environ.get("PQLAB_DB") or ROOT / "results" / "pqlab.db")
"""The results database: $PQLAB_DB, else results/pqlab.db in the project checkout (never the
working directory, so a bench from another folder adds to the same database)."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL, program TEXT NOT NULL, scheme TEXT NOT NULL, implementation TEXT NOT NULL,
    impl_dir TEXT NOT NULL, platform TEXT NOT NULL, core TEXT NOT NULL, clock_hz INTEGER NOT NULL,
    compiler TEXT NOT NULL, compiler_version TEXT NOT NULL, cflags TEXT NOT NULL,
    pqlab_commit TEXT NOT NULL, dirty INTEGER NOT NULL, iterations INTEGER NOT NULL,
    timer TEXT NOT NULL, unit TEXT NOT NULL, runner TEXT NOT NULL, command TEXT NOT NULL,
    model TEXT NOT NULL, toolchain TEXT NOT NULL DEFAULT 'gcc', host TEXT NOT NULL DEFAULT '',
    worker TEXT NOT NULL DEFAULT '', code_placement TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS measurements(
    run_id INTEGER NOT NULL REFERENCES runs(id), metric TEXT NOT NULL, operation TEXT NOT NULL,
    idx INTEGER NOT NULL, value REAL NOT NULL);
CREATE INDEX IF NOT EXISTS m_run ON measurements(run_id);
"""


@dataclass
class Context:
    scheme: str
    implementation: str
    impl_dir: str
    platform: str
    core: str
    clock_hz: int
    compiler: str
    compiler_version: str
    cflags: str
    iterations: int
    timer: str
    unit: str
    runner: str
    command: str
    model: str = ""  # the simulator's timing model for simulated platforms, else ""
    program: str = ""
    toolchain: str = "gcc"  # pqlab/toolchains.py: "gcc" is the platform's own compiler
    host: str = ""  # the machine that built and ran it
    worker: str = ""  # the cluster worker's address (--cluster), "" for a local run
    # where the program's code ran from when the platform has more than one placement
    # (platform.toml placement / fallback_placement, e.g. "itcm" or "flash"), else ""
    code_placement: str = ""
    pqlab_commit: str = ""
    dirty: int = 0
    date: str = ""


@cache
def git_state() -> tuple[str, int]:
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown", 1
    return commit or "unknown", int(bool(status))


class Store:
    """The results database. `readonly=True` opens it for reading only (reports, comparisons):
    nothing is created or written, and a database on a read-only file or medium can be read."""

    def __init__(self, path: Path | str = DEFAULT_DB, readonly: bool = False) -> None:
        self.path = Path(path)
        existed = self.path.exists() and self.path.stat().st_size > 0
        if readonly and not existed:
            raise PqlabError(f"no results database at {self.path}: run `pqlab bench` first (or choose one with --db)")
        if not readonly:
            if existed and not os.access(self.path, os.W_OK):
                raise PqlabError(
                    f"results database {self.path} is read-only: cannot store results in it; "
                    "make it writable or choose another with --db"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if readonly:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
            else:
                # concurrent writers (two benches on one database) wait for each other's transaction
                self.db = sqlite3.connect(self.path, timeout=60)
            self.missing: tuple[str, ...] = ()  # columns an older schema lacks (read-only use)
            if existed:
                self._check(readonly)
            if not readonly:
                with self.db:
                    self.db.executescript(SCHEMA)
                    self.db.execute("INSERT OR IGNORE INTO meta VALUES('schema_version', ?)", (SCHEMA_VERSION,))
        except sqlite3.DatabaseError as e:
            if "readonly" in str(e):
                raise PqlabError(
                    f"results database {self.path} is read-only ({e}): cannot store results in it; "
                    "make it writable or choose another with --db"
                ) from e
            raise PqlabError(
                f"results database {self.path} is corrupt or not a pqlab database ({e}); "
                "it was left untouched: move it away or choose another with --db"
            ) from e

    def _check(self, readonly: bool) -> None:
        res = self.db.execute("PRAGMA integrity_check").fetchone()[0]
        if res != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {res}")
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "runs", "measurements"} <= tables:
            raise sqlite3.DatabaseError(f"missing pqlab tables (found {sorted(tables)})")
        ver = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if ver and ver[0] in MIGRATIONS:
            added = MIGRATIONS[ver[0]]
            if readonly:  # read as it is; the new columns read as their values for old runs
                self.missing = tuple(c for c, _ in added)
                return
            with self.db:  # one transaction: the whole migration or none of it
                for column, value in added:
                    self.db.execute(f"ALTER TABLE runs ADD COLUMN {column} TEXT NOT NULL DEFAULT {value}")
                self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))
            return
        if not ver or ver[0] != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"schema version {ver and ver[0]} (expected {SCHEMA_VERSION})")

    def add_run(self, ctx: Context, values: list[tuple[str, str, float]]) -> int:
        """Store one run and its (metric, operation, value) rows atomically; returns the run id."""
        if not values:
            raise PqlabError(f"refusing to store an empty run of {ctx.program} for {ctx.scheme}/{ctx.implementation}")
        commit, dirty = git_state()
        ctx.pqlab_commit, ctx.dirty = commit, dirty
        ctx.date = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        row = asdict(ctx)
        with self.db:
            cur = self.db.execute(
                f"INSERT INTO runs({', '.join(row)}) VALUES({', '.join('?' * len(row))})", list(row.values())
            )
            run_id = cur.lastrowid
            counters: dict[tuple[str, str], int] = {}
            rows = []
            for metric, op, value in values:
                idx = counters.get((metric, op), 0)
                counters[(metric, op)] = idx + 1
                rows.append((run_id, metric, op, idx, float(value)))
            self.db.executemany("INSERT INTO measurements VALUES(?,?,?,?,?)", rows)
        return run_id

    def latest(self, schemes=(), impls=(), platforms=()) -> list[dict]:
        """The newest measurements of every (scheme, implementation, platform, toolchain, metric, operation)."""
        same_tc = "" if "toolchain" in self.missing else "AND r2.toolchain = r.toolchain"
        q = f"""
            SELECT r.*, m.metric, m.operation, m.value FROM measurements m JOIN runs r ON r.id = m.run_id
            WHERE r.id = (SELECT MAX(r2.id) FROM runs r2 JOIN measurements m2 ON m2.run_id = r2.id
                          WHERE r2.scheme = r.scheme AND r2.implementation = r.implementation
                          AND r2.platform = r.platform {same_tc} AND m2.metric = m.metric AND m2.operation = m.operation)
        """
        args: list = []
        for col, vals in (("scheme", schemes), ("implementation", impls), ("platform", platforms)):
            if vals:
                q += f" AND r.{col} IN ({', '.join('?' * len(vals))})"
                args += list(vals)
        q += " ORDER BY r.scheme, r.implementation, r.platform, m.metric, m.operation, m.idx"
        self.db.row_factory = sqlite3.Row
        try:
            return [{**{c: RUN_DEFAULTS[c] for c in self.missing}, **dict(r)} for r in self.db.execute(q, args)]
        finally:
            self.db.row_factory = None

    def distinct(self, column: str) -> list[str]:
        """The stored values of one of the selection columns (scheme, implementation, platform)."""
        assert column in ("scheme", "implementation", "platform")
        return [r[0] for r in self.db.execute(f"SELECT DISTINCT {column} FROM runs ORDER BY 1")]

    def close(self) -> None:
        self.db.close()


def context_json(row: dict) -> str:
    keys = [f for f in Context.__dataclass_fields__ if f not in ("scheme", "implementation", "platform")]
    return json.dumps({k: row[k] for k in keys})

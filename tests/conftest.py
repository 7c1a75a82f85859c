"""Suite-wide hooks: where the external data was found (tests/extdata.py, docs/vectors.md)."""

from __future__ import annotations

import pytest
from extdata import REQUIRE_ENV, required, skip_reason

from pqlab import external


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "external_missing(message): fail at set-up, a required external file is missing")


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = []
    for kind, base in (("vectors", external.vectors_dir()), ("thirdparty", external.thirdparty_dir())):
        reason = skip_reason(kind)
        state = "found" if base.is_dir() else ("MISSING, tests needing it fail" if required() else "not found")
        lines.append(f"pqlab external {kind}: {base} ({state})" + (f"; {reason}" if reason else ""))
    if required():
        lines.append(f"pqlab: {REQUIRE_ENV} is set: a test never skips for missing external data")
    return lines


def pytest_runtest_setup(item: pytest.Item) -> None:
    mark = item.get_closest_marker("external_missing")
    if mark is not None:
        pytest.fail(mark.args[0], pytrace=False)

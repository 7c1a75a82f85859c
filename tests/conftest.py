"""Suite-wide hooks: where the external data was found (tests/extdata.py, docs/vectors.md)."""

from __future__ import annotations

import pytest
from extdata import REQUIRE_ENV, required

from pqlab import external


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "external_missing(message): fail at set-up, a required external file is missing")


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = []
    for kind, base, env in (
        ("vectors", external.vectors_dir(), external.VECTORS_ENV),
        ("thirdparty", external.thirdparty_dir(), external.THIRDPARTY_ENV),
    ):
        if base.is_dir():
            state = "found"
        elif required():
            state = f"NOT FOUND and {REQUIRE_ENV} is set: tests that read it fail"
        else:
            state = f"not found: tests that read it are skipped (set {env}; docs/vectors.md)"
        lines.append(f"pqlab external {kind}: {base}: {state}")
    return lines


def pytest_runtest_setup(item: pytest.Item) -> None:
    mark = item.get_closest_marker("external_missing")
    if mark is not None:
        pytest.fail(mark.args[0], pytrace=False)

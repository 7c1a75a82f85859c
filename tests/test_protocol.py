"""The harness output protocol is parsed strictly: anything short of a complete run is an error."""

import pytest

from pqlab.protocol import ProtocolError, parse

GOOD = "#pqlab 1 speed timer=dwt\nspeed keypair 100\nspeed keypair 120\ninfo x y\n#end ok 3\n"


def test_good_run():
    out = parse(GOOD, expect_program="speed")
    assert out.ok and out.timer == "dwt"
    assert out.of("speed") == [["keypair", "100"], ["keypair", "120"]]


def test_noise_before_header_is_ignored():
    assert parse("boot banner\n" + GOOD).ok


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "no '#pqlab' header"),
        ("#pqlab 2 speed\n#end ok 0\n", "unsupported protocol"),
        ("#pqlab 1 speed timer=x\nspeed keypair 100\n", "truncated"),
        ("#pqlab 1 speed timer=x\nspeed keypair 100\n#end ok 2\n", "2 records, 1 received"),
        ("#pqlab 1 speed timer=x\nspeed keypair abc\n#end ok 1\n", "not a number"),
        ("#pqlab 1 speed timer=x\nspeed keypair\n#end ok 1\n", "needs 2 fields"),
        ("#pqlab 1 speed timer=x\nbogus 1 2\n#end ok 1\n", "unknown record"),
        ("#pqlab 1 speed timer=x\n#fault hardfault pc=0x100\n", "target fault"),
        ("#pqlab 1 speed timer=x\n#end ok 0\nspeed keypair 1\n", "after '#end'"),
        ("#pqlab 1 speed timer=x\n#end maybe 0\n", "malformed trailer"),
    ],
)
def test_bad_runs_are_errors(text, reason):
    with pytest.raises(ProtocolError, match=reason):
        parse(text)


def test_wrong_program():
    with pytest.raises(ProtocolError, match="expected program stack"):
        parse(GOOD, expect_program="stack")


def test_failed_run_is_not_ok():
    out = parse("#pqlab 1 test timer=x\ntest roundtrip fail\n#end fail 1\n")
    assert not out.ok

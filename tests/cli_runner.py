"""The one way tests call the pqlab command line in-process."""

from click.testing import CliRunner

from pqlab.cli import main


def pqlab(*args):
    """Exit status and everything printed (stdout and stderr, as a user sees it)."""
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def pqlab_stdout(*args):
    """Exit status and stdout alone: machine output (--json, --format json) without the notes on stderr."""
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.stdout

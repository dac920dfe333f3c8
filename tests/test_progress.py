"""Long operations show a progress bar on a terminal, and none when output is piped or --json is given."""
import os
import pty
import subprocess

import pytest


@pytest.fixture
def demo(empty):
    empty("demo")
    return empty


def _on_a_terminal(args: list[str]) -> str:
    """Run `campaign` with stdout and stderr on a pseudo-terminal; return what the terminal showed."""
    master, slave = pty.openpty()
    process = subprocess.Popen(["campaign", *args], stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        shown += chunk
    process.wait()
    os.close(master)
    assert process.returncode == 0, shown
    return shown.decode(errors="replace")


@pytest.mark.parametrize("command, label", [(["rebuild"], "Rebuilding"),
                                            (["export", "--format", "csv", "-o", "{tmp}/out.csv"], "Exporting csv")])
def test_a_terminal_sees_a_progress_bar(demo, tmp_path, command, label):
    args = ["--db", demo.path, *[a.format(tmp=tmp_path) for a in command]]
    assert label in _on_a_terminal(args)


def test_piped_output_and_json_show_no_progress_bar(demo, tmp_path):
    piped = subprocess.run(["campaign", "--db", demo.path, "rebuild"], capture_output=True, text=True)
    assert piped.returncode == 0 and "Rebuilding" not in piped.stdout + piped.stderr
    assert "Rebuilding" not in _on_a_terminal(["--db", demo.path, "--json", "rebuild"])

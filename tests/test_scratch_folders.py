"""A process killed on the way leaves its scratch folder (an audit's rebuild of a long campaign:
hundreds of MiB); the next command that makes one removes it, and never a running process's."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from campaign_ledger.ledger import scratch_folders

ROOT = Path(__file__).resolve().parents[1]
KILLED_INSIDE = """
import os, signal, sys
from campaign_ledger.ledger import scratch_folders
made = scratch_folders.folder(sys.argv[1])  # held: a context manager let go removes its folder
folder = made.__enter__()
open(os.path.join(folder, "rebuild.db"), "wb").write(b"x" * 4096)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_inside(tmp: Path, purpose: str) -> Path:
    """A process killed while its scratch folder holds a file: the folder it left."""
    done = subprocess.run([sys.executable, "-c", KILLED_INSIDE, purpose], cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp)})
    assert done.returncode == -signal.SIGKILL
    left = [p for p in tmp.iterdir() if p.name.startswith(scratch_folders.PREFIX)]
    assert len(left) == 1 and (left[0] / "rebuild.db").exists()
    return left[0]


def test_a_killed_process_s_folder_goes_with_the_next_one_made_and_a_running_one_s_stays(tmp_path, monkeypatch):
    left = _killed_inside(tmp_path, "audit")
    running = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        theirs = tmp_path / f"{scratch_folders.PREFIX}{running.pid}-audit-abc"
        theirs.mkdir()
        unrelated = tmp_path / "campaign-scratch-notapid-x"
        unrelated.mkdir()
        killed = subprocess.Popen([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])
        os.waitid(os.P_PID, killed.pid, os.WEXITED | os.WNOWAIT)  # dead, not reaped: a zombie its parent keeps
        unreaped = tmp_path / f"{scratch_folders.PREFIX}{killed.pid}-audit-def"
        unreaped.mkdir()
        monkeypatch.setenv("TMPDIR", str(tmp_path))
        monkeypatch.setattr("tempfile.tempdir", None)  # asked again: TMPDIR
        with scratch_folders.folder("replay") as mine:
            assert Path(mine).parent == tmp_path and Path(mine).is_dir()
            assert not left.exists() and not unreaped.exists()
            assert theirs.is_dir() and unrelated.is_dir()
        killed.wait()
        assert not Path(mine).exists()
    finally:
        running.communicate(b"")


def test_an_audit_removes_what_a_killed_audit_left_and_its_own(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    db = str(tmp_path / "heist.db")
    campaign = [sys.executable, "-m", "campaign_ledger.cli", "--db", db]
    assert subprocess.run([*campaign, "demo"], cwd=ROOT, env=env, capture_output=True).returncode == 0
    left = _killed_inside(tmp_path, "audit")
    audited = subprocess.run([*campaign, "audit"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert audited.returncode == 0, audited.stderr
    assert "Clean." in audited.stdout
    assert not left.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(scratch_folders.PREFIX)]

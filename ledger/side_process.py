"""Half of a long job run beside the other half, in a second process, on the machine's other core.

A rebuild (and an audit, which rebuilds into a scratch file) spends part of its time recomputing
the hash chain over every entry and the rest applying the entries to the read tables. The two
need only the same stored rows, so on a machine with two cores the chain is recomputed by a
forked process on its own connection while this one applies the rows: the rebuild takes about
as long as the longer half, not their sum.

The parent owns the outcome: `finish` waits for the child's result and raises the child's
exception if it failed; `stop` ends the child when the parent fails first (its error is the one
the user sees). The child ignores Ctrl-C (the parent stops it), never prints a traceback, and
leaves without running the parent's exit handlers (the files and connections it inherited are
not its to close).
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from typing import Any, Callable

from campaign_ledger.ledger.errors import Unusable


class ChildFailed(Unusable):
    """The child stopped without its result (killed), or with an error that could not be sent whole."""


SIDE_FROM = 10_000  # entries: a shorter ledger is read by one process (a second costs more than it saves)


def worth_it(app: Any) -> bool:
    """Whether a whole-ledger job on `app` should share its work with a second process: the
    ledger is a long one, in a file (the second process opens it again; a server's ledger and a
    memory one are read by one), on a machine with a second core."""
    env = getattr(app, "env", None) or {}
    name = env.get("SQLITE_DBNAME", "")
    in_a_file = env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and ":memory:" not in name \
        and "mode=memory" not in name
    return in_a_file and cores() > 1 and (app.recorder.max_notification_id() or 0) >= SIDE_FROM


def cores(quota_file: str = "/sys/fs/cgroup/cpu.max") -> float:
    """The cores this process may run on: those its affinity allows, no more than its container's
    CPU quota grants (a container pinned to one core, or given one core's time, would only make the
    second process share it: the same work and the cost of a fork)."""
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open(quota_file) as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            return min(allowed, int(quota) / int(period))
    except (OSError, ValueError):
        pass
    return allowed


def core_idle(loadavg: str = "/proc/loadavg") -> bool:
    """Whether a core stands idle beside this process now: the tasks running or ready to run at
    this moment, this one among them, leave one. Work that costs more CPU in all, done beside this
    process, pays only then (an audit's second decoding of the ledger: on a busy shared machine its
    extra CPU is taken from the same share of the cores the audit's own process gets, so it
    lengthened the audit). The count of this moment, not the minute's load average: that one still
    counts the campaign's own last command (an import or a rebuild just before) for a minute after."""
    try:
        with open(loadavg) as f:
            runnable = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):  # not Linux: the minute's average, or none
        try:
            return os.getloadavg()[0] <= cores() - 1
        except OSError:
            return True
    return runnable <= cores() - 1


KILLED = ("The second process working beside this one stopped without an answer (was it killed?); "
          "nothing was changed. Run the command again.")


class SideProcess:
    """`work(*args)` in a forked process (it starts with this one's modules and values)."""

    def __init__(self, work: Callable[..., Any], *args: Any) -> None:
        context = multiprocessing.get_context("fork")
        self._answer, answer = context.Pipe(duplex=False)  # (receiving end, sending end)
        self.process = context.Process(target=_run, args=(work, args, answer, self._answer, os.getpid()), daemon=True)
        self.process.start()
        answer.close()  # the child's end: its exit closes the pipe, so a killed child is seen

    def finish(self) -> Any:
        """The child's result once it is done (its exception raised if it failed)."""
        try:
            kind, value = self._answer.recv()
        except EOFError:
            raise ChildFailed(KILLED) from None
        finally:
            self._answer.close()
            self.process.join()
        if kind == "failed":
            raise value
        return value

    def stop(self) -> None:
        """End the child now (the parent failed: nothing it was doing is wanted)."""
        self._answer.close()
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()


def _run(work: Callable[..., Any], args: tuple, answer: Any, parents_end: Any, parent: int) -> None:
    """The child: the work, its result or error sent back, and out without Python's exit handlers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches both: the parent stops the child
    _die_with(parent)
    parents_end.close()
    try:
        try:
            answer.send(("done", work(*args)))
        except BaseException as e:  # noqa: BLE001 (everything goes back to the parent, nothing is printed)
            answer.send(("failed", _sendable(e)))
    except BaseException:  # noqa: BLE001 (the parent is gone: no one to tell)
        pass
    finally:
        os._exit(0)


def _die_with(parent: int) -> None:
    """On Linux the child is killed when the parent dies (a command killed mid-way leaves no work
    running on: without this an audit's second process read on to its end, seconds, for no one)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # not Linux: the child finishes its work, finds the pipe closed and leaves
        return
    if os.getppid() != parent:  # the parent died before that took hold
        os._exit(0)


def _sendable(error: BaseException) -> BaseException:
    """The error itself when the parent can rebuild it from the pipe, else its words."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # an error whose constructor takes other arguments than its message
        return ChildFailed(f"{type(error).__name__}: {error}")

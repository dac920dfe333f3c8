"""bench/mutation.py's judgement of which surviving mutants change only a message's wording."""
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutation_report", ROOT / "bench" / "mutation.py")
report = importlib.util.module_from_spec(spec)
sys.modules["mutation_report"] = report  # dataclasses look their module up
spec.loader.exec_module(report)

SOURCE = '''
def check(stress, names, what=None):
    known = ", ".join(names)
    if stress < 0:
        raise RuleViolation(f"Stress {stress} is below zero; "
                            f"known: {known}.")
    if stress > 10:
        raise BadInput("Too much Stress.")
    total = _whole(stress, "Stress level")
    return {"stress": total, "mode": "cohort"}
'''


def diff(before: str, after: str) -> str:
    return f"--- a\n+++ b\n@@ -1 +1 @@\n-{before}\n+{after}\n"


@pytest.mark.parametrize("before, after", [
    ('                            f"known: {known}.")', '                            f"known: {None}.")'),
    ('    known = ", ".join(names)', '    known = None'),
    ('        raise BadInput("Too much Stress.")', '        raise BadInput("XXToo much Stress.XX")'),
    ('        raise BadInput("Too much Stress.")', '        raise BadInput(None)'),
    ('    total = _whole(stress, "Stress level")', '    total = _whole(stress, None)'),
])
def test_a_change_to_what_a_refusal_says_is_wording(before, after):
    assert report.only_wording(diff(before, after), SOURCE)


@pytest.mark.parametrize("before, after", [
    ('    if stress < 0:', '    if stress <= 0:'),
    ('        raise BadInput("Too much Stress.")', '        raise RuleViolation("Too much Stress.")'),
    ('    return {"stress": total, "mode": "cohort"}', '    return {"stress": total, "mode": "XXcohortXX"}'),
    ('    total = _whole(stress, "Stress level")', '    total = _whole(None, "stress")'),
])
def test_a_change_to_what_a_rule_does_or_refuses_with_is_behaviour(before, after):
    assert not report.only_wording(diff(before, after), SOURCE)


def test_a_literal_that_is_also_data_is_never_wording():
    source = SOURCE.replace('_whole(stress, "Stress level")', '_whole(stress, "stress")')
    assert not report.only_wording(diff('    total = _whole(stress, "stress")', '    total = _whole(stress, None)'),
                                   source)

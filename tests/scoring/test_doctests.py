"""Every example in the engine's docstrings runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"
# The engine's modules and those of its packages (scoring/live/), but not its API (scoring/api/).
MODULES = sorted(
    ".".join(path.relative_to(SCORING.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in [*SCORING.glob("*.py"), *SCORING.glob("live/*.py")]
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no doctested example"

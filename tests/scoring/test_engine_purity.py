"""The rules engine imports nothing from Django or DRF; only scoring/api/ may."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
FRAMEWORKS = {"django", "rest_framework"}


def engine_files() -> list[Path]:
    """Every Python file of the engine: scoring/ without scoring/api/."""
    return sorted(
        path for path in SCORING.rglob("*.py") if "api" not in path.relative_to(SCORING).parts
    )


def module_name(path: Path) -> str:
    """The dotted module name of a file under the project root."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


ENGINE_MODULES = sorted({module_name(path) for path in engine_files()})

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_the_engine_has_modules() -> None:
    assert "scoring" in ENGINE_MODULES
    assert {"scoring.cards", "scoring.melds", "scoring.hands"} <= set(ENGINE_MODULES)


def test_importing_the_engine_loads_no_web_framework() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *ENGINE_MODULES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(json.loads(done.stdout))
    assert not loaded & FRAMEWORKS


def imported_roots(tree: ast.AST) -> set[str]:
    """The top-level packages a module imports, absolutely."""
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_engine_file_imports_a_web_framework(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert not imported_roots(tree) & FRAMEWORKS

"""README's Layout section names every module of the app and every layer of the contracts, so
a newcomer who trusts it is not misled: a module added, moved or removed fails here until the
section says where it stands."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def layout() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("\n## Layout\n")
    return readme[start : readme.index("\n## ", start + 1)]


def test_every_module_of_the_app_is_named_in_the_layout() -> None:
    section = layout()
    modules = {
        path.stem
        for path in (ROOT / "scorekeeper").rglob("*.py")
        if path.stem != "__init__" and "translations" not in path.parts
    }
    assert sorted(name for name in modules if f"`{name}`" not in section) == []


def test_every_layer_of_the_contracts_is_named_in_the_layout() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = settings["tool"]["importlinter"]["contracts"]
    layers = next(contract["layers"] for contract in contracts if contract["type"] == "layers")
    names = {name.strip() for line in layers for name in line.split("|")}
    section = layout()
    missing = [n for n in sorted(names) if f"`{n}`" not in section and f"`{n}/`" not in section]
    assert missing == []

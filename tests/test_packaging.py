"""What an installed copy needs ships with it: the package data patterns of pyproject.toml
cover every template, static file and catalog (an icon left out made ``/sw.js`` a 500 there)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"


def test_every_page_asset_is_in_the_package_data() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = settings["tool"]["setuptools"]["package-data"]["scorekeeper"]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern)}
    needed = {
        path
        for folder in ("static", "templates")
        for path in (PACKAGE / folder).rglob("*")
        if path.is_file()
    } | set(PACKAGE.glob("translations/**/*.po"))
    assert sorted(str(p.relative_to(PACKAGE)) for p in needed - shipped) == []

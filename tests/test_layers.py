"""The tree is the pipeline: every import points down it (docs/architecture.md).

    read → typeset → draw → impose → write → export / errata → serve → cli
              decks (on read)   i18n (on draw, for the fit check, and write, for sync)

The test reads every module's imports with `ast` — at module level and inside
functions alike (a lazy import is still a dependency) — and fails on an import
from a stage its stage may not use.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "ppgen"

BASE = {"errors", "units", "termtable"}  # low modules every stage may import
# stage → the stages it may import from (besides itself and BASE)
MAY_IMPORT = {
    "base": set(),
    "read": set(),
    "typeset": {"read"},
    "project": {"read", "typeset"},  # the front door: loaded data, fonts on demand
    "draw": {"read", "typeset"},  # receives loaded data and a canvas; never the stages after it
    "decks": {"read"},  # decklists and their rules never touch the PDF stack
    "impose": {"read", "typeset", "draw"},
    "write": {"read", "typeset", "project", "draw", "impose"},
    "i18n": {"read", "typeset", "project", "draw", "write"},  # the fit check lays cards out; sync writes files
    "export": {"read", "typeset", "project", "draw", "impose", "write", "decks"},
    "errata": {"read", "typeset", "project", "draw", "impose", "write", "i18n"},  # compares versions, prints their changed cards
    "serve": {"read", "typeset", "project", "draw", "impose", "write", "decks", "i18n", "export", "errata"},  # the workbench marks what changed since a version
    "press": {"read", "typeset", "project", "draw", "impose", "write", "decks", "export"},  # print-service files and the preflight
    "cli": {"read", "typeset", "project", "draw", "impose", "write", "decks", "i18n", "export", "errata", "serve", "press"},
    "root": {"read", "typeset", "project", "draw", "impose", "write", "decks", "i18n", "export", "errata", "serve", "press", "cli"},
}


def stage_of(module: str) -> str:
    """ppgen.read.yamlio → read; ppgen.units → base; ppgen.project → project; ppgen → root."""
    parts = module.split(".")
    if parts[0] != "ppgen":
        raise ValueError(module)
    if len(parts) == 1 or parts[1] in ("__init__", "__main__"):
        return "root"
    if parts[1] in BASE:
        return "base"
    return parts[1]


def module_name(path: Path, package: Path) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, package: Path) -> list[tuple[int, str]]:
    """(line, imported ppgen module) for every import in the file, lazy ones included."""
    module = module_name(path, package)
    is_package = path.name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking_only(node)
               for n in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "ppgen"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "ppgen":
                continue
            for alias in node.names:
                if target == "ppgen" and alias.name == "__version__":
                    found.append((node.lineno, "ppgen.units"))  # the version string: a base fact
                elif (package.parent / Path(*target.split("."), alias.name)).exists() or \
                        (package.parent / Path(*target.split("."), alias.name + ".py")).exists():
                    found.append((node.lineno, f"{target}.{alias.name}"))  # `from . import flow`: the module
                else:
                    found.append((node.lineno, target))
    return found


def violations(package: Path) -> list[str]:
    out = []
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, package)
        stage = stage_of(module)
        allowed = MAY_IMPORT[stage] | {stage, "base"}
        for line, target in imports_of(path, package):
            to = stage_of(target)
            if to not in allowed:
                out.append(f"{path.relative_to(package.parent)}:{line}: {module} ({stage}) imports {target} ({to})")
    return out


def test_every_import_points_down_the_pipeline():
    assert violations(PACKAGE) == []


def test_every_module_belongs_to_a_stage():
    stages = {stage_of(module_name(p, PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert stages <= set(MAY_IMPORT), stages - set(MAY_IMPORT)
    top = sorted(p.name for p in PACKAGE.iterdir() if not p.name.startswith((".", "__pycache__")))
    assert top == sorted(["__init__.py", "__main__.py", "cli", "decks", "draw", "errata", "errors.py", "export", "i18n", "impose",
                          "press", "project.py", "read", "serve", "termtable.py", "typeset", "units.py", "write"])


@pytest.mark.parametrize("where, source", [
    ("draw/bad.py", "from ..write.build import build\n"),  # drawing reaching the build
    ("read/bad.py", "def f():\n    from ..typeset import text\n"),  # a lazy import is a dependency too
    ("decks/bad.py", "import ppgen.draw.card_front\n"),
    ("impose/bad.py", "from ppgen.write import pdf\n"),
])
def test_a_wrong_import_is_caught(tmp_path, where, source):
    fake = tmp_path / "ppgen"
    for stage in ("read", "typeset", "draw", "impose", "write", "decks"):
        (fake / stage).mkdir(parents=True)
        (fake / stage / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    (fake / "write" / "build.py").write_text("def build(): pass\n")
    (fake / "write" / "pdf.py").write_text("")
    (fake / "typeset" / "text.py").write_text("")
    (fake / "draw" / "card_front.py").write_text("")
    (fake / "draw" / "fine.py").write_text("from ..typeset import text\nfrom ..read import x\n")
    (fake / where).write_text(source)
    found = violations(fake)
    assert len(found) == 1 and where in found[0], found


def test_type_checking_imports_do_not_count(tmp_path):
    fake = tmp_path / "ppgen"
    (fake / "draw").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "draw" / "__init__.py").write_text("")
    (fake / "draw" / "hint.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..write.pdf import Document\n")
    assert violations(fake) == []

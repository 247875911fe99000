"""A game's name stays in the game's own files.

Outside tests/, docs/, bench/ and Markdown, the name of a game (as a whole
word, in any case) appears only in files whose path names the game (its
home, its screens, its words, its JavaScript), plus at most three others:
the registry's line (src/oriente/games/__init__.py) and the protocol's test
vectors (protocol/vectors: the frames of a table of every game, and the
script that writes them). Everything else (the server, the clients, the
page and its build, the SDK, the JavaScript bot, the shared catalogues,
pyproject.toml, the kit) knows a game by what the registry and the game
say. Checked for Oro, whose name is no word of another game (Samurai is
also one of Oriente's cards).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = ("tests/", "docs/", "bench/")
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
                ".hypothesis", "build"}
MOST_OTHERS = 3


def _files(root: Path) -> list[str]:
    """The project's files, as paths relative to its root: git's (tracked or
    new, not ignored) where there is a git checkout, else a walk of the tree."""
    git = shutil.which("git")
    if git is not None and (root / ".git").exists():
        run = subprocess.run([git, "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=root,
                             capture_output=True, check=True)
        return sorted({p for p in run.stdout.decode().split("\0") if p and (root / p).is_file()})
    found = []
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info")]
        found += [(Path(here) / n).relative_to(root).as_posix() for n in names]
    return sorted(found)


def naming(name: str, root: Path = ROOT) -> list[str]:
    """The files outside tests, docs, benchmarks and Markdown that name game
    `name` although their path does not."""
    word = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
    out = []
    for path in _files(root):
        if path.startswith(OUTSIDE) or path.endswith(".md") or name in path.lower():
            continue
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text: an image, a store file
        if word.search(text):
            out.append(path)
    return out


def test_oro_is_named_only_in_its_own_files_and_three_others() -> None:
    others = naming("oro")
    assert "src/oriente/games/__init__.py" in others, "the registry's line names it"
    assert len(others) <= MOST_OTHERS, others


def test_the_check_finds_a_name_where_it_should_not_be(tmp_path: Path) -> None:
    """The check can fail: it counts a file outside the game's folders that
    names the game, in any case, and nothing else."""
    files = {"src/server/table.py": "# plays ORO too\n", "src/games/oro/port.py": "name = 'oro'\n",
             "src/web/oro.css": ".oro {}\n", "src/kit.py": "# orofino, toro: not the name\n",
             "tests/test_x.py": "oro\n", "docs/rules-x.txt": "Oro\n", "README.md": "Oro\n",
             "src/games/registry.py": "'oro': 'x:Port'\n", "src/logo.bin": "\udcff oro"}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8", errors="surrogateescape")
    assert naming("oro", tmp_path) == ["src/games/registry.py", "src/server/table.py"]

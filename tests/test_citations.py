"""The project stands alone: what its documents cite is in the repository.

- Every repository path the README and docs/*.md name (`docs/table.md`,
  `src/oriente/server/lobby.py`, `bench/server.py`, a relative link such
  as `[bots](bots.md)`) names a file or folder that exists.
- Every Markdown document named anywhere in the project (code, tests,
  benchmarks, documents) exists: a file of that name is in the repository.
  A document that was never written, or was moved, fails here.
- No number of an outside tracker (the word issue followed by a number): a reader of
  the repository cannot follow it, so a comment says what it means instead.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Where the documents live, and the top-level folders a cited path starts from.
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
TOP = ("docs", "src", "bench", "tests", "protocol")
# A path as the documents cite it: from a top-level folder, in a code span,
# a link target or the text (`src/oriente/server/table/`, `bench/web.py`).
# A path with a placeholder (`docs/rules-<name>.md`, `bench/*.py`) is no citation.
PATH = re.compile(rf"(?<![\w./-])((?:{'|'.join(TOP)})/[\w./-]*[\w/])(?![\w./<*-])")
# A relative Markdown link: [text](target.md) or [text](../protocol/PROTOCOL.md#anchor).
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# A Markdown document named in any text: OVERVIEW.md, docs/rules.md, bots.md.
MARKDOWN = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b")
# An outside tracker's number: the word issue (any case, plural too), then a
# number, with or without "#".
TRACKER = re.compile(r"\bissues?\s*#?\d+", re.I)


def tracked() -> list[Path]:
    """The repository's text files (what git tracks, images and data aside),
    but this one, whose examples are what the checks look for."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if out.returncode != 0:
        pytest.skip("not a git checkout: the tracked files are unknown")
    skip = {".png", ".jpg", ".svg", ".ico", ".sqlite", ".gz", ".woff2", ".lock", ".css"}
    names = [n for n in out.stdout.decode().split("\0") if n]
    return [ROOT / n for n in names if Path(n).suffix not in skip and (ROOT / n).is_file()
            and "/dist/" not in n and "package-lock" not in n and ROOT / n != Path(__file__).resolve()]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_document_cites_exists(document: Path) -> None:
    text = _text(document)
    missing = set()
    for cited in PATH.findall(text):
        if "*" in cited or not (ROOT / cited.rstrip("/")).exists():
            missing.add(cited)
    for target in LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        if not (document.parent / target).exists():
            missing.add(target)
    assert not missing, f"{document.relative_to(ROOT)} cites what is not in the repository: {sorted(missing)}"


def test_every_markdown_document_named_anywhere_exists() -> None:
    files = tracked()
    present = {p.relative_to(ROOT).as_posix() for p in files if p.suffix == ".md"}
    names = {Path(p).name for p in present}
    missing = []
    for path in files:
        for cited in set(MARKDOWN.findall(_text(path))):
            if cited in present or (("/" not in cited) and cited in names):
                continue
            if (path.parent / cited).exists() or any(p.endswith("/" + cited) for p in present):
                continue
            missing.append(f"{path.relative_to(ROOT)}: {cited}")
    assert not missing, "documents named but not in the repository:\n" + "\n".join(sorted(missing))


def test_no_number_of_an_outside_tracker() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
             for path in tracked() for n, line in enumerate(_text(path).splitlines(), 1) if TRACKER.search(line)]
    assert not found, "numbers of an outside tracker (say what is meant instead):\n" + "\n".join(found)


def test_the_checks_find_what_they_look_for() -> None:
    """Each pattern finds a citation, and passes what is none."""
    text = "see `src/oriente/gone.py`, [it](gone.md#top), OVERVIEW.md and docs/rules-<name>.md"
    assert PATH.findall(text) == ["src/oriente/gone.py"]
    assert LINK.findall(text) == ["gone.md"]
    assert set(MARKDOWN.findall(text)) == {"gone.md", "OVERVIEW.md"}
    # The tracker samples are put together here so that this file carries
    # no tracker number itself.
    numbered, hashed = "issue" + " 8", "Issue" + " #12"
    assert [m.group() for m in TRACKER.finditer(f"{numbered}, {hashed}; each sign-in issues a token")] == \
        [numbered, hashed]

"""docs/rules.md is the rules reference every comment, docstring, message and
test cites: each rule id cited anywhere in the project resolves in it, and
a test named after a rule quotes its id. Other games get their own file and
id prefix (docs/rules-oro.md with O1.1 ..., docs/rules-samurai.md with
S1.1 ...), and the table's own rules, the same for every game, are
docs/table.md (T1.1 ...); their ids are checked the same way once cited."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Rule id prefix -> the game's rules reference.
REFERENCES = {"R": DOCS / "rules.md", "O": DOCS / "rules-oro.md", "S": DOCS / "rules-samurai.md",
              "T": DOCS / "table.md"}
SOURCES = ("src", "protocol", "tests", "docs", "bench")
SUFFIXES = (".py", ".md", ".js")
# R6.7, R10.2a, R4.3c (an item of R4.3), R10 (a section). The lookarounds
# keep ids out of words, version numbers and file names.
CITED = re.compile(r"(?<![\w.])([ROST])(\d+)(?:\.(\d+)([a-z])?)?(?![\w]|\.\d)")


def defined(text: str, prefix: str) -> set[str]:
    """Ids a reference defines: sections (`## R6 Fights`), rules (`**R6.7`),
    and the lettered items of a rule (R4.3's "c)" is R4.3c)."""
    ids = set(re.findall(rf"^#+ ({prefix}\d+)\b", text, flags=re.M))
    bullets = list(re.finditer(rf"^- \*\*({prefix}\d+\.\d+[a-z]?)\b", text, flags=re.M))
    for i, bullet in enumerate(bullets):
        ids.add(bullet.group(1))
        body = text[bullet.end(): bullets[i + 1].start() if i + 1 < len(bullets) else len(text)]
        ids.update(bullet.group(1) + letter for letter in re.findall(r"^\s+([a-z])\) ", body, flags=re.M))
    return ids


def files() -> list[Path]:
    """Where rule ids are cited (this file's own examples left out)."""
    found = [ROOT / "README.md"]
    for top in SOURCES:
        found += [p for p in (ROOT / top).rglob("*") if p.suffix in SUFFIXES and "node_modules" not in p.parts]
    return sorted(p for p in found if p != Path(__file__).resolve())


def citations() -> dict[str, list[str]]:
    """Every cited id, with where it is cited."""
    where: dict[str, list[str]] = {}
    for path in files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITED.finditer(line):
                prefix, major, minor, item = m.groups()
                if prefix != "R" and minor is None:
                    continue  # "S3", "O2" or "T1" alone is too often something else
                rule = f"{prefix}{major}" + (f".{minor}{item or ''}" if minor else "")
                where.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{n}")
    return where


def test_the_reference_defines_every_rule_of_the_game() -> None:
    ids = defined(REFERENCES["R"].read_text(encoding="utf-8"), "R")
    assert {f"R{n}" for n in range(1, 11)} <= ids
    assert {"R1.4", "R4.3", "R4.3c", "R6.7", "R10.2a", "R10.2d", "R10.4"} <= ids
    assert "R4.3e" not in ids and "R11.1" not in ids


def test_every_cited_rule_id_resolves_in_its_reference() -> None:
    cited = citations()
    assert len(cited) > 50, "the scan found almost nothing: is the pattern still right?"
    unresolved: dict[str, list[str]] = {}
    for rule, where in sorted(cited.items()):
        reference = REFERENCES[rule[0]]
        if not reference.exists() or rule not in defined(reference.read_text(encoding="utf-8"), rule[0]):
            unresolved[rule] = where[:3]
    assert not unresolved, f"rule ids cited but not defined in docs/rules*.md: {unresolved}"


def _rule_tests() -> list[tuple[str, str, str | None]]:
    """(where, rule id, docstring) of every test named after a rule."""
    out = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                m = re.match(r"test_r(\d+)_(\d+)([a-z]?)_", node.name)
                if m:
                    out.append((f"{path.relative_to(ROOT)}::{node.name}", f"R{m[1]}.{m[2]}{m[3]}",
                                ast.get_docstring(node)))
    return out


RULE_TESTS = _rule_tests()


def quotes(doc: str | None, rule: str, ids: set[str]) -> bool:
    """The docstring names the rule: "R6.7", or for an item of a rule
    (R4.3c) its rule and the item, "R4.3 ... c)"."""
    if not doc:
        return False
    if rule in doc:
        return True
    parent, item = rule[:-1], rule[-1]
    return item.isalpha() and parent in ids and parent in doc and f"{item})" in doc


def test_tests_named_after_a_rule_name_a_rule_that_exists_and_quote_it() -> None:
    assert len(RULE_TESTS) > 100
    ids = defined(REFERENCES["R"].read_text(encoding="utf-8"), "R")
    unknown = [where for where, rule, _ in RULE_TESTS if rule not in ids]
    assert not unknown, f"tests named after rules docs/rules.md does not define: {unknown}"
    silent = [where for where, rule, doc in RULE_TESTS if not quotes(doc, rule, ids)]
    assert not silent, f"tests named after a rule whose docstring does not quote it: {silent}"


def test_the_table_rules_define_what_every_game_cites() -> None:
    """docs/table.md holds the table's rules for every game, and the games'
    references point at them: Oriente's R10.3 and Oro's O8.9 name when their
    banks refill (T1.4) and what their seat proxy does (T3.5)."""
    ids = defined(REFERENCES["T"].read_text(encoding="utf-8"), "T")
    assert {"T1.2", "T1.3", "T1.4", "T1.6", "T2.1", "T2.2", "T3.1", "T3.5", "T4.1"} <= ids
    for prefix, rule in (("R", "R10.3"), ("O", "O8.9")):
        text = REFERENCES[prefix].read_text(encoding="utf-8")
        body = text[text.index(f"**{rule}"):].split("\n- **", 1)[0]
        assert "T1.4" in body and "T3.5" in body and "table.md" in body, rule

"""The sources keep to what every supported Python (pyproject.toml: 3.9 and later) has, where
the system Python of CI (3.11) would not notice: regular expressions with possessive
quantifiers (``*+``, ``++``, ``?+``, ``{m,n}+``) or atomic groups (``(?>...)``) compile on
3.11 and later only, and on 3.9 and 3.10 fail with ``re.error: multiple repeat`` (or
``unknown extension ?>``) when their module is imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Where the code (and the tests) are: every ``.py`` file under these, and the top ones.
SOURCE_DIRS = ("ddsolver", "ai", "benchmarks", "scripts", "tests", "examples", "docs")

#: The functions of ``re`` whose first argument is a pattern.
_RE_FUNCTIONS = frozenset(["compile", "match", "fullmatch", "search", "sub", "subn", "split",
                           "findall", "finditer"])
#: Stands for a part of a pattern that is not a literal (a name, ``X.pattern``, ``{x}``).
_PLACEHOLDER = "(?:x)"
_QUANTIFIER_RE = re.compile(r"\{\d*(?:,\d*)?\}")


def newer_regex_syntax(pattern: str) -> list[str]:
    """What in ``pattern`` (a regular expression's text) Python 3.9 cannot compile:
    possessive quantifiers and atomic groups, each with its place."""
    found = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":                 # a set: nothing in it is a quantifier
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1                # ']' first in a set is itself
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            continue
        if pattern.startswith("(?", i):     # a group's '?' is no quantifier
            if pattern.startswith("(?>", i):
                found.append(f"atomic group at {i}: {pattern[i:i + 12]!r}")
            i += 2
            continue
        end = None
        if ch in "*+?":
            end = i + 1
        elif ch == "{":
            m = _QUANTIFIER_RE.match(pattern, i)
            if m is not None and m.group() != "{}":
                end = m.end()
        if end is not None:
            if end < n and pattern[end] == "+":
                found.append(f"possessive quantifier at {i}: {pattern[i:end + 1]!r}")
                end += 1
            i = end
            continue
        i += 1
    return found


def _is_re_call(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr in _RE_FUNCTIONS
            and isinstance(func.value, ast.Name) and func.value.id == "re")


def _pattern_text(node: ast.expr, names: dict[str, ast.expr], seen: frozenset = frozenset()
                  ) -> str:
    """The text of a pattern expression: its string literals, a module-level name by its
    value, anything else by a placeholder (``a + b``, f-strings and ``%`` joined)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        value = node.value
        return value if isinstance(value, str) else value.decode("latin-1")
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        if isinstance(node.op, ast.Mod):
            return _pattern_text(node.left, names, seen)
        return _pattern_text(node.left, names, seen) + _pattern_text(node.right, names, seen)
    if isinstance(node, ast.JoinedStr):
        return "".join(_pattern_text(v, names, seen) if isinstance(v, ast.Constant)
                       else _PLACEHOLDER for v in node.values)
    if isinstance(node, ast.Name) and node.id in names and node.id not in seen:
        return _pattern_text(names[node.id], names, seen | {node.id})
    return _PLACEHOLDER


def regex_problems(source: str, filename: str = "<source>") -> list[str]:
    """Each regular expression in ``source`` (the pattern given to a function of ``re``,
    literally, joined with ``+`` or through a name assigned in the module) that uses syntax
    newer than Python 3.9, as ``file:line: what``."""
    tree = ast.parse(source, filename)
    names: dict[str, ast.expr] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            names[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.value is not None:
            names[node.target.id] = node.value
    problems = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        # re.compile(p, ...), re.sub(pattern=p, ...); pytest.raises(..., match=p) too
        patterns = [k.value for k in node.keywords if k.arg == "match"]
        if _is_re_call(node.func):
            patterns += node.args[:1] + [k.value for k in node.keywords if k.arg == "pattern"]
        for pattern in patterns:
            for what in newer_regex_syntax(_pattern_text(pattern, names)):
                problems.append(f"{filename}:{pattern.lineno}: {what}")
    return problems


def _sources() -> list[Path]:
    files = sorted(ROOT.glob("*.py"))
    for d in SOURCE_DIRS:
        files += sorted((ROOT / d).rglob("*.py"))
    return files


@pytest.mark.parametrize("pattern, expected", [
    (r"a++", 1), (r"a*+", 1), (r"a?+", 1), (r"a{2,3}+", 1), (r"a{2}+", 1), (r"(?>ab)", 1),
    (r'"((?:[^"\\\n]++|\\["\\]?+)*+)"', 3),
    # what 3.9 reads: a '+' that is escaped or in a set, '(?' groups, a '{' that is no
    # quantifier, lazy quantifiers, a look-behind
    (r"a\++", 0), (r"[+*?]+", 0), (r"[]+]+", 0), (r"[\]+]+", 0), (r"(?:a)+", 0),
    (r"(?P<x>a)+", 0), (r"x{+", 0), (r"{lo}+", 0), (r"a+?", 0), (r"a*?b", 0),
    (r"(?<![^\S\n])[^\S\n]+$", 0), (r"(?=(?P<r>a*))(?P=r)", 0),
])
def test_newer_regex_syntax_is_found(pattern, expected):
    assert len(newer_regex_syntax(pattern)) == expected, newer_regex_syntax(pattern)


def test_regex_problems_finds_the_forms_of_a_call():
    # the patterns that made ``import ddsolver.pbn`` fail on 3.9 and 3.10
    source = '''
import re
from .tags import NAME_RE
_LINE_END_SPACE_RE = re.compile(r"(?<![^\\S\\n])[^\\S\\n]++$", re.MULTILINE)
_STRING_RE = re.compile(r'"((?:[^"\\\\\\n]++|\\\\["\\\\]?+)*+)"')
_TAG_RE = re.compile(r"\\[[ \\t\\v\\f]*+((?>" + NAME_RE.pattern + r"))[ \\t\\v\\f]*+"
                     + _STRING_RE.pattern + r"[ \\t\\v\\f]*+\\]")
PAT = "a*+"
def f(s):
    with pytest.raises(ValueError, match=r"x++"):
        re.sub(PAT, "", s)
    return re.match(f"{s}b++", s), "{lo}+ HCP".format(lo=1), other.compile("a++")
'''
    problems = regex_problems(source)
    lines = sorted(int(p.split(":")[1]) for p in problems)
    assert lines == [4, 5, 5, 5, 6, 6, 6, 6, 10, 11, 12], problems


def test_no_regex_syntax_newer_than_3_9():
    problems = []
    for path in _sources():
        problems += regex_problems(path.read_text(encoding="utf-8"),
                                   str(path.relative_to(ROOT)))
    assert not problems, ("syntax Python 3.9 and 3.10 do not compile (possessive quantifiers "
                          "and atomic groups are 3.11+):\n" + "\n".join(problems))

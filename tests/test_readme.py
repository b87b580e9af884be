"""The README and the docs say what the code does (issue 19, item 4).

* Every Python example of ``README.md`` is a doctest and runs here, outputs included.
* Every shell command of the README and of ``docs/*.md`` is read by the command's own
  parser (so a renamed option or subcommand fails here), the README's cheap ones are run
  for real, and the README's test command is the one ``.ci/run`` runs.
* Every file that the README, a ``docs/`` page, a docstring or a comment names exists in the
  repository (no citation of a file that is not there), and ``LICENSE`` is the licence
  ``pyproject.toml`` declares.
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tokenize
import warnings
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    tomllib = None

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _in_checkout() -> bool:
    """Whether the tests run in a git checkout of the repository (not in a copy run against
    an installed wheel, as ``scripts/wheel_check.sh`` and cibuildwheel do)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=ROOT,
                             capture_output=True, text=True)
    except FileNotFoundError:
        return False
    return out.returncode == 0 and Path(out.stdout.strip()).resolve() == ROOT


#: the checks of the repository's files list them with ``git ls-files``
needs_checkout = pytest.mark.skipif(not _in_checkout(), reason="not a git checkout of the "
                                    "repository (the tests run against an installed wheel)")


def _fences(text: str):
    """``(language, first line number, body)`` of every fenced block of a Markdown text."""
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            out.append((m.group(1), start + 1, "\n".join(lines[start:j])))
            i = j + 1
        else:
            i += 1
    return out


def _scripts() -> dict:
    """``{command name: "module:function"}`` from pyproject.toml's [project.scripts]."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if tomllib is not None:
        return dict(tomllib.loads(text)["project"]["scripts"])
    section = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^([\w-]+)\s*=\s*"([\w.:]+)"', section, re.M))


def _command(name: str) -> click.Command:
    """The click command of ``name``: the object [project.scripts] names, or the command
    it loads when called (an entry point of _ddsolver_entry)."""
    module, func = _scripts()[name].split(":")
    target = getattr(importlib.import_module(module), func)
    return target if isinstance(target, click.Command) else target.load()


def _readme_commands():
    """Every command line of the README's ``sh`` blocks, split at ``&&``, comments cut:
    ``(line number, argv)``."""
    out = []
    for lang, first, body in _fences(README.read_text(encoding="utf-8")):
        if lang != "sh":
            continue
        for k, line in enumerate(body.splitlines()):
            argv = shlex.split(line, comments=True)
            while argv:
                cut = argv.index("&&") if "&&" in argv else len(argv)
                out.append((first + k, argv[:cut]))
                argv = argv[cut + 1:]
    return out


def _parse(cmd: click.Command, name: str, args: list) -> click.Context:
    """Parse ``args`` as the command would (options, types, subcommands) without running
    it; a click usage error propagates."""
    ctx = cmd.make_context(name, list(args))
    while isinstance(cmd, click.Group):
        with warnings.catch_warnings():     # click 8.2 deprecates protected_args (9.0: args)
            warnings.simplefilter("ignore", DeprecationWarning)
            rest = list(getattr(ctx, "protected_args", ())) + ctx.args
        sub_name, sub, sub_args = cmd.resolve_command(ctx, rest)
        ctx = sub.make_context(sub_name, list(sub_args), parent=ctx)
        cmd, name = sub, sub_name
    return ctx


# -- the Python examples ------------------------------------------------------------------

def test_every_python_example_of_the_readme_is_a_doctest():
    """A Python block without ``>>>`` would not run: every one must be a doctest."""
    text = README.read_text(encoding="utf-8")
    blocks = [(lang, line) for lang, line, body in _fences(text)
              if lang in ("python", "py", "pycon") and ">>>" not in body]
    assert blocks == [], f"Python blocks that are not doctests (line numbers): {blocks}"
    assert sum(1 for lang, _, _ in _fences(text) if lang == "pycon") >= 5


def test_the_readme_examples_run():
    test = doctest.DocTestParser().get_doctest(README.read_text(encoding="utf-8"), {},
                                               "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = []
    result = runner.run(test, out=report.append)
    assert result.attempted >= 30
    assert result.failed == 0, "".join(report)


# -- the commands --------------------------------------------------------------------------

def test_the_readme_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(ci) if line.startswith("# The README's test command"))
    ci_command = ci[marker + 1].strip()
    quick_start = README.read_text(encoding="utf-8").split("## Quick start", 1)[1]
    lines = [body for lang, _, body in _fences(quick_start)][0].splitlines()
    assert len(lines) == 2, "the quick start is two commands"
    assert lines[1].strip() == ci_command
    assert lines[0].startswith("pip install -e . && ddsolver analyse examples/")
    assert "ruff check ." in ci


def test_every_readme_command_parses():
    """Each command line is accepted by the command's parser: the command, its
    subcommands, options and their values exist (nothing is run)."""
    scripts = _scripts()
    seen = set()
    for line, argv in _readme_commands():
        if argv[0] in ("pip", "python", "python3", "."):
            continue
        assert argv[0] in scripts, f"README line {line}: unknown command {argv[0]}"
        try:
            ctx = _parse(_command(argv[0]), argv[0], argv[1:])
        except click.UsageError as exc:
            pytest.fail(f"README line {line}: {' '.join(argv)}: {exc}")
        seen.add(ctx.command_path)
    # an example of every installed command
    assert {path.split()[0] for path in seen} == set(scripts)


def test_every_command_of_the_docs_parses():
    """The same for the shell lines of ``docs/*.md`` (continued lines joined); there a
    file named as an example need not exist."""
    scripts = _scripts()
    checked = 0
    for doc in sorted((ROOT / "docs").rglob("*.md")):
        for lang, first, body in _fences(doc.read_text(encoding="utf-8")):
            if lang not in ("", "sh", "bash", "console"):
                continue
            for k, line in enumerate(body.replace("\\\n", " ").splitlines()):
                try:
                    argv = shlex.split(line, comments=True)
                except ValueError:
                    continue                    # not a shell line (an exchange, JSON...)
                if not argv or argv[0] not in scripts:
                    continue
                try:
                    _parse(_command(argv[0]), argv[0], argv[1:])
                except click.BadParameter as exc:
                    if "does not exist" not in str(exc):
                        pytest.fail(f"{doc.relative_to(ROOT)} near line {first + k}: "
                                    f"{' '.join(argv)}: {exc}")
                except click.UsageError as exc:
                    pytest.fail(f"{doc.relative_to(ROOT)} near line {first + k}: "
                                f"{' '.join(argv)}: {exc}")
                checked += 1
    assert checked >= 20


def _all_command_paths():
    out = []
    for name in _scripts():
        stack = [(name, [], _command(name))]
        while stack:
            prog, args, cmd = stack.pop()
            out.append((name, args))
            if isinstance(cmd, click.Group):
                for sub_name, sub in cmd.commands.items():
                    stack.append((prog, args + [sub_name], sub))
    return out


def test_the_readme_names_every_command_and_subcommand():
    """The Commands table has a row for every command and subcommand (``a b|c`` names
    both ``a b`` and ``a c``)."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    named = set()
    for row in re.findall(r"^\| `([^`]+)`", table, re.M):
        words = []
        for word in row.replace("\\|", "|").split():
            if not re.match(r"^[a-z][\w|-]*$", word):
                break               # arguments and options end the command's name
            words.append(word.split("|"))
        stems = [[]]
        for alternatives in words:
            stems = [stem + [w] for stem in stems for w in alternatives]
        named.update(" ".join(stem) for stem in stems)
    missing = [" ".join([name] + args) for name, args in _all_command_paths()
               if not any(n == " ".join([name] + args) or n.startswith(" ".join([name] + args)
                                                                 + " ") for n in named)]
    assert missing == [], f"commands the README's Commands section does not name: {missing}"


@pytest.mark.parametrize("name,args", _all_command_paths(),
                         ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_help_of_every_command(name, args):
    result = CliRunner().invoke(_command(name), args + ["--help"], prog_name=name)
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


#: README commands cheap enough to run for real (a few seconds in all)
CHEAP = {("ddsolver", "table"), ("ddsolver", "solve"), ("ddsolver", "analyse"),
         ("ddsolver-ai", "bid"), ("ddsolver-ai", "simulate")}


def test_the_cheap_readme_commands_run(tmp_path):
    """table, solve, analyse (the quick start's and the example's), bid and simulate run
    as the README writes them, through ``python -m`` (the installed scripts' modules), in
    a copy of examples/ so that nothing is written into the repository."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    modules = {"ddsolver": "ddsolver", "ddsolver-ai": "ai"}
    ran = set()
    for line, argv in _readme_commands():
        key = (argv[0], argv[1] if len(argv) > 1 else None)
        if key not in CHEAP:
            continue
        cmd = [sys.executable, "-m", modules[argv[0]]] + argv[1:]
        out = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                             env={**_env(), "PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, f"README line {line}: {' '.join(argv)}\n{out.stderr}"
        ran.add(key)
        if "--json" in argv and key == ("ddsolver", "table"):
            assert json.loads(out.stdout)
        if key == ("ddsolver", "analyse"):
            written = tmp_path / argv[argv.index("-o") + 1]
            assert written.stat().st_size > 0
    assert ran == CHEAP
    # the quick start's output is the input byte for byte (its tags equal ddsolver's)
    assert ((tmp_path / "club.analysed.pbn").read_bytes()
            == (ROOT / "examples" / "club_hand_record_36.pbn").read_bytes())


def _env():
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


# -- files cited ---------------------------------------------------------------------------

#: the measurements' log names files as they were when it was written (history, not
#: citations); its links and its ``python -m`` commands are checked all the same
HISTORY = "benchmarks/NOTES.md"
#: paths the text names as files a command creates, not as files of the repository
CREATED = {"ai/locale/fr/LC_MESSAGES/ddsolver.po"}

_PATH = re.compile(r"(?<![\w./-])((?:\.\./)+[\w./-]*[\w]|/work/[\w./-]*|"
                   r"(?:docs|benchmarks|tests|ddsolver|ai|examples|\.ci)/[\w./-]*[\w])")
_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
_MODULE = re.compile(r"python -m\s+((?:benchmarks|ddsolver|ai)(?:\.[a-z_0-9]+)*)")


def _texts():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    suffixes = (".md", ".py", ".pyx", ".pxd", ".pxi", ".h", ".toml")
    for name in files:
        path = ROOT / name
        if name.startswith("tests/data/") or not path.is_file():
            continue
        if name.endswith(suffixes) or name in (".ci/run", "setup.py"):
            yield path


def _exists(path: Path) -> bool:
    return path.exists() or path.with_suffix(".py").exists() or Path(f"{path}.py").exists()


@needs_checkout
def test_every_file_cited_exists():
    """README, docs, docstrings and comments name only files of the repository (no
    ``../shared``, no ``/work/...``: cite the copy under ``docs/``)."""
    missing = []
    for path in _texts():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for m in _PATH.finditer(text) if rel != HISTORY else ():
            cited = m.group(1).rstrip(".")
            if cited in CREATED:
                continue
            line = text.count("\n", 0, m.start()) + 1
            if cited.startswith(("../", "/work/")) and rel.startswith("tests/"):
                continue                    # bad inputs of tests (a path escaping a folder)
            if cited.startswith(("../", "/work/")):
                target = (path.parent / cited).resolve()
                if cited.startswith("/work/") or ROOT not in target.parents:
                    missing.append(f"{rel}:{line}: {cited} (outside the repository)")
                    continue
            elif not _exists(ROOT / cited):
                missing.append(f"{rel}:{line}: {cited}")
        if path.suffix == ".md":
            for m in _LINK.finditer(text):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue
                if not (path.parent / target).exists():
                    line = text.count("\n", 0, m.start()) + 1
                    missing.append(f"{rel}:{line}: link {target}")
        for m in _MODULE.finditer(text):
            module = ROOT.joinpath(*m.group(1).split("."))
            if not (module.with_suffix(".py").exists() or (module / "__init__.py").exists()):
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{rel}:{line}: python -m {m.group(1)}")
    assert missing == [], "files cited that are not in the repository:\n" + "\n".join(missing)


_BARE_MD = re.compile(r"(?<![\w/.-])([A-Za-z][\w-]*\.md)\b")


def _prose(path: Path) -> str:
    """The strings and comments of a Python file (its docstrings among them), else the
    whole text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    with open(path, "rb") as f:
        tokens = list(tokenize.tokenize(f.readline))
    return "\n".join(t.string for t in tokens if t.type in (tokenize.STRING, tokenize.COMMENT))


@needs_checkout
def test_every_document_named_alone_exists():
    """A document named without its folder (such as ``game.md``) is one of the
    repository's."""
    names = {Path(p).name for p in subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()}
    missing = []
    for path in _texts():
        rel = path.relative_to(ROOT).as_posix()
        if rel == HISTORY:
            continue
        for m in _BARE_MD.finditer(_prose(path)):
            if m.group(1) not in names:
                missing.append(f"{rel}: {m.group(1)}")
    assert missing == [], "documents named that are not in the repository:\n" + "\n".join(
        missing)


def test_every_benchmark_script_is_in_the_notes_table():
    """``benchmarks/NOTES.md`` opens with a table of what is there: one row per script."""
    notes = (ROOT / HISTORY).read_text(encoding="utf-8").split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([\w/]+\.py)` \|", notes, re.M))
    scripts = {p.relative_to(ROOT / "benchmarks").as_posix()
               for p in (ROOT / "benchmarks").glob("*/*.py") if p.name != "__init__.py"}
    assert scripts - listed == set(), "benchmarks without a row in NOTES.md's table"
    assert listed - scripts - {"bench_sets.py", "dds_ctypes.py"} == set()


def test_license_matches_pyproject():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^license\s*=\s*\{\s*text\s*=\s*"([^"]+)"', text, re.M)
    assert declared and declared.group(1) == "Apache-2.0"
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in licence
    assert "END OF TERMS AND CONDITIONS" in licence
    assert "Apache License 2.0 ([LICENSE](LICENSE))" in README.read_text(encoding="utf-8")

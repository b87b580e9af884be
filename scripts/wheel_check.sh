#!/usr/bin/env bash
# The wheel check of docs/building.md ("Wheels"): a wheel built in a fresh venv, installed
# in another fresh venv where no compiler is reachable, passes the tests run from outside
# the source tree, on the build the CPU chooses and forced onto the portable build.
#
#   scripts/wheel_check.sh [WORKDIR]      # WORKDIR: a new directory (default: mktemp under /tmp)
#
# Steps (each one's output goes to WORKDIR/*.log; a failing step stops the script, exit 1):
#  1. src/: a copy of the working tree's files (tracked and untracked, not ignored: no build
#     outputs), so that nothing built in place can reach the wheel.
#  2. build-venv/: a fresh venv with `build`; `python -m build` makes the sdist and then the
#     wheel *from the sdist* (so the sdist is shown complete too), in isolated environments.
#  3. The wheel's contents: py.typed, both builds of the search (x86-64), no C sources;
#     `objdump -d` of the portable module: no POPCNT, LZCNT, BMI1/BMI2 or AVX (VEX/ymm)
#     instruction (tzcnt is allowed: gcc writes __builtin_ctz as `rep bsf`, which objdump
#     shows as tzcnt and CPUs without BMI1 run as bsf); the fast module must have them.
#  4. test-venv/: a fresh venv; the wheel (with its `test` extra) installed by pip with
#     `--only-binary :all:` (pip may not build anything), PATH holding only the venv's
#     scripts and bin/ (links to the system's commands but its compilers, assemblers and
#     linkers: gcc, cc, c++, clang, cpp, as, ld, ...), CC=CXX=/bin/false.
#  5. t/: the tests and the files they read (tests/, docs/, examples/, benchmarks/, .ci/,
#     README.md, LICENSE, pyproject.toml for pytest's and ruff's settings), no ddsolver/ or
#     ai/: the installed package is imported (checked); not a git checkout, so the two
#     tests that list the repository's files with git skip. `python -m pytest -q` there, then again with
#     DDSOLVER_PORTABLE=1 (checked: the portable build is in use).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=${1:-$(mktemp -d /tmp/ddsolver-wheel-check.XXXXXX)}
mkdir -p "$W"
W=$(cd "$W" && pwd)
PY=${PYTHON:-python3}
say() { echo "== $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

say "workdir $W"
say "1. source copy"
rm -rf "$W/src" && mkdir "$W/src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 -I{} sh -c 'test -e "{}" && echo "{}"' ) > "$W/files.txt"
(cd "$ROOT" && tar cf - -T "$W/files.txt") | (cd "$W/src" && tar xf -)

say "2. sdist and wheel in a fresh venv"
rm -rf "$W/build-venv" "$W/dist"
"$PY" -m venv "$W/build-venv"
"$W/build-venv/bin/python" -m pip install -q --upgrade pip build > "$W/build.log" 2>&1 \
    || fail "pip install build (see $W/build.log)"
"$W/build-venv/bin/python" -m build --outdir "$W/dist" "$W/src" >> "$W/build.log" 2>&1 \
    || fail "python -m build (see $W/build.log)"
WHEEL=$(ls "$W"/dist/*.whl)
say "wheel: $(basename "$WHEEL")"

say "3. the wheel's contents"
rm -rf "$W/unpacked" && mkdir "$W/unpacked"
"$W/build-venv/bin/python" -m zipfile -e "$WHEEL" "$W/unpacked"
"$W/build-venv/bin/python" -m zipfile -l "$WHEEL" > "$W/wheel-files.txt"
test -f "$W/unpacked/ddsolver/py.typed" || fail "no ddsolver/py.typed in the wheel"
! grep -qE '\.c +[0-9]' "$W/wheel-files.txt" || fail "C sources in the wheel"
PORTABLE_SO=$(ls "$W"/unpacked/ddsolver/_search_portable.*.so)
FAST_SO=$(ls "$W"/unpacked/ddsolver/_search_fast.*.so 2>/dev/null || true)
FORBIDDEN='\b(popcnt|lzcnt|andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx|v[a-z0-9]+)\b|%ymm'
objdump -d --no-show-raw-insn "$PORTABLE_SO" | awk -F'\t' 'NF >= 2 {print $2}' \
    > "$W/portable.asm"
if grep -Eq "$FORBIDDEN" "$W/portable.asm"; then
    grep -Eo "$FORBIDDEN" "$W/portable.asm" | sort | uniq -c
    fail "the portable module has instructions beyond x86-64's baseline"
fi
echo "portable module: $(wc -l < "$W/portable.asm") instructions, none of POPCNT/LZCNT/BMI/AVX" \
    "($(grep -c tzcnt "$W/portable.asm" || true) tzcnt, gcc's rep bsf)"
if [ -n "$FAST_SO" ]; then
    objdump -d --no-show-raw-insn "$FAST_SO" | awk -F'\t' 'NF >= 2 {print $2}' > "$W/fast.asm"
    for insn in popcnt pext pdep lzcnt vpcmpeqq; do
        grep -qw "$insn" "$W/fast.asm" || fail "the fast module has no $insn (the check would not see them)"
    done
    echo "fast module: popcnt $(grep -cw popcnt "$W/fast.asm"), pext $(grep -cw pext "$W/fast.asm"), " \
        "pdep $(grep -cw pdep "$W/fast.asm"), ymm $(grep -c '%ymm' "$W/fast.asm")"
fi

say "4. a fresh venv without a compiler; the wheel installed (binary packages only)"
rm -rf "$W/test-venv" "$W/bin" && mkdir "$W/bin"
"$PY" -m venv "$W/test-venv"
# bin/: the system's commands (tmux, sleep, ...) without the compilers, assemblers and linkers
COMPILERS='^(gcc.*|g\+\+.*|cc|c\+\+|c89.*|c99.*|cpp.*|clang.*|tcc|icc|icx|nvcc|as|ld|ld\..*|gold|.*-linux-gnu-.*|.*-gcc.*|.*-g\+\+.*)$'
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    [ -d "$dir" ] || continue
    for exe in "$dir"/*; do
        name=$(basename "$exe")
        [ -x "$exe" ] && [ ! -d "$exe" ] && [ ! -e "$W/bin/$name" ] || continue
        echo "$name" | grep -Eq "$COMPILERS" || ln -s "$exe" "$W/bin/$name"
    done
done
NOCC=(env -i "HOME=$HOME" "PATH=$W/test-venv/bin:$W/bin" CC=/bin/false CXX=/bin/false
      LANG=C.UTF-8 "TERM=${TERM:-xterm}")
for cc in gcc cc clang c++ g++ cpp as ld x86_64-linux-gnu-gcc; do
    ! "${NOCC[@]}" /bin/sh -c "command -v $cc" > /dev/null || fail "$cc is reachable"
done
"${NOCC[@]}" "$W/test-venv/bin/python" -m pip install -q --only-binary :all: "$WHEEL[test]" \
    > "$W/install.log" 2>&1 || fail "pip install of the wheel (see $W/install.log)"
echo "installed: no compiler, assembler or linker on PATH, CC=CXX=/bin/false, --only-binary :all:"

say "5. the tests outside the source tree"
rm -rf "$W/t" && mkdir "$W/t"
cp -r "$W/src/tests" "$W/src/docs" "$W/src/examples" "$W/src/benchmarks" "$W/src/.ci" \
    "$W/src/README.md" "$W/src/LICENSE" "$W/src/pyproject.toml" "$W/t/"
cd "$W/t"
WHERE=$("${NOCC[@]}" "$W/test-venv/bin/python" -c "import ddsolver; print(ddsolver.__file__)")
case "$WHERE" in "$W/test-venv/"*) echo "ddsolver imported from $WHERE";;
    *) fail "ddsolver imported from $WHERE, not the installed wheel";; esac
for portable in "" 1; do
    name=${portable:+portable}; name=${name:-default}
    BUILD=$("${NOCC[@]}" DDSOLVER_PORTABLE="$portable" "$W/test-venv/bin/python" -c \
        "from ddsolver import solver; print(solver.BUILD)")
    if [ -n "$portable" ] && [ "$BUILD" != portable ]; then fail "DDSOLVER_PORTABLE=1 gave $BUILD"; fi
    say "pytest, DDSOLVER_PORTABLE=${portable:-(unset)}: build $BUILD"
    if "${NOCC[@]}" DDSOLVER_PORTABLE="$portable" "$W/test-venv/bin/python" -m pytest -q \
        -p no:cacheprovider -rs > "$W/pytest-$name.log" 2>&1; then
        tail -n 1 "$W/pytest-$name.log"
    else
        tail -n 30 "$W/pytest-$name.log"
        fail "the tests on the $name build (see $W/pytest-$name.log)"
    fi
done
say "wheel check passed: $(basename "$WHEEL")"

"""Where mcts-rave's compiled search spends its time: ``perf`` samples mapped onto the numba functions.

numba's code has no symbols that ``perf`` can see, so this compiles the search into a fresh cache
folder (keeping the object file), runs it again from that cache under ``perf record``, and maps
every sample's address onto the functions and instructions of the object (the cached code is loaded
as one block, at the address of ``run_iterations``).  Prints the samples per function and the
hottest instructions; writes the annotated disassembly to ``--annotate``.  Needs ``perf`` and
``objdump``; the position is the speed bench's (:func:`blokus_mcts_speed.position`).

    python bench/blokus_mcts_profile.py duo 0 60000 --knobs lgr=1,quality_bonus=1
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN = """
import sys, time
sys.path.insert(0, {bench!r})
from blokus_mcts_speed import position
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.mcts.tree import run_iterations
from solvers.blokus.tune import parse_knobs
state = position({variant!r}, {plies}, 11)
bot = FastMCTSBot(iterations=1000, knobs=parse_knobs({knobs!r}))
bot.search(state, 1)
result = run_iterations.overloads[run_iterations.signatures[0]]
library = result.library
try:
    compiled = library._get_compiled_object()
    open({obj!r}, "wb").write(compiled)
except RuntimeError:  # loaded from the cache: the object was written by the compiling run
    pass
print("address", hex(library.get_pointer_to_function(result.fndesc.llvm_func_name)), flush=True)
bot = FastMCTSBot(iterations={iterations}, knobs=parse_knobs({knobs!r}))
started = time.process_time()
bot.search(state, 2)
print("sims/s", round({iterations} / (time.process_time() - started)))
"""


def _readable(symbol: str) -> str:
    """``solvers.blokus.mcts.playout.playout`` for numba's mangled ``_ZN7solvers6blokus4mcts7playout7playoutB3v53...``
    (``cfunc.`` and ``cpython.`` wrappers keep their prefix)."""
    prefix, _, mangled = symbol.rpartition("_ZN")
    parts, i = [], 0
    while i < len(mangled) and mangled[i].isdigit():
        digits = re.match(r"\d+", mangled[i:]).group(0)  # type: ignore[union-attr]
        start = i + len(digits)
        parts.append(mangled[start:start + int(digits)])
        i = start + int(digits)
    return prefix + ".".join(parts) if parts else symbol


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("plies", type=int)
    parser.add_argument("iterations", type=int)
    parser.add_argument("--knobs", default="")
    parser.add_argument("--top", type=int, default=25, help="hottest instructions to print")
    parser.add_argument("--annotate", default="blokus_mcts_profile.txt", help="annotated disassembly (samples per line)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "kernel.o")
        def script(iterations: int) -> str:
            return RUN.format(bench=str(Path(__file__).parent), variant=args.variant, plies=args.plies,
                              knobs=args.knobs, obj=obj, iterations=iterations)

        code = script(args.iterations)
        env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(tmp, "cache")}
        print("compiling the search into a fresh cache (under a minute) ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-c", script(1)], env=env, check=True, capture_output=True)
        data = os.path.join(tmp, "perf.data")
        started = time.time()
        out = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000", "-o", data, sys.executable, "-c",
                              code], env=env, check=True, capture_output=True, text=True).stdout
        print(f"searched under perf in {time.time() - started:.0f} s: {out.split('sims/s')[-1].strip()} sims/s")
        base = int(re.search(r"address (0x[0-9a-f]+)", out).group(1), 16)  # type: ignore[union-attr]
        ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True).stdout.split()
        asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel", obj], capture_output=True,
                             text=True, check=True).stdout
    samples = collections.Counter(int(ip, 16) - base for ip in ips if re.fullmatch(r"[0-9a-f]+", ip))
    per_function: collections.Counter[str] = collections.Counter()
    lines, function = [], "?"
    for line in asm.splitlines():
        head = re.match(r"[0-9a-f]+ <(.*)>:", line)
        if head:
            function = _readable(head.group(1))
        instruction = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if instruction:
            offset = int(instruction.group(1), 16)
            per_function[function] += samples.get(offset, 0)
            lines.append((samples.get(offset, 0), offset, function, instruction.group(2)[:100]))
    inside = sum(per_function.values())
    print(f"{len(ips)} samples, {inside} in the compiled search (the rest: Python, imports, the warm-up)")
    for name, count in per_function.most_common():
        if count:
            print(f"  {count:7d}  {100 * count / max(inside, 1):5.1f}%  {name}")
    print("hottest instructions (samples land on the instruction after a slow one):")
    for count, offset, name, text in sorted(lines, reverse=True)[:args.top]:
        print(f"  {count:6d}  {offset:6x}  {text}   [{name[-40:]}]")
    Path(args.annotate).write_text("\n".join(f"{c:6d} {o:6x} {t}" for c, o, _, t in lines) + "\n")


if __name__ == "__main__":
    main()

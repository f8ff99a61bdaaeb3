"""How long each notebook in notebooks/ takes to execute (as tests/test_notebooks.py runs it).

    python bench/study_notebook_times.py [NAME ...] [--save]

Prints, per notebook, the wall time and the CPU time of its kernel (user + system of the kernel
process, read once it has exited), one at a time.  ``--save`` also writes the executed notebooks back
(their outputs refreshed), which is how the committed outputs are made.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def execute(path: Path, save: bool) -> tuple[float, float]:
    """(wall seconds, kernel CPU seconds) of running ``path`` top to bottom."""
    notebook = nbformat.read(path, as_version=4)
    start, cpu = time.perf_counter(), children_cpu()
    try:
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        if save:
            nbformat.write(notebook, path)
    return time.perf_counter() - start, children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebook names without .ipynb (default: all)")
    parser.add_argument("--save", action="store_true", help="write the executed notebooks back")
    args = parser.parse_args()
    paths = [NOTEBOOKS / f"{name}.ipynb" for name in args.names] or sorted(NOTEBOOKS.glob("*.ipynb"))
    print("| notebook | wall s | kernel CPU s |\n|---|---:|---:|")
    for path in paths:
        wall, cpu = execute(path, args.save)
        print(f"| {path.stem} | {wall:.1f} | {cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()

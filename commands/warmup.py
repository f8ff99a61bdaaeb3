"""``kibitz warmup``: compile every numba kernel once, in parallel, with progress (the set-up's last step)."""

from __future__ import annotations

import time

import click

from commands.common import ProgressReporter, emit_json, exit_interrupted, friendly_errors, quiet_option


@click.command("warmup")
@click.argument("groups", nargs=-1)
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes compiling side by side (default: every core, at most one per group).")
@click.option("--force", is_flag=True, help="Run the groups already compiled too (they load from the cache).")
@click.option("--list", "list_only", is_flag=True, help="List the kernel groups and whether each is compiled.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@quiet_option
@friendly_errors
def warmup(groups: tuple[str, ...], workers: int | None, force: bool, list_only: bool, as_json: bool,
           quiet: bool) -> None:
    """Compile the numba kernels now (once per kernel source; later runs load them from the cache in about a
    second), so that no command compiles on its first run.  GROUPS: some of the groups (default: all)."""
    from solvers.parallel import default_workers, make_executor, run_tasks
    from solvers.warmup import GROUPS, compile_group, is_compiled

    unknown = [name for name in groups if name not in GROUPS]
    if unknown:
        raise ValueError(f"unknown kernel group {unknown[0]!r}; choose from {', '.join(GROUPS)}")
    names = sorted(groups or GROUPS, key=lambda name: -GROUPS[name].seconds)  # longest first
    if list_only:
        _list_groups(names, as_json)
        return
    names = [name for name in names if force or not is_compiled(name)]
    if not names:
        _say_ready(as_json)
        return
    workers = workers or min(default_workers(), len(names))
    if not as_json:
        expected = _expected_wall([GROUPS[name].seconds for name in names], workers)
        groups_text = f"{len(names)} kernel group{'s' if len(names) > 1 else ''}"
        click.echo(f"compiling {groups_text} on {workers} process{'es' if workers > 1 else ''} "
                   f"(about {expected} s; once per kernel source) ...", err=True)
    progress = ProgressReporter(len(names), "compiling kernels", enabled=not quiet, unit="group", delay=0)
    seconds: dict[str, float] = {}

    def done(index: int, took: float) -> None:
        seconds[names[index]] = took
        progress.advance(1, names[index])

    started = time.perf_counter()
    executor, close = make_executor(workers)
    try:
        report = run_tasks(compile_group, names, lambda total, _part: total, 0, executor, on_result=done)
    finally:
        close()
        progress.close()
    wall = time.perf_counter() - started
    status = "complete" if report.complete else "interrupted"
    if as_json:
        emit_json({"status": status, "interrupted": not report.complete, "seconds": round(wall, 2),
                   "groups": {name: round(seconds[name], 2) for name in names if name in seconds}})
    else:
        for name in names:
            took = f"{seconds[name]:5.1f} s" if name in seconds else "not done"
            click.echo(f"  {name:<10} {took}  {GROUPS[name].what}")
        click.echo(f"{len(seconds)} of {len(names)} kernel groups ready in {wall:.1f} s ({status})")
    if not report.complete:
        exit_interrupted()


def _say_ready(as_json: bool) -> None:
    """Nothing to compile: say so."""
    if as_json:
        emit_json({"status": "complete", "interrupted": False, "seconds": 0.0, "groups": {}})
    else:
        click.echo("every kernel group asked for is compiled already (--force runs them again)")


def _expected_wall(seconds: list[int], workers: int) -> int:
    """About how long groups of these compile times take on ``workers`` processes, each taking the next group
    (longest first) as it becomes free."""
    loads = [0] * max(1, workers)
    for took in sorted(seconds, reverse=True):
        loads[loads.index(min(loads))] += took
    return max(loads)


def _list_groups(names: list[str], as_json: bool) -> None:
    """``--list``: each group, whether it is compiled, and what it is."""
    from solvers.warmup import GROUPS, is_compiled

    if as_json:
        emit_json({name: {"compiled": is_compiled(name), "what": GROUPS[name].what, "about_seconds": GROUPS[name].seconds}
                   for name in names})
        return
    for name in names:
        click.echo(f"  {name:<10} {'compiled' if is_compiled(name) else 'not compiled':<13} {GROUPS[name].what}")

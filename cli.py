"""kibitz command line: the root group ``main`` (entry point ``kibitz = "cli:main"``) and its command groups.

This module only builds the root group and adds the groups.  The commands live in the :mod:`commands`
package, one module per group: ``commands/tiling.py`` (``tile``, ``cover``), ``commands/blokus.py``
(``blokus``, with its ``solitaire`` subgroup, ``gtp`` and ``match``), ``commands/towers.py``,
``commands/shelfie.py``, ``commands/projectl.py``, ``commands/generate.py`` and ``commands/warmup.py``; the helpers they share
(one-line errors, ``--json`` output, progress) are in ``commands/common.py``.  The command modules import
:mod:`puzzles` and :mod:`solvers` inside the command functions, so ``kibitz --help`` starts fast.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

try:
    import click

    from commands import blokus, generate, projectl, shelfie, tiling, towers, warmup
    from commands.common import interrupted_before_a_result, redeliver_lost_ctrl_c
except KeyboardInterrupt:  # Ctrl-C while the command modules load: one line and exit 130 too, no traceback
    sys.stderr.write("interrupted (Ctrl-C) while starting: nothing to report\n")
    raise SystemExit(130) from None


class KibitzGroup(click.Group):
    """The top-level group: an output that cannot be written (a full disk) is a one-line error, exit 1;
    a Ctrl-C that no command handled is one line and exit 130, and one that Python had to drop (raised inside a
    ctypes callback of numba's loader) arrives again (:func:`commands.common.redeliver_lost_ctrl_c`)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        redeliver_lost_ctrl_c()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
            return result
        except KeyboardInterrupt:  # before any command's own handler (while starting): not click's "Aborted!"
            interrupted_before_a_result()
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
                raise
            devnull = os.open(os.devnull, os.O_WRONLY)  # what is still buffered goes nowhere, quietly
            os.dup2(devnull, sys.stdout.fileno())
            raise click.ClickException(f"cannot write the output: {error.strerror}") from None


@click.group(cls=KibitzGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kibitz")
def main() -> None:
    """kibitz: solvers and rule engines for Blokus, Project L, My Shelfie and Rainbow Blackjack."""


main.add_command(tiling.tile)
main.add_command(tiling.cover)
main.add_command(blokus.blokus)
main.add_command(towers.towers)
main.add_command(shelfie.shelfie)
main.add_command(projectl.projectl)
main.add_command(generate.generate_group)
main.add_command(warmup.warmup)


if __name__ == "__main__":
    main()

"""numba compiles for the host's features with generic x86-64 tuning unless the user chose (puzzles/numba_target.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from puzzles import numba_target


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("NUMBA_CPU_NAME", raising=False)
    monkeypatch.delenv("NUMBA_CPU_FEATURES", raising=False)
    monkeypatch.setattr(numba_target.platform, "machine", lambda: "x86_64")
    config = sys.modules.get("numba.core.config")
    if config is not None:
        monkeypatch.setattr(config, "CPU_NAME", getattr(config, "CPU_NAME", None), raising=False)
    return monkeypatch


def test_x86_hosts_get_generic_tuning(clean_env: pytest.MonkeyPatch) -> None:
    assert numba_target.use_generic_tuning()
    assert os.environ["NUMBA_CPU_NAME"] == "x86-64"
    assert "NUMBA_CPU_FEATURES" not in os.environ  # numba takes the host's (the next test checks them)


@pytest.mark.parametrize("variable", ["NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES"])
def test_the_users_choice_stands(clean_env: pytest.MonkeyPatch, variable: str) -> None:
    clean_env.setenv(variable, "znver3" if variable == "NUMBA_CPU_NAME" else "+sse2")
    assert not numba_target.use_generic_tuning()
    assert os.environ[variable] in ("znver3", "+sse2")
    other = "NUMBA_CPU_FEATURES" if variable == "NUMBA_CPU_NAME" else "NUMBA_CPU_NAME"
    assert other not in os.environ


def test_other_hosts_keep_numbas_default(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setattr(numba_target.platform, "machine", lambda: "arm64")
    assert not numba_target.use_generic_tuning()
    assert "NUMBA_CPU_NAME" not in os.environ


def test_a_fresh_process_compiles_for_the_chosen_target_with_the_hosts_features() -> None:
    """Importing puzzles sets the target before numba builds its code generator, whose cache key then names it,
    with the host's own instruction set."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    code = ("import platform, puzzles\n"
            "import llvmlite.binding as llvm\n"
            "from numba.core.registry import cpu_target\n"
            "_, name, features = cpu_target.target_context.codegen().magic_tuple()\n"
            "print(platform.machine(), name, features == llvm.get_host_cpu_features().flatten())\n")
    machine, name, host_features = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                                  text=True, check=True).stdout.split()
    if machine.lower() in numba_target.X86_MACHINES:
        assert name == "x86-64"
    else:
        assert name != "x86-64"
    assert host_features == "True"

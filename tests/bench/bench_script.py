"""Load a bench/ script as a module (bench/ is not a package: the scripts run on demand)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_bench_script(name):
    """bench/<name>.py, imported under the name bench_<name>."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

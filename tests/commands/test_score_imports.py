"""`coreflab score` and `compare` start lean: no scipy.optimize, numba, sklearn, matplotlib,
dask or pandas in the process (start-up is most of a short command's time).

Checked in a fresh interpreter (this test process has imported everything already) by
listing `sys.modules` after the command ran; CEAF's assignment solver is loaded from
scipy's compiled `_lsap` module alone (`coreflab.metrics.assignment`).
"""

import json
import subprocess
import sys

HEAVY = ("scipy.optimize", "scipy.linalg", "numba", "sklearn", "matplotlib", "dask", "pandas")

KEY = (
    "#begin document (d);\n"
    + "".join(f"t\t0\t{i}\tw\t{c}\n" for i, c in enumerate(["(1", "1)", "(1)", "(2)", "(2)", "(3)"]))
    + "#end document\n"
)
# a response whose CEAF alignment is not one-to-one (cluster 1 of the key split, 2 and 3 merged)
RESPONSE = (
    "#begin document (d);\n"
    + "".join(f"t\t0\t{i}\tw\t{c}\n" for i, c in enumerate(["(1", "1)", "(4)", "(2)", "(2)", "(2)"]))
    + "#end document\n"
)

PROBE = """
import json, sys
from coreflab.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def run_probe(args):
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def heavy_modules(modules):
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_score_imports_nothing_heavy(tmp_path):
    key, resp = tmp_path / "key.conll", tmp_path / "resp.conll"
    key.write_text(KEY)
    resp.write_text(RESPONSE)
    result = run_probe(["score", str(key), str(resp), "--format", "json"])
    assert result["code"] == 0
    assert heavy_modules(result["modules"]) == []


def test_compare_imports_nothing_heavy(tmp_path):
    key, resp = tmp_path / "key.conll", tmp_path / "resp.conll"
    key.write_text(KEY)
    resp.write_text(RESPONSE)
    result = run_probe(["compare", str(key), str(resp), str(key), "--samples", "20"])
    assert result["code"] == 0
    assert heavy_modules(result["modules"]) == []

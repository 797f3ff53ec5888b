"""bench/scaling.py without running a sweep: the Dask numbers it copies and its child arguments."""

import json
from pathlib import Path

from tests.bench.bench_script import load_bench_script

ROOT = Path(__file__).resolve().parents[2]
scaling = load_bench_script("scaling")


def test_worker_points_copy_per_k_numbers_without_traces(tmp_path):
    src = tmp_path / "crossdoc.json"
    src.write_text(
        json.dumps(
            {
                "machine_cpus": 2,
                "personx": [
                    {
                        "workers": 1,
                        "wall_s": 3.0,
                        "proposals_per_s_per_worker": 5.0,
                        "trace": [{"round": 0}],
                        "other": 1,
                    },
                    {"workers": 2, "wall_s": 2.0, "proposals_per_s_per_worker": 4.0},
                ],
                "large": {"workers": 2, "wall_s": 9.0, "trace": []},
            }
        )
    )
    got = scaling.worker_points(src)
    assert got["points"] == [
        {"workers": 1, "wall_s": 3.0, "proposals_per_s_per_worker": 5.0},
        {"workers": 2, "wall_s": 2.0, "proposals_per_s_per_worker": 4.0},
    ]
    assert got["large"] == {"workers": 2, "wall_s": 9.0} and got["machine_cpus"] == 2
    assert scaling.worker_points(tmp_path / "absent.json") is None


def test_plans_reach_the_conll2012_size_and_rounding():
    from coreflab.corpus.synthetic.generator import SIZES

    assert scaling.PLANS["full"]["docs"][-1] == SIZES["conll2012"]["docs"][0]
    assert scaling.PLANS["full"]["beam_docs"] in scaling.PLANS["full"]["docs"]
    assert set(scaling.PLANS["quick"]["beams"]) <= set(scaling.PLANS["full"]["beams"])
    assert all(p["docs"] == sorted(p["docs"]) for p in scaling.PLANS.values())
    assert scaling._rounded({"a": [1.234567, 2], "b": 0.1 + 0.2}) == {"a": [1.2346, 2], "b": 0.3}

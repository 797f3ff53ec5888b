"""Table 2 keeps the whole-corpus and within-topic settings apart (and reads old files)."""

import pandas as pd

from coreflab.papers.singh2011.report import table2


def trace(run, setting=None, f1=0.5):
    rows = [
        {
            "run": run,
            "model": "hier",
            "corpus": "ecbplus",
            "round": r,
            "workers": 2,
            "b3_p": f1,
            "b3_r": f1,
            "b3_f1": f1 if r else 0.1,
            "entities": 10 - r,
        }
        for r in range(3)
    ]
    t = pd.DataFrame(rows)
    if setting is not None:
        t.insert(4, "setting", setting)
    return t


def test_table2_has_a_row_per_setting():
    traces = pd.concat([trace("hier_K2", "whole corpus", 0.6), trace("hier_K2_within", "within topic", 0.7)])
    baselines = pd.DataFrame(
        [
            {
                "corpus": "ecbplus",
                "system": "string_match",
                "setting": "within topic",
                "b3_p": 0.9,
                "b3_r": 0.5,
                "b3_f1": 0.6,
                "entities": 40,
            },
            {
                "corpus": "ecbplus",
                "system": "string_match",
                "setting": "whole corpus",
                "b3_p": 0.8,
                "b3_r": 0.5,
                "b3_f1": 0.55,
                "entities": 30,
            },
        ]
    )
    t = table2(traces, baselines)
    assert t["setting"].tolist() == ["whole corpus", "whole corpus", "within topic", "within topic"]
    assert t["system"].tolist() == [
        "string match",
        "combined model, K = 2 (round 2)",
        "string match",
        "combined model, K = 2 (round 2)",
    ]
    assert t["B3 F1"].round(6).tolist() == [55.0, 60.0, 60.0, 70.0]


def test_table2_reads_files_without_setting_as_whole_corpus():
    baselines = pd.DataFrame(
        [{"corpus": "large", "system": "label_propagation", "b3_p": 0.5, "b3_r": 0.5, "b3_f1": 0.5, "entities": 3}]
    )
    t = table2(trace("hier_K1"), baselines)
    assert t["setting"].tolist() == ["whole corpus", "whole corpus"]
    assert t["entities"].tolist() == [8, 3]  # sorted by corpus: ecbplus, large

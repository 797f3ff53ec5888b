"""Table 2 keeps the whole-corpus and within-topic settings apart (and reads old files)."""

import pandas as pd
import pytest

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
            "seconds": float(r),
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


@pytest.mark.slow
def test_table2_caption_names_the_heldout_split(tmp_path):
    """Traces of runs with a tuned prior carry how many entities and mentions were held out; the
    report's Table 2 caption says so (and traces without the columns give no note)."""
    from coreflab.cli import main
    from coreflab.papers.singh2011.report import tuning_note

    large = trace("hier_K2", "whole corpus").assign(corpus="large", heldout_entities=50, heldout_mentions=1322)
    ecb = trace("hier_K2").assign(heldout_entities=0, heldout_mentions=0)  # nothing held out: no note
    assert tuning_note(pd.concat([large, ecb])) == "b, w tuned on 50 held-out entities (1322 mentions) of large"
    assert tuning_note(trace("hier_K2")) == ""
    baselines = pd.DataFrame(
        [{"corpus": "large", "system": "string_match", "b3_p": 0.8, "b3_r": 0.8, "b3_f1": 0.8, "entities": 3}]
    )
    fig = trace("flat_K1").assign(corpus="personx", model="flat", proposals=10, sum_shard_seconds=1.0)
    paths = {}
    for name, frame in [("t7", large), ("b", baselines), ("f", fig)]:
        paths[name] = tmp_path / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    out = tmp_path / "out"
    args = ["singh2011", "report", "--fig5", str(paths["f"]), "--fig6", str(paths["f"]), "--fig7", str(paths["t7"])]
    assert main(args + ["--baselines", str(paths["b"]), "--outdir", str(out)]) == 0
    caption = (out / "table2.md").read_text()
    assert "b, w tuned on 50 held-out entities (1322 mentions) of large" in caption
    assert "hierarchy levels over mention pairs (pairwise form)" in caption  # traces without `context`


def test_table2_caption_names_the_hierarchy_form_and_where_the_other_is():
    from coreflab.papers.singh2011.report import context_note

    pair, union = trace("hier_K2").assign(context="pairwise"), trace("hier_union_K2").assign(context="union")
    assert context_note(pair, pd.concat([pair, union])) == (
        "hierarchy levels over mention pairs (pairwise form); the union-context form is in Fig. 6 only"
    )
    assert context_note(pair, pair) == "hierarchy levels over mention pairs (pairwise form)"
    assert context_note(union, pd.concat([pair, union])).startswith("hierarchy levels over union-of-bags")
    assert context_note(pd.concat([pair, union]), pair) == ""  # both forms have rows of their own
    rows = table2(pd.concat([pair, union]), pd.DataFrame(columns=["corpus", "system", "b3_p", "b3_r", "b3_f1"]))
    assert rows["system"].tolist() == [
        "combined model, K = 2 (round 2)",
        "combined (union contexts) model, K = 2 (round 2)",
    ]


def test_table2_shows_each_baselines_bootstrap_p_and_the_models_schedule():
    t = trace("hier_K2", "whole corpus", 0.6).assign(proposals=[0, 300, 300], mentions=100)
    baselines = pd.DataFrame(
        [
            {
                "corpus": "ecbplus",
                "system": s,
                "setting": "whole corpus",
                "b3_p": 0.5,
                "b3_r": 0.5,
                "b3_f1": 0.5,
                "entities": 9,
            }
            for s in ("string_match", "label_propagation")
        ]
    )
    sig = pd.DataFrame(
        [
            {"corpus": "ecbplus", "setting": "whole corpus", "system": "label_propagation", "p (bootstrap)": 0.004},
            {"corpus": "ecbplus", "setting": "within topic", "system": "label_propagation", "p (bootstrap)": 0.9},
        ]
    )
    out = table2(t, baselines, sig).set_index("system")
    assert out.loc["label propagation", "p (bootstrap)"] == 0.004
    assert pd.isna(out.loc["string match", "p (bootstrap)"])  # no test against it in `sig`
    assert out.loc["combined model, K = 2 (round 2)", "proposals per mention"] == 6.0
    assert "p (bootstrap)" not in table2(t, baselines)  # without tests, no column

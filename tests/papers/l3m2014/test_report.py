"""L3M 2014 order-control table: one row per technique, VI paired with the same γ."""

import pandas as pd

from coreflab.papers.l3m2014.report import order_control


def test_order_control_pairs_each_technique_with_its_own_clustering_run():
    coref = pd.DataFrame(
        {
            "technique": ["l3m", "l3m", "sumlink", "sumlink"],
            "order": ["natural", "shuffled"] * 2,
            "AVG": [60.0, 55.0, 50.0, 51.0],
        }
    )
    rows = []
    for technique, natural, shuffled in (("l3m_gamma0", 40.0, 43.0), ("l3m", 30.0, 70.0), ("sumlink", 20.0, 21.5)):
        for flag, vi in ((False, natural), (True, shuffled)):
            rows.append({"technique": technique, "key": "author", "passes": 1, "shuffled": flag, "vi": vi})
            rows.append({"technique": technique, "key": "author", "passes": 5, "shuffled": flag, "vi": 999.0})
    table = order_control(coref, pd.DataFrame(rows)).set_index("technique")
    assert list(table.index) == ["l3m", "sumlink"]  # the tuned-γ clustering run adds no second l3m row
    assert table.loc["l3m", "drop (AVG)"] == 5.0 and table.loc["sumlink", "drop (AVG)"] == -1.0
    assert table.loc["l3m", "author VI increase (shuffled)"] == 3.0  # γ = 0 run: 43 − 40
    assert table.loc["sumlink", "author VI increase (shuffled)"] == 1.5

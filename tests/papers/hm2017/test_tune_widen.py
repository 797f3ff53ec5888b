"""H&M tuning: a best value on a grid edge grows the grid one step past it."""

from coreflab.papers.hm2017.commands.tune import widened


def test_an_inside_value_grows_nothing():
    assert widened([1, 100, 1000, 2000], 100, geometric=True) == []
    assert widened([0.5, 1.0, 1.5], 1.0, geometric=False) == []
    assert widened([1.0], 1.0, geometric=True) == []  # one value: no edge to speak of


def test_edges_grow_geometrically_for_C_and_by_the_step_for_r():
    assert widened([1, 100, 1000, 2000], 1, geometric=True) == [0.1]
    assert widened([1, 100, 1000, 2000], 2000, geometric=True) == [20000.0]
    assert widened([0.5, 1.0, 1.5, 2.0, 2.5], 2.5, geometric=False) == [3.0]
    assert widened([0.05, 0.1, 0.5], 0.05, geometric=False) == []  # 0.05 − 0.05 = 0: r stays positive
    assert widened([1.0, 1.5, 2.0], 1.0, geometric=False) == [0.5]
    assert widened([0.5, 1.0, 1.5], 0.5, geometric=False) == []  # 0.5 − 0.5 = 0

"""The findings scorecard as the `docs` verb builds it: the core's claims and every registered paper's."""

import pytest


@pytest.fixture(scope="session")
def scorecard():
    from coreflab.commands.docs import scorecard

    return scorecard()

"""The MELA mode of a regressor (`coreflab.mela.mode`): recorded in its file, checked against the
mode of the run that uses it."""

import pytest

from coreflab.errors import UserError
from coreflab.mela.mode import DROPPED, KEPT, check_regressor_mode, mode_name, regressor_mode


def test_a_regressor_file_names_its_mode():
    assert (mode_name(True), mode_name(False)) == (KEPT, DROPPED)
    assert regressor_mode({"response_singletons": KEPT}) is True
    assert regressor_mode({}) is False  # a file without the field was fitted with singletons dropped
    with pytest.raises(UserError, match="response_singletons must be"):
        regressor_mode({"response_singletons": "some"})


def test_a_regressor_of_the_other_mode_is_refused_unless_transferred():
    kept = {"response_singletons": KEPT}
    assert check_regressor_mode(kept, True) is True
    with pytest.raises(
        UserError, match="fitted with response singletons kept, but this run's responses have them dropped"
    ):
        check_regressor_mode(kept, False, "r.json")
    assert check_regressor_mode(kept, False, transfer=True) is True

"""NAME=VALUE options: parsed to a dict, a malformed item a one-line error naming flag and form."""

import pytest

from coreflab.errors import UserError
from coreflab.named_values import named_values


def test_items_become_a_dict_split_at_the_first_equals():
    assert named_values(["a=x.json", "b=dir/y=z.json"], "--score-json", "SYSTEM=PATH") == {
        "a": "x.json",
        "b": "dir/y=z.json",
    }


@pytest.mark.parametrize("item", ["nope", "=x.json", "a="])
def test_an_item_without_equals_name_or_value_is_an_error(item):
    with pytest.raises(UserError, match=r"--fitted .*: expected LEARNER=MODEL"):
        named_values([item], "--fitted", "LEARNER=MODEL")

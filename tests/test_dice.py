"""The solo/party dice: the faces -> actions table (data), texts, the doubles rule, exact odds, `printkit roll`."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.errors import DataError
from printkit.loading.dice import dice_from_table, load_dice, table_lines
from printkit.loading.maps import load_map
from printkit.model.dice import Dice
from printkit.rules.dice import (
    Roll,
    action_probability,
    game_rolls,
    outcome_probabilities,
    outcome_text,
    roll,
    same_action_probability,
    turn_roll,
)

DICE = load_dice()


def test_the_faces_to_actions_table_is_the_data_file() -> None:
    # maps/around-the-world.toml [dice]: 1-2 Travel, 3-4 Collect, 5-6 Explore
    assert DICE == Dice((1, 2, 3, 4, 5, 6), ("Travel", "Travel", "Collect", "Collect", "Explore", "Explore"))
    assert [DICE.action_of(f) for f in range(1, 7)] == ["Travel", "Travel", "Collect", "Collect", "Explore", "Explore"]
    assert DICE.names == ("Travel", "Collect", "Explore")
    assert [DICE.faces_of(a) for a in DICE.names] == [(1, 2), (3, 4), (5, 6)]
    # the quick reader (`roll`, `turns`) and the map loader (tomllib) read the same table
    assert all(load_map(m).dice == DICE for m in ("world", "south-america"))


@pytest.mark.parametrize("face", [0, 7, -1])
def test_impossible_face_is_rejected(face: int) -> None:
    with pytest.raises(ValueError, match=f"a six-sided die has no face {face}"):
        DICE.action_of(face)


def test_the_quick_reader_refuses_what_it_cannot_read() -> None:
    text = '[solo]\nturns = 20\n\n[dice]\n# faces\n1 = "Travel"\n2 = "Travel"  # two\n'
    with pytest.raises(DataError) as info:
        table_lines(text, "dice.toml")
    assert info.value.problems == ['dice.toml: line 7: expected a die face and its action, like 1 = "Travel"']
    with pytest.raises(DataError) as info:
        table_lines("[solo]\nturns = 20\n", "dice.toml")
    assert info.value.problems == ["dice.toml: dice: missing (expected a [dice] table of die faces and actions)"]
    with pytest.raises(DataError) as info:
        dice_from_table({"1": "Travel", "3": "Collect", "4": ""}, "dice.toml")
    assert info.value.problems == [
        "dice.toml: dice.3: expected face 2 (faces are 1, 2, 3, ... in order)",
        "dice.toml: dice.4: expected face 3 (faces are 1, 2, 3, ... in order)",
    ]


@pytest.mark.parametrize(
    ("a", "b", "text"),
    [
        # the two examples
        (3, 6, "3 + 6 -> Collect and Explore, in either order"),
        (1, 2, "1 + 2 -> Travel, plus one action of your choice"),
        # the rulebook's examples: 2 and 5, 4 and 6
        (2, 5, "2 + 5 -> Travel and Explore, in either order"),
        (4, 6, "4 + 6 -> Collect and Explore, in either order"),
        (6, 6, "6 + 6 -> Explore, plus one action of your choice"),
        (5, 3, "5 + 3 -> Explore and Collect, in either order"),
    ],
)
def test_outcome_texts(a: int, b: int, text: str) -> None:
    assert outcome_text(DICE, a, b) == text
    assert Roll(a, b, DICE).text == text


def test_roll_json_shape() -> None:
    assert Roll(3, 6, DICE).to_json() == {"dice": [3, 6], "actions": ["Collect", "Explore"], "choice": False}
    assert Roll(1, 2, DICE).to_json() == {"dice": [1, 2], "actions": ["Travel"], "choice": True}


def test_doubles_rule_same_action_means_one_free_choice() -> None:
    # the 12 of 36 ordered pairs where both dice call for the same action, written out
    same = {(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (3, 4), (4, 3), (4, 4), (5, 5), (5, 6), (6, 5), (6, 6)}
    for a in range(1, 7):
        for b in range(1, 7):
            r = Roll(a, b, DICE)
            assert r.choice == ((a, b) in same), (a, b)
            assert r.actions == ((DICE.action_of(a),) if r.choice else (DICE.action_of(a), DICE.action_of(b)))
            assert r.text.endswith("plus one action of your choice" if r.choice else "in either order")


def test_exact_probabilities() -> None:
    odds = outcome_probabilities(DICE)
    # two different actions: 2 faces x 2 faces x 2 orders = 8 of 36 = 2/9;
    # the same action: 2 x 2 = 4 of 36 = 1/9
    assert odds == {
        "Travel+Collect": Fraction(2, 9),
        "Travel+Explore": Fraction(2, 9),
        "Collect+Explore": Fraction(2, 9),
        "Travel+choice": Fraction(1, 9),
        "Collect+choice": Fraction(1, 9),
        "Explore+choice": Fraction(1, 9),
    }
    assert sum(odds.values()) == 1
    assert [action_probability(DICE, a) for a in ("Travel", "Collect", "Explore")] == [Fraction(1, 3)] * 3
    assert same_action_probability(DICE) == Fraction(1, 3)


def test_odds_follow_the_table_handed_in() -> None:
    # a four-sided die, faces 1-3 Go and 4 Stay: Go+Stay 2*3/16, Go+choice 9/16, Stay+choice 1/16
    d4 = Dice((1, 2, 3, 4), ("Go", "Go", "Go", "Stay"))
    assert outcome_probabilities(d4) == {
        "Go+choice": Fraction(9, 16), "Go+Stay": Fraction(6, 16), "Stay+choice": Fraction(1, 16),
    }  # fmt: skip
    assert action_probability(d4, "Stay") == Fraction(1, 4)
    assert same_action_probability(d4) == Fraction(10, 16)
    assert all(1 <= r.a <= 4 and 1 <= r.b <= 4 for r in (roll(d4, random.Random(s)) for s in range(50)))


def test_turn_rolls_depend_only_on_seed_and_turn() -> None:
    assert [turn_roll(DICE, 42, t) for t in (1, 2, 3)] == [Roll(2, 5, DICE), Roll(3, 5, DICE), Roll(6, 5, DICE)]
    assert game_rolls(DICE, 42, 20)[6] == turn_roll(DICE, 42, 7)
    assert game_rolls(DICE, 42, 20) == game_rolls(DICE, 42, 20)
    assert game_rolls(DICE, 42, 20) != game_rolls(DICE, 43, 20)


def test_roll_command_with_seed(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["roll", "--seed", "7"])
    assert result.exit_code == 0
    assert result.output == "3 + 2 -> Collect and Travel, in either order\n"


def test_roll_command_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["roll", "--seed", "1", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {"dice": [2, 5], "actions": ["Travel", "Explore"], "choice": False}


def test_roll_command_without_seed_rolls_real_dice(runner: CliRunner) -> None:
    seen = set()
    for _ in range(30):
        doc = json.loads(runner.invoke(cli, ["roll", "--json"]).output)
        a, b = doc["dice"]
        assert 1 <= a <= 6 and 1 <= b <= 6
        assert doc == Roll(a, b, DICE).to_json()
        seen.add((a, b))
    assert len(seen) > 1  # 30 identical rolls from system entropy: chance 36^-29


def test_roll_seed_must_be_a_number(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["roll", "--seed", "abc"])
    assert result.exit_code == 2
    assert "Error: Invalid value for '--seed': expected a whole number from 0 to 9223372036854775807, got 'abc'" in result.stderr
    assert result.stdout == ""

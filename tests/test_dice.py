"""The solo/party dice: faces to actions, texts, exact odds, sampled frequencies, `printkit roll`."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from printkit.cli import cli
from printkit.rules.dice import (
    Roll,
    action_of,
    action_probability,
    chi_square,
    game_rolls,
    outcome_key,
    outcome_probabilities,
    outcome_text,
    roll,
    same_action_probability,
    turn_roll,
)

# Upper critical values of the chi-square distribution at p = 0.001, from the
# NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4
# ("Critical Values of the Chi-Square Distribution"), upper-tail table:
CHI2_CRIT_P001 = {5: 20.515, 35: 66.619}
ROLLS = 60_000


def test_faces_map_to_actions() -> None:
    assert [action_of(f) for f in range(1, 7)] == [
        "Travel", "Travel", "Collect", "Collect", "Explore", "Explore",
    ]


@pytest.mark.parametrize("face", [0, 7, -1])
def test_impossible_face_is_rejected(face: int) -> None:
    with pytest.raises(ValueError, match=f"a six-sided die has no face {face}"):
        action_of(face)


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
    assert outcome_text(a, b) == text
    assert Roll(a, b).text == text


def test_roll_json_shape() -> None:
    assert Roll(3, 6).to_json() == {"dice": [3, 6], "actions": ["Collect", "Explore"], "choice": False}
    assert Roll(1, 2).to_json() == {"dice": [1, 2], "actions": ["Travel"], "choice": True}


@given(st.integers(1, 6), st.integers(1, 6))
def test_choice_exactly_when_both_dice_call_the_same_action(a: int, b: int) -> None:
    r = Roll(a, b)
    assert r.choice == ((a - 1) // 2 == (b - 1) // 2)
    assert len(r.actions) == (1 if r.choice else 2)
    assert r.text.endswith("plus one action of your choice" if r.choice else "in either order")


def test_exact_probabilities() -> None:
    odds = outcome_probabilities()
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
    assert [action_probability(a) for a in ("Travel", "Collect", "Explore")] == [Fraction(1, 3)] * 3
    assert same_action_probability() == Fraction(1, 3)


def test_chi_square_statistic_by_hand() -> None:
    # (10-15)^2/15 + (20-15)^2/15 = 25/15 + 25/15 = 3.333...
    assert chi_square({"a": 10, "b": 20}, {"a": 15.0, "b": 15.0}) == pytest.approx(10 / 3)


def _outcome_stat(rolls: list[Roll]) -> float:
    observed = Counter(outcome_key(r) for r in rolls)
    expected = {k: float(p) * len(rolls) for k, p in outcome_probabilities().items()}
    return chi_square(dict(observed), expected)


def test_sampled_outcomes_match_exact_odds() -> None:
    rng = random.Random(20240601)
    rolls = [roll(rng) for _ in range(ROLLS)]
    # 6 outcomes -> 5 degrees of freedom
    assert _outcome_stat(rolls) < CHI2_CRIT_P001[5]
    # 36 ordered face pairs, 1/36 each -> 35 degrees of freedom
    pairs = Counter(r.dice for r in rolls)
    expected = {(a, b): ROLLS / 36 for a in range(1, 7) for b in range(1, 7)}
    assert chi_square({str(k): v for k, v in pairs.items()}, {str(k): v for k, v in expected.items()}) < CHI2_CRIT_P001[35]
    # "same action" comes up a third of the time: within 4 standard deviations
    # sqrt(60000 * 1/3 * 2/3) = 115.5
    same = sum(1 for r in rolls if r.choice)
    assert abs(same - ROLLS / 3) < 4 * 115.5


def test_per_turn_dice_of_tracked_games_match_exact_odds() -> None:
    # the tracker's dice come from (seed, turn): 3,000 games x 20 turns
    rolls = [turn_roll(seed, t) for seed in range(3_000) for t in range(1, 21)]
    assert len(rolls) == ROLLS
    assert _outcome_stat(rolls) < CHI2_CRIT_P001[5]


def test_chi_square_test_catches_a_loaded_die() -> None:
    class Loaded(random.Random):
        def randint(self, a: int, b: int) -> int:  # one face in 5 is a six, then fair
            return 6 if self.random() < 0.2 else super().randint(a, b)

    rng = Loaded(1)
    rolls = [roll(rng) for _ in range(ROLLS)]
    assert _outcome_stat(rolls) > CHI2_CRIT_P001[5]


def test_turn_rolls_depend_only_on_seed_and_turn() -> None:
    assert [turn_roll(42, t) for t in (1, 2, 3)] == [Roll(2, 5), Roll(3, 5), Roll(6, 5)]
    assert game_rolls(42, 20)[6] == turn_roll(42, 7)
    assert game_rolls(42, 20) == game_rolls(42, 20)
    assert game_rolls(42, 20) != game_rolls(43, 20)


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
        assert doc == Roll(a, b).to_json()
        seen.add((a, b))
    assert len(seen) > 1  # 30 identical rolls from system entropy: chance 36^-29


def test_roll_seed_must_be_a_number(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["roll", "--seed", "abc"])
    assert result.exit_code == 2
    assert "Error: Invalid value for '--seed': 'abc' is not a valid integer." in result.stderr
    assert result.stdout == ""

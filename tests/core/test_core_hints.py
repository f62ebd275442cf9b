"""The shared ground of hints: sampling seeds come from what the player sees."""

from referee.core.hints import Advice, Alternative, seed_from_view


def test_the_sampling_seed_depends_only_on_the_view_and_the_level():
    view = {"hand": ["AS", "2H"], "pile": ["9C"], "you": "ann"}
    same_view_reordered = {"you": "ann", "pile": ["9C"], "hand": ["AS", "2H"]}
    assert seed_from_view(view, "hard") == seed_from_view(same_view_reordered, "hard")
    assert seed_from_view(view, "hard") != seed_from_view(view, "medium")
    assert seed_from_view(view, "hard") != seed_from_view({**view, "hand": ["AS"]}, "hard")


def test_advice_describes_itself_as_plain_data():
    advice = Advice(move={"type": "pass", "player": "ann"}, measure="win_share", value=0.5,
                    reason="nothing follows", alternatives=(Alternative({"type": "draw",
                                                                         "player": "ann"}, 0.25),))
    assert advice.describe() == {
        "move": {"type": "pass", "player": "ann"}, "measure": "win_share", "value": 0.5,
        "reason": "nothing follows",
        "alternatives": [{"move": {"type": "draw", "player": "ann"}, "value": 0.25}],
    }

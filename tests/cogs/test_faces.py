"""Each game's slash commands are declared once (cogs.commands) over one implementation
(cogs.commands.game_group): the declarations agree with the game flow, and a group is built per
game, never shared."""

from __future__ import annotations

from cogs.commands import FACES, game_group
from engine import GAMES
from gameflow import BOARDS


def test_every_game_the_engine_plays_has_one_face_naming_its_command():
    names = [game for face in FACES for game in face.boards.values()]
    assert sorted(names) == sorted(GAMES)  # each once
    for face in FACES:
        for game in face.boards.values():
            assert BOARDS[game].command == face.command  # what messages tell members to type


def test_each_face_gets_its_own_group_with_the_shared_commands_then_its_extras():
    shared = [
        *("play", "challenge", "move", "resign", "board", "brain", "leaderboard", "stats"),
        "history",
    ]
    groups = [game_group(face, None) for face in FACES]  # read, never run
    assert [g.name for g in groups] == ["ttt", "connect4"]
    assert [c.name for c in groups[0].commands] == [*shared, "help", "forget-me"]
    assert [c.name for c in groups[1].commands] == [*shared, "puzzle"]
    for face, group in zip(FACES, groups, strict=True):
        move = group.get_command("move")
        assert [p.display_name for p in move.parameters] == [face.move]
        boards = [p for p in group.get_command("play").parameters if p.name == "board"]
        assert [[c.value for c in p.choices] for p in boards] == (
            [list(face.boards)] if len(face.boards) > 1 else []
        )
    assert groups[0].get_command("play") is not groups[1].get_command("play")

"""The slash commands' texts reach the translators without the message extractor importing
the Discord face (issue 32): ``python -m i18n.extract`` reads them where they are declared,
and what it reads is exactly what Discord is sent."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import engine
from cogs.admin.cog import GAME_CHOICES, Admin
from cogs.commands import CONNECT4, FACES, game_group
from gameflow.game import BOARDS
from i18n.extract import ROOT, in_commands, messages


def sent_texts() -> set[str]:
    """Every description and choice of the commands as the bot builds them (read, never
    run)."""
    groups = [(g.description, g.commands) for g in (game_group(f, None) for f in FACES)]
    groups.append((Admin.__cog_group_description__, Admin.__cog_app_commands__))
    texts = set()
    for description, commands in groups:
        texts.add(description)
        for command in commands:
            texts.add(command.description)
            for parameter in command.parameters:
                texts.add(parameter.description)
                texts.update(choice.name for choice in parameter.choices)
    return texts


def test_the_extractor_finds_every_text_the_commands_send_and_no_other():
    sent = sent_texts()
    read = {m.text for m in in_commands()}
    assert len(sent) > 60
    assert read <= sent  # nothing the commands do not say (a single board has no choice)
    # the rest are the game titles the admin commands offer, marked where they are said
    assert sent - read == {str(board.title) for board in BOARDS.values()}
    assert sent <= {m.text for m in messages()}
    assert {"7x6", "4x4", "5x4"} <= read and "3x3" not in read


def test_a_text_written_by_code_where_a_command_is_declared_is_not_taken_for_one(tmp_path):
    """What the extractor cannot read as written, it leaves out: the test above then fails,
    naming it."""
    (tmp_path / "cogs").mkdir()
    (tmp_path / "cogs" / "face.py").write_text(
        textwrap.dedent(
            """
            BOARDS = {"9x9": "huge", "8x8": "big"}
            WHICH = "Which board"

            @group.command(name="go", description="Go somewhere")
            @app_commands.describe(where=f"Where: {WHICH}", board=WHICH)
            @app_commands.choices(how=[Choice(name="quickly", value="q")])
            async def go(interaction, where: str, board: str, how: str): ...

            FACE = GameFace(group="g", about="A game", boards=BOARDS, texts={"go": "Go"})
            ONE = GameFace(group="o", about="Another", boards={"1x1": "tiny"}, texts={})
            """
        )
    )
    read = [(m.text, m.places, m.command) for m in in_commands(tmp_path)]
    assert sorted(text for text, _, _ in read) == sorted(
        ["Go somewhere", "Which board", "quickly", "A game", "9x9", "8x8", "Go", "Another"]
    )
    assert all(command and places[0][0] == "cogs/face.py" for _, places, command in read)


def test_the_extractor_runs_without_discord_or_the_discord_face():
    blocked = textwrap.dedent(
        """
        import sys

        class Blocked:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("cogs", "discord"):
                    raise ImportError(f"the extractor imported {name}")

        sys.meta_path.insert(0, Blocked())
        from i18n.extract import messages

        said = messages()
        assert any(m.command for m in said) and len(said) > 400, len(said)
        print("read", len(said))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("read ")


def test_the_texts_that_list_the_boards_name_every_board_and_its_width():
    """Written out for the translators: a new board must be added to them too."""
    sizes = list(CONNECT4.boards)
    listed = f"{sizes[0]} (the default, the classic board), or a mini: {' or '.join(sizes[1:])}"
    texts = CONNECT4.texts
    assert texts["play.board"] == texts["board"] == listed
    assert texts["brain.board"] == f"{listed}, for moves"
    widths = ", ".join(
        f"{engine.get_game(game).width} on {size}" for size, game in CONNECT4.boards.items()
    )
    assert texts["move.number"] == f"The column, from 1 (left) to {widths}"


def test_the_admin_commands_game_option_names_every_memory_it_offers():
    """ "Tic-tac-toe (the default), Connect Four (7×6, 4×4 or 5×4)": every game of
    GAME_CHOICES ("Connect Four (7×6)"), a game of several boards named once with its
    sizes."""
    sizes: dict[str, list[str]] = {}
    for choice in GAME_CHOICES:
        name, _, size = choice.name.rpartition(" ") if "×" in choice.name else (choice.name, "", "")
        sizes.setdefault(name, []).extend([size.strip("()")] if size else [])
    named = [
        f"{name} ({', '.join(boards[:-1])} or {boards[-1]})" if len(boards) > 1 else name
        for name, boards in sizes.items()
    ]
    expected = f"Which game's memory: {named[0]} (the default), {', '.join(named[1:])}"
    described = [
        command.get_parameter("game").description
        for command in Admin.__cog_app_commands__
        if command.get_parameter("game") is not None
    ]
    assert len(described) == 4 and set(described) == {expected}

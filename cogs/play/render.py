"""A game on its board: the embed (status, lessons), the board's buttons and their custom
ids, the Rematch button."""

from __future__ import annotations

import re

import discord

from cogs.utils.boards import LEVEL_NAMES, BoardView, Look, look_of
from cogs.utils.ratings import changes_text
from cogs.utils.render import COLOURS, NEUTRAL, TICTACTOE
from engine import LOSS, WIN, Lesson, Mark
from gameflow import PLAYED_OUT, Game, Turn
from gameflow.places import is_own_bot
from gameflow.words import mention, sentences
from i18n import ENGLISH, Language


def describe_lesson(
    lesson: Lesson,
    bot_mark: Mark | None,
    look: Look | None = None,
    lang: Language = ENGLISH,
    *,
    learning: bool = True,
) -> str:
    """One lesson in words: from the bot's side in a game against it (``bot_mark``), as
    a watcher's note in a game between members (``None``). Not ``learning``: the bot played
    at an easier level, where it may play a move it knows to lose, so it promises nothing."""
    look = look or look_of(TICTACTOE)
    where = look.where(lesson.cell)
    if bot_mark is None:
        told = "mark_wins" if lesson.outcome is WIN else "mark_loses"
    elif lesson.player is bot_mark:
        told = "bot_loses" if lesson.outcome is LOSS else "bot_wins"
        if not learning:
            told += "_known"
    else:
        told = "you_win" if lesson.outcome is WIN else "you_lose"
    return lang.say(look.lessons[told].with_args(where=where, mark=look.mark(lesson.player)))


def lesson_text(turn: Turn, lang: Language = ENGLISH) -> str | None:
    """What the bot learned, in a player's words: its own mistakes first, at most three.
    After a game between members played to the end, it says so even if nothing was new."""
    game = turn.game
    look = look_of(game.kind)
    bot = game.bot_mark if game.vs_bot else None
    if not turn.lessons:
        if not game.vs_bot and game.result in PLAYED_OUT:
            return lang.t("Nothing new: I knew all of that already.")
        return None
    ordered = sorted(turn.lessons, key=lambda ls: (ls.player is not bot, ls.outcome is WIN))
    learning = game.level == "learning"
    lines = [describe_lesson(lesson, bot, look, lang, learning=learning) for lesson in ordered[:3]]
    more = len(turn.lessons) - len(lines)
    if more > 0:
        lines.append(lang.tn("…and {count} more lesson.", "…and {count} more lessons.", more))
    return "\n".join(lines)


def players_text(game: Game) -> str:
    """Who plays which mark in a game between members."""
    look = look_of(game.kind)
    x, o = game.member_playing(Mark.X), game.member_playing(Mark.O)
    return f"{look.mark(Mark.X)} <@{x}> vs {look.mark(Mark.O)} <@{o}>"


def member_status_text(game: Game, lang: Language = ENGLISH) -> str:
    look = look_of(game.kind)
    if game.result == "running":
        mark = game.board.turn
        return lang.t(
            "Your turn, {player} ({mark}): {prompt}.",
            player=mention(game.member_playing(mark)),
            mark=look.mark(mark),
            prompt=look.prompt,
        )
    winner = game.winner_id
    if game.result == "resigned":
        return lang.t(
            "{player} resigned: {winner} wins.",
            player=mention(game.ended_by),
            winner=mention(winner),
        )
    if winner is not None:
        return lang.t(
            "🎉 {winner} ({mark}) wins!",
            winner=mention(winner),
            mark=look.mark(game.mark_of(winner)),
        )
    return lang.t("It's a draw.") if game.result == "draw" else abandoned_text(game, lang)


def abandoned_text(game: Game, lang: Language = ENGLISH) -> str:
    if game.ended_by:
        return lang.t(
            "🛑 Ended by {moderator}, a moderator. Nothing was learned from it.",
            moderator=mention(game.ended_by),
        )
    return lang.t("⌛ Abandoned: no move for a while. Nothing was learned from it.")


def status_text(game: Game, turn: Turn | None = None, lang: Language = ENGLISH) -> str:
    if not game.vs_bot:
        return member_status_text(game, lang)
    player = mention(game.player_id)
    look = look_of(game.kind)
    if game.result == "running":
        your_turn = lang.t(
            "Your turn, {player} ({mark}): {prompt}.",
            player=player,
            mark=look.mark(game.player_mark),
            prompt=look.prompt,
        )
        if turn is not None and turn.bot_cell is not None:
            return sentences([lang.say(look.played(turn.bot_cell)), your_turn], lang)
        return your_turn
    if game.result == "player_won":
        return lang.t("🎉 {player} wins! I'll learn from this.", player=player)
    if game.result == "bot_won":
        return lang.t("I win! Better luck next time, {player}.", player=player)
    if game.result == "draw":
        return lang.t("It's a draw.")
    if game.result == "resigned":
        return lang.t("{player} resigned. I win.", player=player)
    return abandoned_text(game, lang)


def board_embed(turn: Turn, lang: Language = ENGLISH) -> discord.Embed:
    game = turn.game
    look = look_of(game.kind)
    if game.vs_bot:
        you, me = look.mark(game.player_mark), look.mark(game.bot_mark)
        status = status_text(game, turn, lang)
        if not game.running:  # for whoever comes by later: who played whom, by name
            title = (
                None
                if game.level == "learning"
                else lang.t("{level} level", level=LEVEL_NAMES[game.level])
            )
            sides = lang.t(
                "{you} {player} vs me {me}", you=you, player=mention(game.player_id), me=me
            )
            status = f"{sides}\n{status}"
        elif game.level != "learning":  # an easier bot, said on its board
            title = lang.t(
                "{you} you vs me {me} · {level} level",
                you=you,
                me=me,
                level=LEVEL_NAMES[game.level],
            )
        else:
            title = lang.t("{you} you vs me {me}", you=you, me=me)
    else:
        title = None  # the players are named below, where a mention shows a name
        watching = lang.t("{players} · I'm watching", players=players_text(game))
        status = f"{watching}\n{status_text(game, lang=lang)}"
    if game.running and look.buttons_are_board:
        description = status
    else:
        drawn = look.rows(game.code, game.moves[-1] if game.moves else None)
        description = f"{drawn}\n\n{status}"
    embed = discord.Embed(
        title=lang.say(look.title) if title is None else f"{lang.say(look.title)}: {title}",
        description=description,
        colour=COLOURS.get(game.result, NEUTRAL),
    )
    # a game under review: its post-mortem's lesson in a line says it all (the rules'
    # lessons are among what it proves), the details in the replay
    learned = None if turn.reviewing else lesson_text(turn, lang)
    if learned:
        name = lang.t("What I learned") if game.vs_bot else lang.t("I watched and learned")
        embed.add_field(name=name, value=learned, inline=False)
    rated = changes_text(turn.ratings, lang)
    if rated:
        embed.add_field(name=lang.t("Rating"), value=rated, inline=False)
    embed.set_footer(text=memory_footer(turn.memory_size, game, lang))
    return embed


def memory_footer(count: int, game: Game, lang: Language = ENGLISH) -> str:
    """How much the bot knows of this game and board: each has its own memory, so a
    count without its game reads as the bot forgetting between games."""
    title = look_of(game.kind).noun
    if is_own_bot(game.guild_id):
        if not count:
            return lang.t(
                "Your own bot knows nothing of {game} yet: beat it to teach it.", game=title
            )
        return lang.tn(
            "Your own bot knows {count} {game} lesson.",
            "Your own bot knows {count} {game} lessons.",
            count,
            game=title,
        )
    if not count:
        return lang.t("Nothing learned here yet: beat me to teach me.")
    return lang.tn(
        "I know {count} {game} lesson here.",
        "I know {count} {game} lessons here.",
        count,
        game=title,
    )


CELL_CLICK = re.compile(r"ttt:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<cell>[1-9])")


def cell_click(custom_id: str) -> tuple[int, int, int] | None:
    """The game, move count and cell (1..9) a board button names, or ``None``.

    The custom id names the game and the move count, so a click keeps working after a
    restart and a click on an old board is recognised."""
    match = CELL_CLICK.fullmatch(custom_id)
    return None if match is None else (int(match["game"]), int(match["ply"]), int(match["cell"]))


def board_view(
    game: Game, *, frozen: bool = False, lang: Language = ENGLISH, lesson: int | None = None
) -> BoardView:
    """The board's buttons: every game's custom ids are ``ttt:<game>:<ply>:<move 1..>``.
    ``frozen`` disables them all, for a board that is no longer current. A finished board
    drops them (its embed draws the final position) and offers Rematch and Replay; with
    ``lesson`` (the step of the post-mortem's lesson), its Replay opens at that move."""
    prefix = f"ttt:{game.id}:{game.ply}:"
    look = look_of(game.kind)
    over = not game.running and not frozen
    rows = [] if over else look.component_rows(prefix, game.code, frozen or not game.running)
    if over:  # a finished board offers to play again
        rematch = {**REMATCH, "label": lang.t("Rematch"), "custom_id": f"ttt-rematch:{game.id}"}
        # and to watch it again, privately (cogs.replays): a game with moves to show
        replay = {
            **REPLAY,
            "label": lang.t("Replay")
            if lesson is None
            else lang.t("Replay move {move}", move=lesson),
            "custom_id": f"ttt-replay:{game.id}:{lesson or 0}:open",
        }
        rows.append({"type": 1, "components": [rematch, replay] if game.moves else [rematch]})
    return BoardView(rows)


REMATCH = {
    "type": 2,
    "style": discord.ButtonStyle.primary.value,
    "disabled": False,
    "label": "Rematch",  # said in the reader's language by board_view
}
REPLAY = {
    "type": 2,
    "style": discord.ButtonStyle.secondary.value,
    "disabled": False,
    "emoji": {"id": None, "name": "🎞️"},
}

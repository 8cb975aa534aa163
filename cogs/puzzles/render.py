"""A puzzle on its board (:func:`puzzle_embed`, a button per open column), an answer and
why, its solution stepped like a replay, the daily post, and the puzzle records in stats
and on the leaderboard.

Every button names its puzzle, so a puzzle keeps working after a restart:
``ttt-puzzle:<puzzle>:<what><number><how>``, ``what`` being ``c`` (a private puzzle's
column, 1-based), ``d`` (the daily post's column), ``s`` (the solution at a step, ``how``
the button that shows it), ``n`` (the next puzzle), ``r`` (Try again, after a wrong
answer), ``h`` (the puzzle's one hint), ``w`` (why a wrong column does not work: the
column, 1-based, then the step, as ``s``'s) or ``f`` (a short win played on: the member's
columns after the answer, 1-based; see :mod:`cogs.puzzles.followups`).
"""

from __future__ import annotations

import re

import discord

from cogs.utils.boards import BoardView, look_of
from cogs.utils.ratings import puzzle_change_text, puzzle_rating_text, rating_text
from cogs.utils.render import NEUTRAL, step_buttons
from data.daily_puzzles import DailyPuzzle
from data.puzzles import PuzzleRecord, PuzzleStanding
from engine import Mark
from engine.puzzles import LOSS, WIN, Value
from engine.ratings import Rating
from gameflow.puzzles import MEMBERS_GIVE, WON_GIVE, Answered, Posed, Solution
from gameflow.ratings import puzzle_rating_of
from gameflow.words import listed, mention
from i18n import ENGLISH, N_, Language

PUZZLE_CLICK = re.compile(
    r"ttt-puzzle:(?P<puzzle>[0-9]{1,19}):(?P<what>[cdsnrhwf])(?P<number>[0-9]{0,3})"
    r"(?P<how>first|back|next|last|)"
)
RIGHT_COLOUR, WRONG_COLOUR = 0x57F287, 0xED4245
SEEN_MOVES = 8  # past this many moves a win's distance is a claim: "a long win" instead
# the message a daily post says under its board
DAILY_ASK = N_("Pick a column: only you will see whether you were right.")


def _member(member_id: int | None, lang: Language) -> str:
    return mention(member_id) if member_id else lang.t("a former member")


def title_text(puzzle: PuzzleRecord, lang: Language, *, daily: bool = False) -> str:
    """What the puzzle asks: "🔴 to play and win", "🟡: find the only move that holds"."""
    mark = look_of(puzzle.game).mark(_mover(puzzle))
    if puzzle.kind == "win":
        asked = lang.t("{mark} to play and win", mark=mark)
    else:
        asked = lang.t("{mark}: find the only move that holds", mark=mark)
    if daily:
        return lang.t("🧩 Puzzle of the day: {asked}", asked=asked)
    return f"🧩 {asked}"


def _mover(puzzle: PuzzleRecord) -> Mark:
    return Mark.X if len(puzzle.moves) % 2 == 0 else Mark.O


def source_text(puzzle: PuzzleRecord, lang: Language) -> str:
    """Where the puzzle came from, in one line, naming nobody who asked to be forgotten."""
    date = f"<t:{int(puzzle.played_at)}:D>"
    if puzzle.player_id is None:  # the bot was to move, against a member
        against = _member(puzzle.other_id, lang)
        if puzzle.found:
            return lang.t(
                "From a game on {date} against {member}: I found it here.",
                date=date,
                member=against,
            )
        return lang.t(
            "From a game on {date} against {member}: I missed it here.", date=date, member=against
        )
    member = _member(puzzle.player_id, lang)
    if not puzzle.found:
        return lang.t("From a game on {date}: {member} missed it here.", date=date, member=member)
    if puzzle.kind == "win":
        return lang.t(
            "From a game on {date}: {member} found the win here.", date=date, member=member
        )
    return lang.t(
        "From a game on {date}: {member} found the only move that holds here.",
        date=date,
        member=member,
    )


def board_text(puzzle: PuzzleRecord, code: int, last: int | None) -> str:
    """A puzzle's board as emoji, ``last`` the column of the stone to mark."""
    return look_of(puzzle.game).rows(code, last)


def _last(puzzle: PuzzleRecord) -> int | None:
    return puzzle.moves[-1] if puzzle.moves else None


def puzzle_embed(
    posed: Posed,
    lang: Language = ENGLISH,
    *,
    own_bot: bool = False,
    retry: bool = False,
    hinted: bool = False,
) -> discord.Embed:
    """A private puzzle: what it asks, the board, where it came from, its rating."""
    puzzle = posed.puzzle
    lines = [board_text(puzzle, posed.code, _last(puzzle)), "", source_text(puzzle, lang)]
    lines.append(puzzle_rating_text(puzzle_rating_of(puzzle), lang))
    if hinted:
        lines += filter(None, [hint_text(posed, lang), puzzle_change_text(posed.change, lang)])
    elif retry:
        lines.append(lang.t("Try again: only your first answer counts."))
    elif posed.again:
        lines.append(
            lang.t("You have met every puzzle here: this one again, and it does not count twice.")
        )
    embed = discord.Embed(
        title=title_text(puzzle, lang), description="\n".join(lines), colour=NEUTRAL
    )
    embed.set_footer(
        text=lang.t("Puzzles from your own bot's games: {count}", count=posed.count)
        if own_bot
        else lang.t("Puzzles from this server's games: {count}", count=posed.count)
    )
    return embed


def columns_view(
    posed: Posed, what: str, lang: Language = ENGLISH, *, hint: bool = True
) -> BoardView:
    """A button per column (a full column's off): ``what`` ``c`` for a private puzzle,
    ``d`` for the daily post; and the puzzle's hint (once taken, no more)."""
    look = look_of(posed.puzzle.game)
    rows = look.component_rows(f"ttt-puzzle:{posed.puzzle.id}:{what}", posed.code, False)
    if hint:
        button = puzzle_button(f"ttt-puzzle:{posed.puzzle.id}:h", lang.t("Hint"), "💡")
        rows.append({"type": 1, "components": [button]})
    return BoardView(rows)


def hint_text(posed: Posed, lang: Language) -> str:
    """The puzzle's one hint, drawn from its answer: a column the answer is next to."""
    width = look_of(posed.puzzle.game).game.width
    answer = posed.puzzle.answer
    column = answer + 1 if answer + 1 < width else answer - 1
    return lang.t(
        "💡 Hint: look at column {column}'s neighbours. With a hint, this puzzle counts as "
        "not solved.",
        column=column + 1,
    )


def daily_embed(posed: Posed, solved: int, tried: int, lang: Language = ENGLISH) -> discord.Embed:
    """The daily post, with how many solved it so far (and its rating, as it moves)."""
    puzzle = posed.puzzle
    lines = [
        board_text(puzzle, posed.code, _last(puzzle)),
        "",
        source_text(puzzle, lang),
        puzzle_rating_text(puzzle_rating_of(puzzle), lang),
        lang.say(DAILY_ASK),
    ]
    embed = discord.Embed(
        title=title_text(puzzle, lang, daily=True), description="\n".join(lines), colour=NEUTRAL
    )
    embed.set_footer(text=solved_text(solved, tried, lang))
    return embed


def solved_text(solved: int, tried: int, lang: Language) -> str:
    if not tried:
        return lang.t("Nobody has answered yet.")
    return lang.tn(
        "Solved by {count} of {tried} who answered",
        "Solved by {count} of {tried} who answered",
        solved,
        tried=tried,
    )


def your_moves(plies: int) -> int:
    """A winning column's moves by its player, itself included ("wins in 4 moves")."""
    return plies // 2 + 1


def _their_moves(plies: int) -> int:
    """After a losing column, the winner's moves to the end ("forces a win in 3")."""
    return (plies + 1) // 2


def value_text(column: int, value: Value, mover: Mark, game: str, lang: Language) -> str:
    """Why a column is what it is, in one line."""
    look = look_of(game)
    outcome, plies = value
    where = look.where(column)
    if outcome == WIN:
        if plies is None:
            return lang.t("{where} wins.", where=where)
        if your_moves(plies) > SEEN_MOVES:  # a claim nobody checks: Show me proves it
            return lang.t("{where} wins with best play (a long win).", where=where)
        return lang.tn(
            "{where} wins in {count} move.",
            "{where} wins in {count} moves.",
            your_moves(plies),
            where=where,
        )
    if outcome == LOSS:
        if plies is None:
            return lang.t("{where} loses.", where=where)
        if _their_moves(plies) > SEEN_MOVES:
            return lang.t("{where} loses with best play (a long win).", where=where)
        return lang.tn(
            "{where} loses: {mark} then forces a win in {count}.",
            "{where} loses: {mark} then forces a win in {count}.",
            _their_moves(plies),
            where=where,
            mark=look.mark(mover.other),
        )
    return lang.t("{where} draws with best play.", where=where)


def answer_embed(
    answered: Answered, lang: Language = ENGLISH, *, solver: bool = True
) -> discord.Embed:
    """An answer: right or not, why in one line, and the member's puzzle record. A wrong
    one does not give the answer away: Try again, or Show me (without the solver, the
    answer is said)."""
    posed = answered.posed
    puzzle = posed.puzzle
    mover = posed.mover
    look = look_of(puzzle.game)
    rules = look.game
    after = rules.play(posed.code, answered.column)
    given = value_text(answered.column, answered.given, mover, puzzle.game, lang)
    if answered.right:
        verdict = lang.t("✅ Right: {why}", why=given)
        if puzzle.kind == "hold":
            verdict += " " + lang.t("Every other column loses.")
    else:
        verdict = lang.t("❌ Not this one: {why}", why=given)
        if solver:  # Try again before the answer is given away; Show me plays it out
            verdict += "\n" + lang.t("Try again, or see the answer played out with Show me.")
        else:
            right = value_text(puzzle.answer, answered.solution, mover, puzzle.game, lang)
            verdict += "\n" + lang.t("The answer: {why}", why=right)
    lines = [board_text(puzzle, after, answered.column), "", verdict, "", source_text(puzzle, lang)]
    if answered.hinted:
        lines.append(lang.t("You took the hint on this one: it counts as not solved."))
    elif not answered.first:
        lines.append(lang.t("You had answered this one before: only your first answer counts."))
    lines.append(standing_text(answered.standing, lang))
    lines += filter(None, [puzzle_change_text(posed.change, lang)])
    return discord.Embed(
        title=title_text(puzzle, lang),
        description="\n".join(lines),
        colour=RIGHT_COLOUR if answered.right else WRONG_COLOUR,
    )


def standing_text(standing: PuzzleStanding, lang: Language) -> str:
    parts = [
        lang.tn("{count} solved", "{count} solved", standing.solved),
        lang.tn("{count} tried", "{count} tried", standing.tried),
    ]
    if standing.streak:
        parts.append(lang.tn("🔥 {count} in a row", "🔥 {count} in a row", standing.streak))
    return lang.t("Your puzzles: {figures}", figures=listed(parts, lang))


def answer_view(
    puzzle_id: int,
    solver: bool,
    lang: Language,
    puzzle: PuzzleRecord | None = None,
    *,
    right: bool = True,
    wrong: int | None = None,
    play_on: bool = False,
) -> BoardView:
    """Try again (after a wrong answer), Play it to the end (``play_on``: a right answer
    to a short win), Show me (where the solver is installed), the game it came from (its
    replay, opened at the puzzle's move: after the right answer, which the game may show)
    and Next puzzle."""
    buttons = []
    if play_on and right:
        buttons.append(puzzle_button(follow_id(puzzle_id, ()), lang.t("Play it to the end"), "⏩"))
    if not right:
        buttons.append(puzzle_button(f"ttt-puzzle:{puzzle_id}:r", lang.t("Try again"), "↩️"))
    if solver and not right and wrong is not None:  # the column given, and its refutation
        why = lang.t("Why not column {column}?", column=wrong + 1)
        buttons.append(puzzle_button(f"ttt-puzzle:{puzzle_id}:w{wrong + 1}1", why, "❓"))
    if solver:
        buttons.append(puzzle_button(f"ttt-puzzle:{puzzle_id}:s1", lang.t("Show me"), "🔎"))
    if right and puzzle is not None and puzzle.game_id is not None:
        replay = f"ttt-replay:{puzzle.game_id}:{len(puzzle.moves)}:open"
        buttons.append(puzzle_button(replay, lang.t("The game"), "🎞️"))
    buttons.append(puzzle_button(f"ttt-puzzle:{puzzle_id}:n", lang.t("Next puzzle"), "🧩"))
    return BoardView([{"type": 1, "components": buttons}])


def follow_id(puzzle_id: int, columns: tuple[int, ...]) -> str:
    """A short win's step played on: the member's ``columns`` after the answer (0-based)."""
    return f"ttt-puzzle:{puzzle_id}:f" + "".join(str(column + 1) for column in columns)


def puzzle_button(custom_id: str, label: str, emoji: str, *, disabled: bool = False) -> dict:
    """A grey button of a puzzle's message, as the API takes it."""
    return {
        "type": 2,
        "style": discord.ButtonStyle.secondary.value,
        "label": label[:80],
        "emoji": {"id": None, "name": emoji},
        "custom_id": custom_id,
        "disabled": disabled,
    }


def solution_embed(shown: Solution, lang: Language = ENGLISH) -> discord.Embed:
    """The solution at one step: the board, the move that led there, and at the end how
    the game ends."""
    puzzle = shown.posed.puzzle
    look = look_of(puzzle.game)
    total = len(shown.line)
    lines = [board_text(puzzle, shown.code, shown.played), ""]
    if shown.step == 0:
        lines.append(lang.t("The puzzle, before the answer."))
    else:
        mover = shown.posed.mover if shown.step % 2 else shown.posed.mover.other
        lines.append(
            lang.t(
                "**Move {move} of {total}**: {mark} {where}",
                move=shown.step,
                total=total,
                mark=look.mark(mover),
                where=look.where(shown.played),
            )
        )
    if shown.step == total:
        winner = look.game.winner(shown.code)
        lines.append(
            lang.t("{mark} wins.", mark=look.mark(Mark(winner)))
            if winner
            else lang.t("A draw: the board is full.")
        )
    asked = title_text(puzzle, lang).removeprefix("🧩 ")
    return discord.Embed(
        title=lang.t("❓ Why not {where}: {asked}", where=look.where(shown.line[0]), asked=asked)
        if shown.wrong
        else lang.t("🔎 The solution: {asked}", asked=asked),
        description="\n".join(lines),
        colour=NEUTRAL,
    )


def solution_view(shown: Solution, lang: Language = ENGLISH) -> BoardView:
    """⏮ ◀ ▶ ⏭ over the solution (those going nowhere are off), and Next puzzle."""
    puzzle_id = shown.posed.puzzle.id
    prefix = (
        f"ttt-puzzle:{puzzle_id}:w{shown.line[0] + 1}"
        if shown.wrong
        else (f"ttt-puzzle:{puzzle_id}:s")
    )
    buttons = step_buttons(shown.step, len(shown.line), lambda step, how: f"{prefix}{step}{how}")
    buttons.append(
        puzzle_button(f"ttt-puzzle:{shown.posed.puzzle.id}:n", lang.t("Next puzzle"), "🧩")
    )
    return BoardView([{"type": 1, "components": buttons}])


def daily_field(daily: DailyPuzzle | None, lang: Language) -> dict[str, str]:
    """The daily puzzle in a server's settings: its channel, or off."""
    channel = daily.channel_id if daily is not None else None
    return {
        "name": lang.t("🧩 Daily puzzle"),
        "value": lang.t("Off: the `daily_puzzle` option names a channel to post one in every day.")
        if channel is None
        else lang.t(
            "In {channel}, every day (`no_daily_puzzle` stops it)", channel=f"<#{channel}>"
        ),
    }


def too_few_text(have: int, games: int, own_bot: bool, lang: Language) -> str:
    """Why there is no puzzle yet, about how many more games it takes (and what a game
    gives), and how to give them."""
    first = (
        lang.tn(
            "Your own bot has {count} puzzle so far: not enough to pose them yet.",
            "Your own bot has {count} puzzles so far: not enough to pose them yet.",
            have,
        )
        if own_bot
        else lang.tn(
            "This server has {count} puzzle so far: not enough to pose them yet.",
            "This server has {count} puzzles so far: not enough to pose them yet.",
            have,
        )
    )
    return "\n".join(
        [
            first,
            lang.tn(
                "I cut them from the 7×6 games I look back at, and need about {count} more "
                "such game.",
                "I cut them from the 7×6 games I look back at, and need about {count} more "
                "such games.",
                games,
            ),
            lang.t(
                "Ten games that strong players win against me give about {won} puzzles; ten "
                "games between members, about {members}.",
                won=WON_GIVE,
                members=MEMBERS_GIVE,
            ),
            lang.t(
                "Beat me or draw with me with `/connect4 play` (I look back at every 7×6 game "
                "I do not win), or play each other with `/connect4 challenge` (I look back at "
                "those too)."
            ),
        ]
    )


def records_field(
    member_id: int,
    member: PuzzleStanding,
    server: PuzzleStanding,
    count: int,
    today: int,
    lang: Language,
    rating: Rating | None = None,
) -> tuple[str, str]:
    """The puzzles' line in stats: the member's record (and puzzle rating) and the
    server's."""
    yours = [
        lang.tn("{count} solved", "{count} solved", member.solved),
        lang.tn("{count} tried", "{count} tried", member.tried),
    ]
    if member.streak:  # no streak: nothing said of one
        yours.append(lang.tn("🔥 {count} in a row", "🔥 {count} in a row", member.streak))
    if rating is not None:
        yours.append(lang.t("puzzle rating {rating}", rating=rating_text(rating, lang)))
    days = server.current_days(today)
    here = [
        lang.tn("{count} puzzle", "{count} puzzles", count),
        lang.tn("{count} solved", "{count} solved", server.solved),
        lang.tn("{count} tried", "{count} tried", server.tried),
    ]
    if days:
        here.append(lang.tn("🔥 {count} day in a row", "🔥 {count} days in a row", days))
    yours, here = listed(yours, lang), listed(here, lang)
    return (
        lang.t("🧩 Puzzles"),
        "\n".join(
            [
                lang.t("{member}: {figures}", member=mention(member_id), figures=yours),
                lang.t("Here: {figures}", figures=here),
            ]
        ),
    )


def puzzle_leaderboard_embed(
    top: list[tuple[int, PuzzleStanding]],
    own: PuzzleStanding,
    asker_id: int,
    server: str,
    lang: Language = ENGLISH,
) -> discord.Embed:
    """The members who solved most puzzles, and the asker's own line if not among them."""
    lines = [
        lang.tn(
            "{rank}. {member}: {count} solved ({tried} tried)",
            "{rank}. {member}: {count} solved ({tried} tried)",
            standing.solved,
            rank=rank,
            member=mention(member_id),
            tried=standing.tried,
        )
        for rank, (member_id, standing) in enumerate(top, 1)
    ]
    if not lines:
        lines.append(lang.t("Nobody has solved a puzzle here yet: `/connect4 puzzle` gives one."))
    if all(member_id != asker_id for member_id, _ in top):
        lines += [
            "",
            lang.tn(
                "You: {count} solved ({tried} tried)",
                "You: {count} solved ({tried} tried)",
                own.solved,
                tried=own.tried,
            ),
        ]
    embed = discord.Embed(
        title=lang.t("🧩 Puzzle solvers in {server}", server=server),
        description="\n".join(lines),
        colour=NEUTRAL,
    )
    embed.set_footer(text=lang.t("Only a member's first answer to each puzzle counts."))
    return embed


__all__ = [
    "PUZZLE_CLICK",
    "answer_embed",
    "answer_view",
    "columns_view",
    "daily_embed",
    "puzzle_embed",
    "puzzle_leaderboard_embed",
    "records_field",
    "solution_embed",
    "solution_view",
    "source_text",
    "too_few_text",
]

"""Finished games watched again, move by move, and a member's history of them. No Discord.

A replay is read from the store at every step, so a game deleted meanwhile (forget-me, a
server's erasure) is gone at the next click, and a step works the same after a restart:
the step's number is all it needs. The lessons a game taught are the facts stored with
its id (see :meth:`data.Store.finished_game`); each is placed at the move it is about: the
move played there, or on the classic board another column of the same position, valued
by the post-mortem.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import engine
from data import FinishedGame, PastGame, Store
from engine import LOSS, WIN, Board, Mark, Outcome
from i18n import N_

from .errors import GameError
from .game import Game
from .memories import ServerMemories, known_in

# a memory's fact of a position's key, as ``(outcome, plies or None)`` (see known_in)
Known = Callable[[int], tuple[str, int | None] | None]

GONE = N_(
    "That game is gone: its player asked me to forget their games, or this server's data "
    "was deleted."
)
NOT_HERE = N_("That game was played somewhere else: its replay opens only there.")


@dataclass(frozen=True, slots=True)
class Learned:
    """What the bot learned about one move: it wins or loses for whoever made it
    (``mover``), in ``plies`` more moves under perfect play when the solver proved it."""

    move: int
    mover: Mark
    outcome: Outcome
    plies: int | None = None


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One position of a replay: ``step`` 0 is the empty board, ``step`` n the board right
    after move n; ``lesson`` what the bot learned about that move, ``others`` what it
    learned about the other moves it could have been (the classic board's post-mortem);
    ``taught`` every step with a lesson, to find them."""

    game: Game
    ended_at: float
    step: int
    lesson: Learned | None
    others: tuple[Learned, ...]
    taught: tuple[int, ...]
    marked: int | None = None  # the move (0-based) a shared picture rings, if any taught
    # at each step of ``taught``: what the move played there does for its player (``None``:
    # only the other moves of that position taught something)
    verdicts: tuple[Outcome | None, ...] = ()

    @property
    def total(self) -> int:
        """The game's number of moves: the last step."""
        return len(self.game.moves)

    @property
    def board(self) -> Board:
        return Board.from_moves(self.game.moves[: self.step], game=self.game.kind)

    @property
    def played(self) -> int | None:
        """The move that led here (``None`` at the start)."""
        return self.game.moves[self.step - 1] if self.step else None

    @property
    def mover(self) -> Mark:
        """Who played the move that led here; at the start, who moves first."""
        return Mark.O if self.step and self.step % 2 == 0 else Mark.X


def known_facts(
    kind: str, facts: Sequence[tuple[str | int, str, int | None]]
) -> dict[int, tuple[str, int | None]]:
    """A game's stored facts by their canonical key: ``(outcome, plies)`` (the classic
    board's come as keys already, the others as positions)."""
    rules = engine.get_game(kind)

    def key_of(position: str | int) -> int:
        if type(position) is int:
            return position
        return rules.key(rules.parse(position, checked=False))

    return {key_of(position): (o, p) for position, o, p in facts}


def lessons_by_step(
    kind: str, moves: Sequence[int], facts: Sequence[tuple[str | int, str, int | None]]
) -> dict[int, tuple[Learned | None, tuple[Learned, ...]]]:
    """Each step (1 to len(moves)) that taught something: the lesson about the move played
    there, and those about the other moves of the same position, by column or cell.

    Facts are stored up to symmetry, so each is matched by its canonical key to the
    positions one move after each position of the game."""
    rules = engine.get_game(kind)
    known = known_facts(kind, facts)
    if not known:
        return {}
    found = {}
    before = rules.empty
    for step, played in enumerate(moves, 1):
        mover = Mark(rules.turn(before))
        after = rules.play(before, played)
        played_key = rules.key(after)
        lesson, others, seen = None, [], set()
        for move, _child, key in rules.moves(before) or ():
            if key not in known or key in seen:  # a symmetric twin says the same
                continue
            seen.add(key)
            outcome, plies = known[key]
            learned = Learned(
                played if key == played_key else move,
                mover,
                WIN if outcome == "win" else LOSS,
                plies,
            )
            if key == played_key:
                lesson = learned
            else:
                others.append(learned)
        if lesson is not None or others:
            found[step] = (lesson, tuple(sorted(others, key=lambda learned: learned.move)))
        before = after
    return found


class Replays:
    """A member's history in a place, and a finished game's replay, step by step."""

    def __init__(self, store: Store, memories: ServerMemories) -> None:
        self.store = store
        self.memories = memories

    async def history(self, place: int, member_id: int, games: Sequence[str]) -> list[PastGame]:
        """The member's last finished games in ``place`` (a server, or a player's own bot),
        newest first, of ``games`` (engine names)."""
        return await self.store.recent_games(place, member_id, games)

    async def step(self, game_id: int, step: int, place: int, channel_id: int | None) -> ReplayStep:
        """A finished game at ``step`` (held to 0..its moves), for someone in ``place``
        (a server's members, or a player's own bot) or in the game's own channel. Raises
        :class:`GameError` if the game is gone, or was played elsewhere."""
        finished = await self.store.finished_game(game_id)
        if finished is None:
            raise GameError(GONE)
        record = finished.game
        if record.guild_id != place and record.channel_id != channel_id:
            raise GameError(NOT_HERE)
        return await self.at(finished, step)

    async def at(self, finished: FinishedGame, step: int) -> ReplayStep:
        """:func:`replay_step`, a classic board's game against the bot with its server's
        memory: the lesson's move needs every fact of the game's positions, not only the
        ones this game was first to teach."""
        game = Game.from_record(finished.game)
        known = None
        if game.rules.classic and game.vs_bot:
            known = known_in(await self.memories.get(finished.game.guild_id, game.kind))
        return replay_step(finished, step, known)


def replay_step(finished: FinishedGame, step: int, known: Known | None = None) -> ReplayStep:
    """A stored game at ``step`` (held to 0..its moves), with its lessons placed
    (``known``: see :func:`marked_move`)."""
    game = Game.from_record(finished.game)
    step = max(0, min(step, len(game.moves)))
    lessons = lessons_by_step(game.kind, game.moves, finished.facts)
    lesson, others = lessons.get(step, (None, ()))
    taught = tuple(sorted(lessons))
    return ReplayStep(
        game,
        finished.ended_at,
        step,
        lesson,
        others,
        taught,
        marked_move(game, lessons, finished.facts, known),
        tuple(None if lessons[t][0] is None else lessons[t][0].outcome for t in taught),
    )


def marked_move(
    game: Game,
    lessons: dict[int, tuple[Learned | None, tuple[Learned, ...]]],
    facts: Sequence[tuple[str | int, str, int | None]] = (),
    known: Known | None = None,
) -> int | None:
    """The one move a game's picture marks (0-based): on the classic board, the move its
    post-mortem names (the one the final board's lesson is about; none when the bot
    played every move as well as it could); else the bot's own losing move, what it
    learned most from; else the first move played that taught it something; else the
    first position whose other moves did. ``known``: the server's memory, which holds
    the game's proven facts that an earlier game taught first (``facts`` are only the
    ones this game taught; a column missing from them would pass for a draw)."""
    if game.rules.classic and game.vs_bot:
        # the post-mortem's facts carry their distance; the rules' own have none
        taught = known_facts(game.kind, facts).items()
        proven = {k: (k, o, p) for k, (o, p) in taught if p is not None}
        if proven:  # looked back: its lesson's move, or none if it played every move well
            for key, fact in _position_facts(game, known) if known else ():
                proven.setdefault(key, (key, *fact))
            verdict = engine.describe_post_mortem(
                game.kind, list(game.moves), list(proven.values()), game.bot_mark
            )
            return None if verdict is None else verdict.ply
    steps = sorted(lessons)
    played = [step for step in steps if lessons[step][0] is not None]
    own = [
        step
        for step in played
        if game.vs_bot
        and lessons[step][0].mover is game.bot_mark
        and lessons[step][0].outcome is LOSS
    ]
    chosen = (own or played or steps or [None])[0]
    return None if chosen is None else chosen - 1


def _position_facts(game: Game, known: Known) -> list[tuple[int, tuple[str, int]]]:
    """The proven facts (with their plies) of every column of the game's positions."""
    rules = game.rules
    befores = [rules.empty, *rules.replay(game.moves)[:-1]]
    found = []
    for before in befores:
        for _move, _child, key in rules.moves(before) or ():
            fact = known(key)
            if fact is not None and fact[1] is not None:
                found.append((key, fact))
    return found

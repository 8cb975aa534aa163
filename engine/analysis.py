"""Can the bot's current policy still be beaten? For reporting only, never for choosing.

The bot is deterministic, so against it a game is fixed by the opponent's moves alone.
The search branches over every opponent move and follows the bot's single choice;
results are memoised per position, since the policy depends on the position only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .games import Game, Mark, get_game
from .memory import Memory
from .policy import choose_child

Policy = Callable[[int], int]  # position code -> move


def _searchable(game: Game) -> None:
    """Refuse a board whose tree of games is too large to search (the classic 7×6): no
    count of the ways to beat the bot exists there."""
    if not game.searchable:
        raise ValueError(
            f"{game.title} is too large to search every way to beat the bot; "
            "there is no such count on this board"
        )


@dataclass(frozen=True, slots=True)
class Vulnerability:
    """How a policy fares in one role against every possible opponent."""

    role: Mark
    losing_lines: int  # distinct opponent move sequences that beat the bot

    @property
    def beatable(self) -> bool:
        return self.losing_lines > 0


def _line_counter(
    game: Game, policy: Policy | Callable[[int], int | None], role: Mark, *, table: bool = True
) -> Callable[[int], int]:
    """A memoised count of the opponent lines that beat the bot playing ``role`` from a
    position on. With ``table``, ``policy`` is a key's value in the bot's facts (the bot's
    own policy, the fast path); otherwise any function from a position code to a move.

    Written for speed: a point of the learning curve runs it at the end of every game
    that teaches the bot something. Refuses the classic board (``ValueError``).
    """
    _searchable(game)
    memo: dict[int, int] = {}
    memo_get = memo.get
    moves_of, winner = game.moves, game.winner
    opponent = int(role.other)
    me = int(role)
    if table:
        known = policy

        def choice(code: int) -> int:
            return choose_child(game, known, code)[1]
    else:

        def choice(code: int) -> int:
            return game.play(code, policy(code))

    # who is to move is carried down the walk (it alternates), not worked out per position
    def lines(code: int, mover: int) -> int:
        result = memo_get(code)
        if result is not None:
            return result
        moves = moves_of(code)
        if moves is None:  # over: did the opponent win?
            result = 1 if winner(code) == opponent else 0
        elif mover == me:
            result = lines(choice(code), 3 - mover)
        else:
            result = 0
            for move in moves:
                result += lines(move[1], 3 - mover)
        memo[code] = result
        return result

    return lambda code: lines(code, game.turn(code))


def count_losing_lines(policy: Policy, role: Mark, game: str | Game = "tictactoe") -> int:
    """How many distinct opponent lines beat ``policy`` playing ``role``."""
    game = get_game(game)
    return _line_counter(game, policy, role, table=False)(game.empty)


def winning_replies(
    policy: Policy, role: Mark, code: int, game: str | Game = "tictactoe"
) -> list[int]:
    """The opponent's moves in ``code`` that keep a forced win against ``policy``."""
    game = get_game(game)
    lines = _line_counter(game, policy, role, table=False)
    return [move for move, child, _key in game.moves(code) or () if lines(child)]


def analyse(memory: Memory, role: Mark) -> Vulnerability:
    """Whether the bot, playing ``role`` with this memory, can still be beaten, and how often."""
    game = memory.game
    # a memory that keeps only what it knows answers each lookup by a binary search; a
    # dict of its facts, made once, answers the walk's thousands in C (Connect Four 4x4:
    # 2.3 instead of 4.2 ms; tic-tac-toe's table is as fast as it is)
    known = memory.known if game.slots is not None else dict(memory.items()).get
    return Vulnerability(role, _line_counter(game, known, role)(game.empty))


class LiveAnalysis:
    """The ways to beat a memory's policy as X and as O, kept up to date as it learns.

    A full :func:`analyse` walks the whole tree of the bot's games (about 0.2 ms a role
    in tic-tac-toe). This keeps that walk's results and, when facts are learned, redoes
    only what they can change: a new fact changes the bot's choice at most in the
    positions one move before it (in any orientation), and a changed choice changes the
    count of those positions and of their ancestors alone. Every other position's count
    is reused. A change it was not told of (an import, a training's merge, a clear and a
    refill) is noticed by the memory's change counter, and the next count starts afresh.
    Results equal :func:`analyse` always (tested).
    """

    __slots__ = ("_changes", "_roles", "memory")

    def __init__(self, memory: Memory) -> None:
        _searchable(memory.game)
        self.memory = memory
        self._changes = memory.changes
        # per role: counts by position, the bot's choice at its own decision positions,
        # and each position's parents in the walk (to drop the ancestors of a change)
        self._roles: dict[Mark, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}

    def losing_lines(self, role: Mark) -> int:
        if self.memory.changes != self._changes:  # changed behind our back: start afresh
            self._roles.clear()
            self._changes = self.memory.changes
        if role not in self._roles:
            self._roles[role] = ({}, {}, {})
        return self._count(role, self.memory.game.empty)

    def over(self, memory: Memory) -> LiveAnalysis:
        """These counts, now kept for ``memory``: a memory with the same facts as this
        one's (the original of a copy that was counted elsewhere)."""
        self.memory = memory
        self._changes = memory.changes
        return self

    def learned(self, positions: Iterable[str]) -> None:
        """Tell it the positions (after a move) of the facts just learned."""
        positions = list(positions)
        memory = self.memory
        game, known = memory.game, memory.known
        if memory.changes != self._changes + len(positions):  # more changed than it was told
            self._roles.clear()
        self._changes = memory.changes
        bits = game.code_bits + 1
        for position in positions:
            for variant in game.orientations(game.parse(position)):
                for before in game.parents(variant):
                    for memo, choices, parents in self._roles.values():
                        chosen = choices.get(before)
                        if chosen is not None and chosen != choose_child(game, known, before)[1]:
                            _drop(before, memo, choices, parents, bits)

    def _count(self, role: Mark, root: int) -> int:
        memo, choices, parents = self._roles[role]
        memory = self.memory
        game, known = memory.game, memory.known
        moves_of, winner = game.moves, game.winner
        opponent = int(role.other)
        me = int(role)
        bits = game.code_bits + 1

        def link(child: int, parent: int) -> None:
            packed = parents.get(child)
            if packed is None:
                parents[child] = parent + 1
            elif parent not in _unpack(packed, bits):
                parents[child] = packed << bits | parent + 1

        def lines(code: int, mover: int) -> int:
            result = memo.get(code)
            if result is not None:
                return result
            moves = moves_of(code)
            if moves is None:
                result = 1 if winner(code) == opponent else 0
            elif mover == me:
                choices[code] = child = choose_child(game, known, code)[1]
                link(child, code)
                result = lines(child, 3 - mover)
            else:
                result = 0
                for move in moves:
                    link(move[1], code)
                    result += lines(move[1], 3 - mover)
            memo[code] = result
            return result

        return lines(root, game.turn(root))


# A position's parents in the walk, packed into one int (code + 1 in ``bits`` bits each, so
# that a code of 0 is not lost), so the tables hold ints only and the garbage collector
# never has to look at them.


def _unpack(packed: int, bits: int) -> list[int]:
    mask = (1 << bits) - 1
    codes = []
    while packed:
        codes.append((packed & mask) - 1)
        packed >>= bits
    return codes


def _drop(code: int, memo: dict, choices: dict, parents: dict, bits: int) -> None:
    """Forget the counts of ``code`` and of every position above it in the walk."""
    stack = [code]
    choices.pop(code, None)
    while stack:
        current = stack.pop()
        if memo.pop(current, None) is None and current != code:
            continue  # already dropped, and its ancestors with it
        stack.extend(_unpack(parents.get(current, 0), bits))

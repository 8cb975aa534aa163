"""Moving a memory between bots as a JSON document (seed 000's "memory dump").

{"format": "ttt-memory", "version": 1,
 "facts": [{"position": "XO..X....", "outcome": "win"}, ...]}

That is tic-tac-toe's document. Any other game's names its game and board, and writes
positions as its game does (Connect Four: width × height characters, row by row from
the top):

{"format": "ttt-memory", "version": 1, "game": "connect4", "board": "4x4", "facts": [...]}

A document is accepted only if every fact proves itself from the document's own facts by
the learning rules (see :func:`engine.memory.prove`). Every memory this engine learns or
exports does; a forged or mistaken fact does not, and would otherwise make a trained bot
beatable again.
"""

from __future__ import annotations

import json
from typing import Any

from .games import GAMES, Game, get_game
from .memory import LOST, OUTCOMES, Memory, Outcome, prove

FORMAT = "ttt-memory"
VERSION = 1


class MemoryFormatError(ValueError):
    """A document that is not a valid memory; the message names the bad entry."""


def export_memory(memory: Memory) -> dict[str, Any]:
    game = memory.game
    document: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if game.name != "tictactoe":  # tic-tac-toe's documents stay as they always were
        document["game"] = game.document_game
        document["board"] = game.board
    document["facts"] = [{"position": f.position, "outcome": f.outcome.value} for f in memory]
    return document


def document_game(document: dict[str, Any]) -> Game:
    """The game a document's ``"game"`` and ``"board"`` name (tic-tac-toe if neither)."""
    name = document.get("game", "tictactoe")
    board = document.get("board", "3x3" if name == "tictactoe" else None)
    for candidate in GAMES:
        game = get_game(candidate)
        if (game.document_game, game.board) == (name, board):
            return game
    raise MemoryFormatError(
        f'unknown "game" {name!r} on "board" {board!r}: this bot reads tictactoe (3x3) '
        "and connect4 (4x4 or 5x4)"
    )


def import_memory(document: dict[str, Any] | str | bytes, game: str | Game | None = None) -> Memory:
    """Build a memory from a document (a dict or its JSON text). With ``game``, the document
    must be of that game.

    Raises :class:`MemoryFormatError` naming the first bad entry; nothing is built then.
    """
    if isinstance(document, (str, bytes, bytearray)):
        try:
            document = json.loads(document)
        except RecursionError:
            raise MemoryFormatError("not a memory: its JSON is nested too deeply") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise MemoryFormatError(f"not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise MemoryFormatError("a memory document must be a JSON object")
    if document.get("format") != FORMAT:
        raise MemoryFormatError(f'"format" must be "{FORMAT}", got {document.get("format")!r}')
    version = document.get("version")
    if version != VERSION or isinstance(version, bool):
        raise MemoryFormatError(f"unknown version {version!r}; this bot reads version {VERSION}")
    found = document_game(document)
    if game is not None and get_game(game) is not found:
        raise MemoryFormatError(f"this is a {found.title} memory, not a {get_game(game).title} one")
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise MemoryFormatError('"facts" must be a list')
    # each entry is read once, here: what is proven below is exactly what is stored
    entries = []
    for index, entry in enumerate(list(facts)):
        where = f"facts[{index}]"
        if not isinstance(entry, dict):
            raise MemoryFormatError(
                f'{where} must be an object with exactly "position" and "outcome"'
            )
        entry = dict(entry)
        if set(entry) != {"position", "outcome"}:
            raise MemoryFormatError(
                f'{where} must be an object with exactly "position" and "outcome"'
            )
        position, outcome = entry["position"], entry["outcome"]
        if outcome not in ("win", "loss"):
            raise MemoryFormatError(f'{where}: outcome must be "win" or "loss", got {outcome!r}')
        entries.append((where, position, outcome))
    memory = Memory(game=found)
    codes = []
    for where, position, outcome in entries:
        try:
            code = found.parse(position)
            memory.add_code(code, outcome, position)
        except ValueError as exc:
            raise MemoryFormatError(f"{where}: {exc}") from None
        codes.append(code)
    for (where, position, _), code in zip(entries, codes, strict=True):
        gap = _unproven(memory, code, position)
        if gap:
            raise MemoryFormatError(f"{where}: {gap}")
    return memory


def _unproven(memory: Memory, code: int, position: str) -> str | None:
    """Why the fact about ``position`` does not follow from ``memory``, or ``None`` if it does."""
    game, known = memory.game, memory.known
    claimed = OUTCOMES[known(game.key(code))]
    if prove(game, known, code) is claimed:
        return None
    if claimed is Outcome.LOSS:
        why = "no reply to it is a known win"
    else:
        open_reply = next(child for _, child, key in game.moves(code) if known(key) != LOST)
        why = f"the reply that gives {game.spell(open_reply)!r} is not a known loss"
    return (
        f"position {position!r} as a {claimed.value} is not proven by the document's own "
        f"facts ({why})"
    )

"""Moving a memory between bots as a JSON document (seed 000's "memory dump").

{"format": "ttt-memory", "version": 1,
 "facts": [{"position": "XO..X....", "outcome": "win"}, ...]}

A document is accepted only if every fact proves itself from the document's own facts by
the learning rules (see :func:`engine.memory.prove`). Every memory this engine learns or
exports does; a forged or mistaken fact does not, and would otherwise make a trained bot
beatable again.
"""

from __future__ import annotations

import json
from typing import Any

from .memory import LOST, OUTCOMES, Memory, Outcome, prove, read
from .rules import MOVES, code_to_string, string_to_code

FORMAT = "ttt-memory"
VERSION = 1


class MemoryFormatError(ValueError):
    """A document that is not a valid memory; the message names the bad entry."""


def export_memory(memory: Memory) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "facts": [{"position": f.position, "outcome": f.outcome.value} for f in memory],
    }


def import_memory(document: dict[str, Any] | str | bytes) -> Memory:
    """Build a memory from a document (a dict or its JSON text).

    Raises :class:`MemoryFormatError` naming the first bad entry; nothing is built then.
    """
    if isinstance(document, (str, bytes, bytearray)):
        try:
            document = json.loads(document)
        except (ValueError, UnicodeDecodeError) as exc:
            raise MemoryFormatError(f"not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise MemoryFormatError("a memory document must be a JSON object")
    if document.get("format") != FORMAT:
        raise MemoryFormatError(f'"format" must be "{FORMAT}", got {document.get("format")!r}')
    version = document.get("version")
    if version != VERSION or isinstance(version, bool):
        raise MemoryFormatError(f"unknown version {version!r}; this bot reads version {VERSION}")
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise MemoryFormatError('"facts" must be a list')
    memory = Memory()
    for index, entry in enumerate(facts):
        where = f"facts[{index}]"
        if not isinstance(entry, dict) or set(entry) != {"position", "outcome"}:
            raise MemoryFormatError(
                f'{where} must be an object with exactly "position" and "outcome"'
            )
        position, outcome = entry["position"], entry["outcome"]
        if outcome not in ("win", "loss"):
            raise MemoryFormatError(f'{where}: outcome must be "win" or "loss", got {outcome!r}')
        try:
            memory.add(position, outcome)
        except ValueError as exc:
            raise MemoryFormatError(f"{where}: {exc}") from None
    for index, entry in enumerate(facts):
        gap = _unproven(memory, entry["position"])
        if gap:
            raise MemoryFormatError(f"facts[{index}]: {gap}")
    return memory


def _unproven(memory: Memory, position: str) -> str | None:
    """Why the fact about ``position`` does not follow from ``memory``, or ``None`` if it does."""
    table = memory._table
    code = string_to_code(position)
    claimed = OUTCOMES[read(table, code)]
    if prove(table, code) is claimed:
        return None
    if claimed is Outcome.LOSS:
        why = "no reply to it is a known win"
    else:
        open_reply = next(child for _, child, _, _ in MOVES[code] if read(table, child) != LOST)
        why = f"the reply that gives {code_to_string(open_reply)!r} is not a known loss"
    return (
        f"position {position!r} as a {claimed.value} is not proven by the document's own "
        f"facts ({why})"
    )

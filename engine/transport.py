"""Moving a memory between bots as a JSON document (seed 000's "memory dump").

{"format": "ttt-memory", "version": 1,
 "facts": [{"position": "XO..X....", "outcome": "win"}, ...]}
"""

from __future__ import annotations

import json
from typing import Any

from .memory import Memory

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
    return memory

"""How a memory keeps its facts: a value of 0 (unknown), 1 (WON) or 2 (LOST) per key.

* :class:`DenseTable`: 2 bits for every key a fact can be about, for a game with few
  positions up to symmetry (tic-tac-toe: 761 keys, 191 bytes).
* :class:`SparseTable`: only the facts known, as one sorted array of ``key << 1 | bit``
  (4 bytes a fact for keys below 2**31: :func:`sparse_typecode`), for a game with too
  many positions to table (Connect Four: 80,540 on 4×4, about 2 million on 5×4, while
  a server knows thousands). A lookup is a binary search in C; a new fact, a memmove.

* :class:`DistanceTable`: the classic board's (Connect Four 7×6), whose facts also carry
  the plies to the end under perfect play: one sorted array of 8-byte entries
  ``key << 7 | outcome bit << 6 | plies`` (a 49-bit key; plies 0..42, or 63 when only
  the outcome is proven, by the rules), so 8 bytes a fact. A store keeps the same
  entries, big-endian, in runs (:func:`stored_entries`).

All keep their data in one flat buffer (a bytearray, an array), which Python's garbage
collector does not track, so a cache can hold many, and :meth:`over` wraps one again.
"""

from __future__ import annotations

import heapq
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator

# how many of a byte's four 2-bit values hold a fact
_FACTS_IN_BYTE = bytes(sum(1 for shift in (0, 2, 4, 6) if b >> shift & 3) for b in range(256))


class DenseTable:
    __slots__ = ("data", "slots")

    def __init__(self, slots: int, data: bytearray | None = None) -> None:
        size = (slots + 3) // 4
        if data is not None and len(data) != size:
            raise ValueError(f"a memory table is {size} bytes, not {len(data)}")
        self.slots = slots
        self.data = bytearray(size) if data is None else data

    def get(self, key: int) -> int:
        return self.data[key >> 2] >> ((key & 3) << 1) & 3

    def set(self, key: int, value: int) -> None:
        self.data[key >> 2] |= value << ((key & 3) << 1)

    def count(self) -> int:
        return sum(self.data.translate(_FACTS_IN_BYTE))

    def items(self, keys) -> Iterator[tuple[int, int]]:
        """``(key, value)`` of every fact, in the order of ``keys`` (all the game's)."""
        data = self.data
        for key in keys:
            value = data[key >> 2] >> ((key & 3) << 1) & 3
            if value:
                yield key, value

    def clear(self) -> None:
        self.data[:] = bytes(len(self.data))  # in place: others may share the buffer

    def copy(self) -> DenseTable:
        return DenseTable(self.slots, bytearray(self.data))

    @property
    def nbytes(self) -> int:
        return len(self.data)


class SparseTable:
    __slots__ = ("data",)

    def __init__(self, typecode: str, data: array | None = None) -> None:
        if data is not None and data.typecode != typecode:
            raise ValueError(f"this memory is an array of {typecode!r}, not {data.typecode!r}")
        self.data = array(typecode) if data is None else data

    def get(self, key: int, _bisect=bisect_left) -> int:
        data = self.data
        i = _bisect(data, key << 1)
        if i < len(data):
            entry = data[i]
            if entry >> 1 == key:
                return (entry & 1) + 1
        return 0

    def set(self, key: int, value: int) -> None:
        """Record ``value`` for a key not known yet."""
        entry = key << 1
        self.data.insert(bisect_left(self.data, entry), entry | (value - 1))

    def count(self) -> int:
        return len(self.data)

    def items(self, keys=None) -> Iterator[tuple[int, int]]:
        for entry in self.data:
            yield entry >> 1, (entry & 1) + 1

    def clear(self) -> None:
        del self.data[:]

    def copy(self) -> SparseTable:
        return SparseTable(self.data.typecode, array(self.data.typecode, self.data))

    @property
    def nbytes(self) -> int:
        return len(self.data) * self.data.itemsize


def sparse_typecode(key_bits: int) -> str:
    """The narrowest array type that holds ``key << 1 | bit`` (4 bytes up to 31-bit keys)."""
    return "I" if key_bits < 32 and array("I").itemsize == 4 else "Q"


def sparse_data(typecode: str, entries: dict[int, int]) -> array:
    """A sparse table's data from ``{key: value}`` at once (sorting once, not inserting)."""
    return array(typecode, sorted(key << 1 | (value - 1) for key, value in entries.items()))


NO_DISTANCE = 63  # a fact proven by the rules: its outcome is known, not its plies to the end
_DISTANCE_SHIFT = 7


class DistanceTable:
    """A sparse table whose facts carry distances (see the module's docstring)."""

    __slots__ = ("data",)

    def __init__(self, data: array | None = None) -> None:
        if data is not None and data.typecode != "Q":
            raise ValueError(f"this memory is an array of 'Q', not {data.typecode!r}")
        self.data = array("Q") if data is None else data

    def _find(self, key: int, _bisect=bisect_left) -> int:
        """The entry of ``key``, or -1."""
        data = self.data
        i = _bisect(data, key << _DISTANCE_SHIFT)
        if i < len(data):
            entry = data[i]
            if entry >> _DISTANCE_SHIFT == key:
                return entry
        return -1

    def get(self, key: int) -> int:
        entry = self._find(key)
        return 0 if entry < 0 else (entry >> 6 & 1) + 1

    def distance(self, key: int) -> int | None:
        """The plies to the end of a known fact, ``None`` if unknown (or no fact)."""
        entry = self._find(key)
        return None if entry < 0 or entry & 63 == NO_DISTANCE else entry & 63

    def set(self, key: int, value: int, distance: int | None = None) -> None:
        """Record ``value`` for a key not known yet, with its plies if proven."""
        entry = _entry(key, value, distance)
        self.data.insert(bisect_left(self.data, entry), entry)

    def set_distance(self, key: int, distance: int) -> None:
        """Give a known fact proven by the rules alone its plies (same outcome)."""
        data = self.data
        i = bisect_left(data, key << _DISTANCE_SHIFT)
        data[i] = data[i] & ~63 | distance

    def merge(self, entries: dict[int, tuple[int, int | None]]) -> None:
        """Record many new facts at once (``{key: (value, distance)}``, keys not known):
        one pass of slices copied in C instead of a memmove each, and no Python int per
        known fact (a sort of them all held the GIL and left garbage behind)."""
        if len(entries) < 16:
            for key, (value, distance) in entries.items():
                self.set(key, value, distance)
            return
        data, merged, start = self.data, array("Q"), 0
        for entry in sorted(_entry(key, v, d) for key, (v, d) in entries.items()):
            at = bisect_left(data, entry, start)
            merged += data[start:at]
            merged.append(entry)
            start = at
        merged += data[start:]
        self.data[:] = merged  # in place: others may share the buffer

    def distance_count(self) -> int:
        """How many facts carry their plies, counted in C: each entry's lowest byte ends
        in its plies, and 63 plies means none."""
        low = memoryview(self.data).cast("B")[_LOW_BYTE :: self.data.itemsize].tobytes()
        return len(low) - low.translate(_WITHOUT_PLIES).count(1)

    @classmethod
    def from_stored(cls, runs: list[bytes]) -> DistanceTable:
        """A table from stored runs of entries (:func:`stored_entries`' layout, each run in
        key order, a key perhaps in several: the entry with its plies is kept), taken off the
        list as they are read. Each run is sorted on its own (a batch's new facts and the
        plies it gave known ones are each in order, not together), then they are merged:
        no call holds the GIL long (a sort of 200,000 ints in one call held it 30-50 ms),
        so it can run in a thread while the bot's loop keeps going, and no big list of ints
        is made, whose freed memory the process kept (4 bytes a fact of RSS on memories of
        44,000: ``python -m bench.scale --classic``). Its peak is about twice the table,
        once."""
        total = sum(len(run) for run in runs) // 8
        sorted_runs = []
        while runs:
            run = array("Q")
            run.frombytes(runs.pop())
            if sys.byteorder == "little":
                run.byteswap()
            sorted_runs.append(array("Q", sorted(run)))
        table = array("Q", (0,)) * total  # written in place: no growth, no copies
        size, last = 0, -1
        for entry in heapq.merge(*sorted_runs):
            key = entry >> _DISTANCE_SHIFT
            if key != last:  # the same key again: the first one has its plies if any does
                table[size] = entry
                size += 1
                last = key
        del sorted_runs, table[size:]
        return cls(table)

    def count(self) -> int:
        return len(self.data)

    def items(self, keys=None) -> Iterator[tuple[int, int]]:
        for entry in self.data:
            yield entry >> _DISTANCE_SHIFT, (entry >> 6 & 1) + 1

    def distances(self) -> Iterator[tuple[int, int, int | None]]:
        """``(key, value, plies or None)`` of every fact, in key order."""
        for entry in self.data:
            plies = entry & 63
            yield (
                entry >> _DISTANCE_SHIFT,
                (entry >> 6 & 1) + 1,
                None if plies == NO_DISTANCE else plies,
            )

    def clear(self) -> None:
        del self.data[:]

    def copy(self) -> DistanceTable:
        return DistanceTable(array("Q", self.data))

    @property
    def nbytes(self) -> int:
        return len(self.data) * self.data.itemsize


_LOW_BYTE = 0 if sys.byteorder == "little" else 7
# by an entry's lowest byte: 1 if it says "no plies"
_WITHOUT_PLIES = bytes(int(b & NO_DISTANCE == NO_DISTANCE) for b in range(256))


def _big_endian(data: array) -> bytes:
    if sys.byteorder == "big":
        return data.tobytes()
    swapped = array(data.typecode, data)
    swapped.byteswap()
    return swapped.tobytes()


def stored_entries(facts: Iterable[tuple[int, int, int | None]]) -> bytes:
    """``(key, value, plies or None)`` facts in a store's layout: 8-byte big-endian
    entries, in key order."""
    return _big_endian(array("Q", sorted(_entry(*fact) for fact in facts)))


def _entry(key: int, value: int, distance: int | None) -> int:
    plies = NO_DISTANCE if distance is None else distance
    return key << _DISTANCE_SHIFT | (value - 1) << 6 | plies

"""The classic board's learned ordering (issue 43): a small model of Connect Four 7×6,
trained on a memory's proven facts, that orders the columns the bot's policy would
otherwise try from the centre out.

The model is a logistic regression over the board's 69 windows of four cells (across,
up, and the two diagonals). Each window's content, read from the side of the player who
has just moved (empty, theirs = the mover's, the opponent's), is one of 81 features, and a
window shares its weights with its mirror image (read in the mirrored order), so the
model is the same for a position and its mirror: 36 window classes × 81 contents. It
predicts whether the move that made a position wins for its mover: a fact's outcome.

The bot's kind (:data:`BOT_KIND`, ``"blend-sides"``) has one such table for each side of
the player who moved, so that it can tell the first player's threats from the second's
(in Connect Four a threat's row counts differently for each), and a bias for each side:
5,834 weights, an ``array('d')`` of 46 KB. It starts from a fixed evaluation, which
counts open windows (+1, +4, +16 for 1, 2 or 3 of the mover's stones and none of the
other's, the same negative for the other's, scaled), and the server's lessons correct it.

Its kinds, for the benchmark's comparison (``bench.learning --game connect4-7x6``):
``"learned"`` (one table for both sides, from nothing: 2,918 weights), ``"fixed"`` (the
evaluation alone, never trained), ``"blend"`` (one table, from the evaluation),
``"learned-sides"`` and ``"blend-sides"``.

It is never a fact: the policy (:func:`engine.policy.choose_classic`) asks it only to
order the columns that the facts and its one-move rules leave open (not known to lose, no
four for the opponent on top), and it is never stored or exported. One memory always
gives one model (:meth:`BoardModel.fit`, from a fixed seed); after a game that taught
something, :meth:`BoardModel.refit` takes a few steps on the new facts and twice as many
older ones.

Prediction is plain Python on bitboards (tens of microseconds a move); fitting uses
numpy (about 10 MB of RSS once per process, imported with the engine).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterable, Sequence
from math import exp

# imported with the engine, before any event loop runs: numpy's import holds the GIL about
# 40 ms, which in a thread beside a running loop stalls it (python -m bench.loop --model)
import numpy

WIDTH, HEIGHT, BITS = 7, 6, 7  # the classic board, as engine.connect4 lays out its bits
SEED = 43  # every fit's dice: one memory, one model
KINDS = ("learned", "fixed", "blend", "learned-sides", "blend-sides")
BOT_KIND = "blend-sides"  # the bot's (the others: the benchmark's comparisons)


def _windows() -> tuple[list[list[int]], list[int]]:
    """Every window as its 4 cells' bits in reading order, and its class: a window and its
    mirror image share a class, the mirror read in the mirrored order."""
    found = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(4)]
                if all(0 <= x < WIDTH and 0 <= y < HEIGHT for x, y in cells):
                    found.append(cells)
    by_set = {frozenset(cells): n for n, cells in enumerate(found)}
    reading: list[list[tuple[int, int]] | None] = [None] * len(found)
    classes = [-1] * len(found)
    count = 0
    for n, cells in enumerate(found):
        if classes[n] >= 0:
            continue
        classes[n], reading[n] = count, cells
        mirrored = [(WIDTH - 1 - x, y) for x, y in cells]
        m = by_set[frozenset(mirrored)]
        if m != n:
            classes[m], reading[m] = count, mirrored
        count += 1
    return [[x * BITS + y for x, y in cells] for cells in reading], classes


WINDOWS, CLASSES = _windows()
CLASS_COUNT = max(CLASSES) + 1  # 36
BIAS = CLASS_COUNT * 81  # then a bias for a first player's move, and one for a second's
SIZE = BIAS + 2  # 2,918 weights
POW3 = (1, 3, 9, 27)


def _gather_table(reverse: bool) -> array:
    """A window's content (0..80) by its 4 bits of the mover's stones and 4 of the
    opponent's in bit order (``mine | theirs << 4``), read forwards or backwards."""
    table = array("B", bytes(256))
    for mine in range(16):
        for theirs in range(16):
            if mine & theirs:
                continue
            index = 0
            for i in range(4):
                bit = 3 - i if reverse else i
                index += POW3[i] * ((mine >> bit & 1) + 2 * (theirs >> bit & 1))
            table[mine | theirs << 4] = index
    return table


_TABLES = (_gather_table(False), _gather_table(True))


def _gatherer(bits: list[int]) -> tuple[int, int, int, int, array]:
    """How to read a window's 4 bits from a bitboard with one shift, mask and multiply:
    ``(board >> low & mask) * magic >> out & 15`` gives them in bit order (the product's
    terms never overlap: see the tests)."""
    ordered = sorted(bits)
    low, stride = ordered[0], ordered[1] - ordered[0]
    mask = sum(1 << i * stride for i in range(4))
    magic = sum(1 << j * (stride - 1) for j in range(4)) if stride > 1 else 1
    out = 3 * (stride - 1) if stride > 1 else 0
    return low, mask, magic, out, _TABLES[bits[0] > bits[-1]]


# per window: (low, mask, magic, out, table, offset of its class's weights)
_GATHER = tuple((*_gatherer(bits), CLASSES[n] * 81) for n, bits in enumerate(WINDOWS))
# per cell's bit: the windows through it, each with the cell's place value (1 = mover's)
_THROUGH: dict[int, tuple[tuple, ...]] = {}
for _n, _bits in enumerate(WINDOWS):
    for _i, _bit in enumerate(_bits):
        _THROUGH.setdefault(_bit, ())
        _THROUGH[_bit] += ((*_GATHER[_n], POW3[_i]),)


def fixed_weights(sides: bool = False) -> array:
    """The hand-written evaluation: for the mover, +1, +4, +16 a window holding 1, 2 or 3
    of its stones and none of the opponent's; the opponent's the same, negative (scaled
    so a three is worth about a logit of 0.8)."""
    weights = array("d", bytes(8 * size_of(sides)))
    value = (0.0, 0.05, 0.2, 0.8, 0.0)
    for content in range(81):
        digits = [content // POW3[i] % 3 for i in range(4)]
        mine, theirs = digits.count(1), digits.count(2)
        score = value[mine] if not theirs else -value[theirs] if not mine else 0.0
        for k in range(CLASS_COUNT * (2 if sides else 1)):
            weights[k * 81 + content] = score
    return weights


def size_of(sides: bool) -> int:
    """How many weights a model has: one table of windows, or one for each side of the
    player who moved (``-sides``, an experiment of the benchmark: 5,834 weights)."""
    return BIAS * 2 + 2 if sides else SIZE


class BoardModel:
    """A model of the classic board (see the module's docstring): ``kind`` one of
    :data:`KINDS` (the bot's: :data:`BOT_KIND`); ``trained_on``, how many proven
    positions its fit from scratch and its refits have learned from."""

    __slots__ = ("kind", "second", "trained_on", "weights")

    def __init__(self, kind: str = BOT_KIND, weights: array | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"a board model is one of {KINDS}, not {kind!r}")
        self.kind = kind
        sides = kind.endswith("-sides")
        self.weights = (
            weights
            if weights is not None
            else fixed_weights(sides)
            if not kind.startswith("learned")
            else array("d", bytes(8 * size_of(sides)))
        )
        self.trained_on = 0
        self.second = BIAS if sides else 0  # where the second player's tables start

    @property
    def active(self) -> bool:
        """Whether it orders the open columns: the fixed evaluation always; a learned one
        once it has learned from a proven fact (before that the bot plays from the centre
        out, as on its first day: "my lessons" must be lessons)."""
        return self.kind == "fixed" or self.trained_on > 0

    @property
    def nbytes(self) -> int:
        return len(self.weights) * self.weights.itemsize

    # --- prediction (plain Python, the hot path) -------------------------------------------
    def gains(
        self, mine: int, theirs: int, cells: Sequence[tuple[int, int]], first: bool = True
    ) -> list[float]:
        """For each ``(column, bit)`` of ``cells`` (where a stone of the player to move
        would land), how much the model's score of the position after it exceeds the
        others': only the windows through that cell differ. ``mine`` and ``theirs``: the
        stones of the player to move and of the other, as bitboards; ``first``: whether
        that player moved first."""
        w = self.weights
        side = 0 if first else self.second
        found = []
        for _column, bit in cells:
            gain = 0.0
            for low, mask, magic, out, table, offset, place in _THROUGH[bit]:
                at = (
                    side
                    + offset
                    + table[
                        ((mine >> low & mask) * magic >> out & 15)
                        | ((theirs >> low & mask) * magic >> out & 15) << 4
                    ]
                )
                gain += w[at + place] - w[at]
            found.append(gain)
        return found

    def score(self, mine: int, theirs: int, first: bool) -> float:
        """The model's logit that the last move (whose player's stones are ``mine``) wins
        for its player; ``first``: that player moved first."""
        w = self.weights
        side = 0 if first else self.second
        bias = len(w) - 2
        total = w[bias] if first else w[bias + 1]
        for low, mask, magic, out, table, offset in _GATHER:
            total += w[
                side
                + offset
                + table[
                    ((mine >> low & mask) * magic >> out & 15)
                    | ((theirs >> low & mask) * magic >> out & 15) << 4
                ]
            ]
        return total

    # --- fitting (numpy) ---------------------------------------------------------------
    @classmethod
    def fit(
        cls,
        facts: Iterable[tuple[int, int]] | None = None,
        *,
        kind: str = BOT_KIND,
        keys=None,
        values=None,
        epochs: int | None = None,
        seed: int = SEED,
    ) -> BoardModel:
        """A model fitted from scratch on proven facts, ``(key, value)`` (value 1 a win for
        the mover, 2 a loss: :meth:`engine.Memory.items`), or on ``keys`` and ``values``
        as arrays, ``epochs`` times over them (by default 5, fewer past 80,000 facts: about
        400,000 steps in all, at least one pass). Deterministic: the same facts in the same
        order give the same weights."""
        model = cls(kind)
        if kind == "fixed":  # never trained
            return model
        np = _numpy()
        if keys is None:
            pairs = list(facts or ())
            keys = np.fromiter((k for k, _v in pairs), dtype=np.uint64, count=len(pairs))
            values = np.fromiter((v for _k, v in pairs), dtype=np.uint8, count=len(pairs))
        keys, values = np.asarray(keys, dtype=np.uint64), np.asarray(values)
        if epochs is None:
            epochs = max(1, min(EPOCHS, round(STEPS / max(1, len(keys)))))
        if len(keys):
            rng = np.random.default_rng(seed)
            weights = np.frombuffer(model.weights, dtype=np.float64).copy()
            _sgd(np, weights, keys, values == 1, rng, epochs, rate=RATE)
            model.weights = array("d", weights.tobytes())
        model.trained_on = len(keys)
        return model

    def refit(self, new, older, *, seed: int = SEED) -> BoardModel:
        """This model after a game that taught something: a few steps over its new facts
        and the ``older`` ones (each ``(keys, values)`` arrays or lists; the caller picks
        about twice as many older ones as new, see :func:`older_sample`). Returns a new
        model (this one is left as it is: others may be reading it)."""
        if self.kind == "fixed":
            return self
        np = _numpy()
        keys = np.concatenate([np.asarray(new[0], np.uint64), np.asarray(older[0], np.uint64)])
        values = np.concatenate([np.asarray(new[1]), np.asarray(older[1])])
        model = BoardModel(self.kind, self.weights)
        model.trained_on = self.trained_on + len(new[0])
        if len(keys):
            weights = np.frombuffer(self.weights, dtype=np.float64).copy()
            rng = np.random.default_rng(seed + self.trained_on)
            _sgd(np, weights, keys, values == 1, rng, REFIT_PASSES, rate=RATE)
            model.weights = array("d", weights.tobytes())
        return model


RATE = 0.1
EPOCHS, STEPS = 5, 400_000  # a fit from scratch: passes over the facts, at most
REFIT_PASSES = 3
BATCH = 256
L2 = 1e-6
CHUNK = 4_096  # positions decoded at once: each numpy step is short (the GIL's turns)


def _numpy():
    return numpy


def features(np, keys, sides: bool = False):
    """Each key's 69 window contents as indexes into the weights (``n × 70``: the windows,
    then the bias of its mover's side), from canonical 49-bit codes
    (:meth:`engine.connect4.ConnectFour.key`): each column's 7 bits read through a table,
    then every window's four cells at once, weighed by their place values (a product of
    matrices was slower: BLAS's threads cost more than such small products)."""
    tables = _decoding(np)
    keys = np.asarray(keys, dtype=np.uint64)
    n = len(keys)
    cells = np.empty((n, WIDTH * HEIGHT), dtype=np.uint8)  # 0 empty, 1 first player, 2 second
    count = np.zeros(n, dtype=np.int64)
    for c in range(WIDTH):
        field = ((keys >> np.uint64(c * BITS)) & np.uint64(127)).astype(np.intp)
        cells[:, c * HEIGHT : (c + 1) * HEIGHT] = tables["cells"][field]
        count += tables["heights"][field]
    first = count % 2 == 1  # the first player made the last move
    cells[~first] = tables["swap"][cells[~first]]  # as the mover's (1) and the other's (2)
    index = np.empty((n, len(WINDOWS) + 1), dtype=np.int64)
    read = cells[:, tables["read"]]  # n × 69 windows × 4 cells, in each window's order
    index[:, :-1] = read[:, :, 0] + 3 * read[:, :, 1].astype(np.int16)
    index[:, :-1] += 9 * read[:, :, 2].astype(np.int16) + 27 * read[:, :, 3].astype(np.int16)
    index[:, :-1] += tables["offsets"]
    if sides:
        index[:, :-1] += np.where(first, 0, BIAS)[:, None]
    bias = 2 * BIAS if sides else BIAS
    index[:, -1] = np.where(first, bias, bias + 1)
    return index, first


_DECODING: dict = {}


def _decoding(np) -> dict:
    """The tables of :func:`features`, made once."""
    if not _DECODING:
        cells = np.zeros((128, HEIGHT), dtype=np.uint8)
        heights = np.zeros(128, dtype=np.int64)
        for field in range(1, 128):
            height = field.bit_length() - 1
            if height > HEIGHT:
                continue
            heights[field] = height
            for r in range(height):
                cells[field, r] = 1 if field >> r & 1 else 2
        read = np.array([[bit // BITS * HEIGHT + bit % BITS for bit in bits] for bits in WINDOWS])
        offsets = np.array([k * 81 for k in CLASSES], dtype=np.int64)
        swap = np.array([0, 2, 1], dtype=np.uint8)
        _DECODING.update(cells=cells, heights=heights, read=read, offsets=offsets, swap=swap)
    return _DECODING


def _sgd(np, weights, keys, wins, rng, passes: int, rate: float) -> None:
    """Mini-batch gradient steps of the logistic loss, ``passes`` times over the facts in
    an order ``rng`` shuffles. In place, on ``weights``."""
    n = len(keys)
    targets = wins.astype(np.float64)
    width = len(WINDOWS) + 1
    for _ in range(passes):
        order = rng.permutation(n)
        for start in range(0, n, CHUNK):
            chunk = order[start : start + CHUNK]
            index, _first = features(np, keys[chunk], len(weights) > SIZE)
            y = targets[chunk]
            for b in range(0, len(chunk), BATCH):
                rows = index[b : b + BATCH]
                logits = weights[rows].sum(axis=1)
                error = 1.0 / (1.0 + np.exp(-logits)) - y[b : b + BATCH]
                flat = rows.ravel()
                grad = np.bincount(flat, weights=np.repeat(error, width), minlength=len(weights))
                seen = np.bincount(flat, minlength=len(weights))  # each weight's own mean error
                weights -= rate * (grad / np.maximum(seen, 1) + L2 * weights)


def fit_memory(memory, kind: str = BOT_KIND, *, seed: int = SEED) -> BoardModel:
    """A model fitted from scratch on every fact of a classic memory (its table read as
    it is: in key order, so one memory gives one model)."""
    if not memory.game.classic:
        raise ValueError(f"{memory.game.title} has no board model")
    if kind == "fixed":
        return BoardModel("fixed")
    np = _numpy()
    entries = np.array(memory.table, dtype=np.uint64)  # a copy: the table may grow meanwhile
    keys = entries >> np.uint64(7)
    values = ((entries >> np.uint64(6)) & np.uint64(1)).astype(np.uint8) + 1
    return BoardModel.fit(keys=keys, values=values, kind=kind, seed=seed)


def refit_memory(model: BoardModel, memory, new_keys: Sequence[int]) -> BoardModel:
    """``model`` after ``memory`` learned the facts of ``new_keys`` (canonical keys now
    known): a few steps over them and about twice as many older facts, picked at random
    by a seed that follows the model's count of facts (so one history, one model)."""
    if model.kind == "fixed" or not new_keys:
        return model
    known, data = memory.known, memory.table
    values = [known(key) for key in new_keys]
    rng = random.Random(SEED + model.trained_on)
    count = min(len(data), 2 * len(new_keys))
    picks = [data[rng.randrange(len(data))] for _ in range(count)]
    older = ([e >> 7 for e in picks], [(e >> 6 & 1) + 1 for e in picks])
    return model.refit((list(new_keys), values), older)


def probability(logit: float) -> float:
    return 1.0 / (1.0 + exp(-logit))

"""Puzzles' costs: ``python -m bench.bot --only-puzzles`` (or ``python -m bench.puzzles``)

* **posing a puzzle** (``/connect4 puzzle``'s game flow and its embed) on a server with
  200,000 7×6 facts and thousands of puzzles: p50, p99 and max, and the longest event-loop
  stall meanwhile (a task that sleeps 2 ms at a time, and how late it wakes, with the CPU
  its process ran during that stall); half the members asking have an established puzzle
  rating (between 1,200 and 2,000), so are posed the puzzles nearest it, and their posing
  is timed apart too; **answering** (checked, counted, both ratings moved);
* **Show me**: a puzzle's solution played out in the solver's worker process, end to end
  (the first one of a new worker includes loading its book, so the worker is warmed first);
* **playing a short win on**: each click of a member playing it to its end, in the
  solver's worker (one call a click);
* **the other boards** (``python -m bench.puzzles --minis``): how many puzzles their
  memories alone would prove, which is why they have none;
* **how many puzzles a game gives**: of the 7×6 games the bot looks back at, against a
  weak player (the bot from an empty memory, its opponent winning, blocking and otherwise
  playing a perfect move half the time), and between two such players; and how many
  positions one reply away from those games would be puzzles (they are left out).

The server's facts are the real post-mortems of the games played here, topped up to
200,000 with facts about random positions (their values are made up: they cost what real
facts cost to store, load and search, and no puzzle's columns are among them). The
puzzles are the real ones cut from those games, each also stored again under other keys,
so that posing searches thousands of rows as a busy server's would.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import engine
from bench._common import StallProbe, percentile
from data import Store
from data.puzzles import NewPuzzle
from data.ratings import PUZZLES
from engine import Mark, Memory, solver
from engine.policy import choose_code
from engine.postmortem import post_mortem
from engine.puzzles import classify, column_values, cuts_of_game, studied_plies
from gameflow import GameService
from gameflow.game import Game
from gameflow.memories import known_in
from gameflow.postmortem import PostMortemWorker
from gameflow.puzzle_cuts import cut_game
from gameflow.puzzles import Puzzles

CLASSIC = "connect4-7x6"
RULES = engine.get_game(CLASSIC)
GUILD = 1


def weak_move(rng: random.Random, code: int) -> int:
    """Wins, blocks, else a perfect move half the time and a random one otherwise."""
    turn = RULES.turn(code)
    four = RULES.fours(code, turn) or RULES.fours(code, 3 - turn)
    if four:
        return four[0]
    if rng.random() < 0.5:
        return rng.choice(solver.best_columns(code))
    return rng.choice([move for move, _, _ in RULES.moves(code)])


def play(rng: random.Random, bot: Mark | None) -> list[int]:
    """A game of the weak player against the bot (its memory empty) playing ``bot``, or
    of two weak players (``bot`` None)."""
    memory, code, moves = Memory(game=CLASSIC), RULES.empty, []
    while RULES.moves(code) is not None:
        own = bot is not None and RULES.turn(code) == int(bot)
        move = choose_code(memory, code) if own else weak_move(rng, code)
        moves.append(move)
        code = RULES.play(code, move)
    return moves


def strong_move(rng: random.Random, code: int) -> int:
    """A member who plays the solver's moves (one of the best columns, at random)."""
    return rng.choice(solver.best_columns(code))


def won_by_members(games: int, seed: int) -> dict:
    """``games`` games that members playing the solver's moves won against the bot (from
    an empty memory; the members take each side in turn): the puzzles each gives (the
    bot's positions, and the member's own, valued from the bot's replies), and what its
    post-mortem costs in the worker (the in-process solver, as the worker runs it)."""
    rng = random.Random(seed)
    found, costs, tries = [], [], 0
    while len(found) < games:
        tries += 1
        mark = Mark.O if tries % 2 else Mark.X  # the bot's side
        memory, code, moves = Memory(game=CLASSIC), RULES.empty, []
        while RULES.moves(code) is not None:
            own = RULES.turn(code) == int(mark)
            move = choose_code(memory, code) if own else strong_move(rng, code)
            moves.append(move)
            code = RULES.play(code, move)
        if RULES.winner(code) != int(mark.other):
            continue  # a draw, or the bot won: not a game a member won
        started = time.perf_counter()
        facts = post_mortem(CLASSIC, moves, mark)
        costs.append(time.perf_counter() - started)
        known = {key: (outcome, plies) for key, outcome, plies in facts}
        studied = studied_plies(CLASSIC, moves, mark)
        members = [ply for ply in range(len(moves)) if ply not in set(studied)]
        cuts = cuts_of_game(
            CLASSIC, moves, studied, known.get, absent_is_draw=True, replied=members
        )
        own = [cut for cut in cuts if cut.ply in set(members)]
        found.append((moves, mark, facts, cuts, 0, len(own)))
    return {
        "games": games,
        "tries": tries,
        "puzzles": sum(len(g[3]) for g in found),
        "members": sum(g[5] for g in found),
        "p50": percentile(costs, 0.5),
        "p99": percentile(costs, 0.99),
        "max": max(costs) * 1000,
        "found": [g[:5] for g in found],
    }


def looked_back(games: int, bot: bool, seed: int) -> tuple[int, list[tuple]]:
    """``games`` games the bot looks back at (it did not win them), and their puzzles and
    facts: how many were looked back at, and ``(moves, mark, facts, cuts, near)`` of each
    (``near``: :func:`one_reply_away`)."""
    rng = random.Random(seed)
    found, tries = [], 0
    while len(found) < games:
        tries += 1
        mark = (Mark.X if tries % 2 else Mark.O) if bot else None
        moves = play(rng, mark)
        if mark is not None and RULES.winner(RULES.replay(moves)[-1]) == int(mark):
            continue  # the bot won: nothing is looked back at
        facts = post_mortem(CLASSIC, moves, mark)
        known = {key: (outcome, plies) for key, outcome, plies in facts}
        studied = studied_plies(CLASSIC, moves, mark)
        members = [p for p in range(len(moves)) if p not in set(studied)] if mark else []
        cuts = cuts_of_game(
            CLASSIC, moves, studied, known.get, absent_is_draw=True, replied=members
        )
        found.append((moves, mark, facts, cuts, one_reply_away(moves, mark, known)))
    return games, found


def one_reply_away(moves: list[int], bot: Mark | None, known: dict) -> int:
    """How many positions one reply of the bot's opponent (of either member) away from a
    game would be puzzles by their proven columns: the widened post-mortem valued every
    column there, so a column without a fact is a draw. They are not puzzles (no member
    reached them: engine.puzzles); counted to show what leaving them out costs."""
    codes = [RULES.empty, *RULES.replay(moves)]
    replying = range(len(moves)) if bot is None else range(1 if bot is Mark.X else 0, len(moves), 2)
    count = 0
    for ply in replying:
        for column, child, _key in RULES.moves(codes[ply]):
            if column == moves[ply] or RULES.moves(child) is None:
                continue
            draws = sum(1 << c for c, _child, key in RULES.moves(child) if key not in known)
            values = column_values(RULES, child, known.get, draws)
            count += classify(values) is not None
    return count


def padding(count: int, taken: set[int], seed: int) -> list[tuple[str, str, int]]:
    """Facts about random positions (made-up values) none of whose keys is ``taken``."""
    rng = random.Random(seed)
    made, seen = [], set(taken)
    while len(made) < count:
        code = RULES.empty
        for _ in range(rng.randrange(4, 36)):
            moves = RULES.moves(code)
            if moves is None:
                break
            _move, child, key = rng.choice(moves)
            code = child
            if key not in seen:
                seen.add(key)
                made.append((RULES.spell(code), rng.choice(("win", "loss")), rng.randrange(43)))
    return made[:count]


async def stored_games(store: Store, games: list[tuple], copies: int) -> int:
    """Each game stored ``copies`` times as finished and looked back at; how many."""
    stored = 0
    for copy in range(copies):
        for n, (moves, mark, *_rest) in enumerate(games):
            channel = 1000 + copy * len(games) + n
            bot = (mark or Mark.O).name
            record = await store.start_game(
                GUILD, channel, 100, bot, [], now=1.0, game=CLASSIC,
                opponent_id=None if mark is not None else 200,
            )  # fmt: skip
            result = "player_won" if RULES.winner(RULES.replay(moves)[-1]) else "draw"
            if mark is None and result == "player_won" and len(moves) % 2 == 0:
                result = "opponent_won"
            await store.finish_game(
                record.id, GUILD, [], moves, result, now=2.0, game=CLASSIC, review=True
            )
            await store.finish_review(record.id, GUILD, [], now=3.0, game=CLASSIC)
            stored += 1
    return stored


def longest_cut(games: list[tuple], memory: Memory) -> float:
    """The CPU of the longest step of the catch-up on the loop's thread: one game's cut,
    as :meth:`gameflow.puzzles.Puzzles.catch_up` makes it (its facts read from the
    server's memory, a member's positions only where every reply is proven), in ms."""
    known, longest = known_in(memory), 0.0
    for n, (moves, mark, *_rest) in enumerate(games):
        started = time.thread_time()
        cut_game(
            CLASSIC, n, tuple(moves), mark, lambda side, bot=mark: None if side is bot else 100,
            "player_won", 1.0, known, absent_is_draw=True, members_absent_is_draw=False,
        )  # fmt: skip
        longest = max(longest, time.thread_time() - started)
    return longest * 1000


async def posing_costs(
    games: list[tuple], facts_wanted: int, copies: int, asks: int, seed: int, old_copies: int = 10
) -> dict:
    """Posing puzzles on a server of ``facts_wanted`` facts (see the module's docstring)."""
    from bot import freeze_start_up_objects
    from cogs.puzzles.render import answer_embed, columns_view, puzzle_embed
    from gameflow.memories import classic_facts
    from i18n import ENGLISH

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        real = {}
        for _moves, _mark, facts, *_rest in games:
            real.update({key: (outcome, plies, position) for key, outcome, plies, position in (
                (k, o, p, RULES.spell(RULES.key_code(k))) for k, o, p in facts
            )})  # fmt: skip
        taken = set(real)
        for moves, _mark, _facts, cuts, _near in games:  # every column of every puzzle
            codes = [RULES.empty, *RULES.replay(moves)]
            for cut in cuts:
                taken.update(key for _m, _c, key in RULES.moves(codes[cut.ply]))
        rows = [(position, outcome, plies) for outcome, plies, position in real.values()]
        rows += padding(facts_wanted - len(rows), taken, seed)
        await store.add_facts(GUILD, classic_facts(CLASSIC, rows), game=CLASSIC, now=1.0)
        service = GameService(store, timeout_seconds=3600, clock=time.time)
        puzzles = Puzzles(store, service.memories, PostMortemWorker(available=False), time.time)
        for n, (moves, mark, facts, *_rest) in enumerate(games, 1):
            record = Game(
                id=n,
                guild_id=GUILD,
                channel_id=10,
                player_id=100,
                bot_mark=mark or Mark.O,
                moves=tuple(moves),
                result="player_won" if mark is not None else "draw",
                message_id=None,
                updated_at=float(n),
                opponent_id=None if mark is not None else 200,
                kind=CLASSIC,
            )
            await puzzles.cut(record, facts)
        originals = await store.fresh_puzzles(GUILD, CLASSIC, 0, 10_000)
        for copy in range(1, copies):  # the same puzzles again, as many more rows
            await store.add_puzzles(
                GUILD,
                CLASSIC,
                [
                    NewPuzzle(
                        key=(copy << 50) + p.id,
                        moves=p.moves,
                        kind=p.kind,
                        answer=p.answer,
                        draws=p.draws,
                        game_id=None,
                        player_id=p.player_id,
                        other_id=p.other_id,
                        found=p.found,
                        beat_bot=p.beat_bot,
                        played_at=p.played_at + copy,
                        plies=p.plies,
                    )
                    for p in originals
                ],
            )
        total = await store.count_puzzles(GUILD, CLASSIC)
        memory = await service.memories.get(GUILD, CLASSIC)  # loaded once, as a busy bot has it
        freeze_start_up_objects()
        # the games looked back at before puzzles existed, gone through once (an upgrade)
        old = await stored_games(store, games, old_copies)
        with StallProbe() as probe:
            probe.take()
            started = time.perf_counter()
            await puzzles.catch_up(GUILD)
            caught_up = time.perf_counter() - started
            catch_up_stall = probe.take_with_cpu()
        catch_up_step = longest_cut(games, memory)
        puzzle_embed(await puzzles.pose(GUILD, 1), ENGLISH).to_dict()  # the first words said
        rng = random.Random(seed)
        members = asks // 4
        established = {2 + m for m in range(0, members, 2)}  # half: posed near their rating
        await store._write(
            [
                (
                    "INSERT INTO ratings (guild_id, board, player_id, mu, sigma)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (GUILD, PUZZLES, m, rng.randrange(120000, 200000), 8000),
                )
                for m in sorted(established)
            ]
        )
        timings, answers, held, near = [], [], 0.0, []
        with StallProbe() as probe:
            probe.take()
            for _ in range(asks):
                member = 2 + rng.randrange(members)  # most members pose a few, some many
                started, cpu = time.perf_counter(), time.thread_time()
                posed = await puzzles.pose(GUILD, member)
                puzzle_embed(posed, ENGLISH).to_dict()
                columns_view(posed, "c").to_components()
                timings.append(time.perf_counter() - started)
                if member in established:
                    near.append(timings[-1])
                held = max(held, time.thread_time() - cpu)
                await asyncio.sleep(0)
                started = time.perf_counter()  # the member's answer, checked and counted
                column = posed.puzzle.answer if rng.random() < 0.6 else min(posed.values)
                answer_embed(await puzzles.answer(GUILD, member, posed.puzzle.id, column))
                answers.append(time.perf_counter() - started)
                await asyncio.sleep(0)
            stall = probe.take_with_cpu()
        facts_held = len(memory)
        await store.close()
    return {
        "old": old,
        "caught_up": caught_up,
        "catch_up_stall": catch_up_stall,
        "catch_up_step": catch_up_step,
        "facts": facts_held,
        "puzzles": total,
        "p50": percentile(timings, 0.5),
        "p99": percentile(timings, 0.99),
        "max": max(timings) * 1000,
        "near_p50": percentile(near, 0.5),
        "near_p99": percentile(near, 0.99),
        "answer_p50": percentile(answers, 0.5),
        "answer_p99": percentile(answers, 0.99),
        "stall": stall,
        "held": held * 1000,
        "asks": asks,
    }


async def show_me_costs(games: list[tuple]) -> dict:
    """Each real puzzle's solution played out in the solver's worker, end to end."""
    worker = PostMortemWorker()
    cuts = [
        (moves[: cut.ply], cut.answer)
        for moves, _mark, _facts, found, _near in games
        for cut in found
    ]
    timings, lengths = [], []
    try:
        await worker.forced_line(CLASSIC, (), 3)  # the worker and its book, once
        for moves, answer in cuts:
            started = time.perf_counter()
            line = await worker.forced_line(CLASSIC, tuple(moves), answer)
            timings.append(time.perf_counter() - started)
            lengths.append(len(line))
    finally:
        worker.close()
    return {
        "count": len(timings),
        "p50": percentile(timings, 0.5),
        "p99": percentile(timings, 0.99),
        "max": max(timings) * 1000,
        "plies": sum(lengths) / len(lengths),
    }


async def follow_up_costs(games: list[tuple]) -> dict:
    """Each real short win (at most 4 of the winner's moves) played to its end as a member
    would, a click at a time: one call of the solver's worker per click (the line played
    again, each position's values and the defences), in a worker of its own (warmed with
    its book), so that Show me's lines are not in its cache."""
    from engine.puzzles import fastest_wins
    from gameflow.puzzle_followups import FOLLOW_MOVES

    worker = PostMortemWorker()
    cuts = [
        (moves[: cut.ply], cut.answer)
        for moves, _mark, _facts, found, _near in games
        for cut in found
        if cut.kind == "win"
    ]
    timings, played = [], 0
    try:
        await worker.played_on(CLASSIC, (), [3])  # the worker and its book, once
        for moves, answer in cuts:
            columns = [answer]
            while True:
                started = time.perf_counter()
                steps = await worker.played_on(CLASSIC, tuple(moves), columns)
                timings.append(time.perf_counter() - started)
                if len(columns) == 1 and steps[0][0][answer][1] >= 2 * FOLLOW_MOVES - 1:
                    timings.pop()  # a long win: not played on
                    break
                if len(steps) == len(columns):  # four in a row
                    played += 1
                    break
                columns.append(fastest_wins(steps[-1][0])[0])
    finally:
        worker.close()
    return {
        "count": played,
        "clicks": len(timings),
        "p50": percentile(timings, 0.5),
        "p99": percentile(timings, 0.99),
        "max": max(timings) * 1000,
    }


def print_puzzle_costs(
    games: int = 60, facts: int = 200_000, copies: int = 40, asks: int = 4000, seed: int = 1
) -> None:
    started = time.perf_counter()
    w = won_by_members(games, seed + 2)
    print(
        f"games members playing the solver's moves won against the bot: {w['games']} (of "
        f"{w['tries']} played): {w['puzzles'] / w['games']:.2f} puzzles per game won "
        f"({w['puzzles']}, of which {w['members']} the members' own positions); its "
        f"post-mortem in the worker: p50 {w['p50']:.0f} ms, p99 {w['p99']:.0f} "
        f"ms, max {w['max']:.0f} ms; made in {time.perf_counter() - started:.0f} s"
    )
    started = time.perf_counter()
    against, bot_games = looked_back(games, True, seed)
    between, member_games = looked_back(games, False, seed + 1)
    gave = [sum(len(g[3]) for g in found) for found in (bot_games, member_games)]
    near = [sum(g[4] for g in found) for found in (bot_games, member_games)]
    print(
        f"puzzles per game looked back at: against the bot {gave[0] / against:.2f} "
        f"({gave[0]} from {against} games), between members {gave[1] / between:.2f} "
        f"({gave[1]} from {between}); made in {time.perf_counter() - started:.0f} s"
    )
    print(
        f"positions one reply away that would be puzzles (left out: nobody reached them): "
        f"against the bot {near[0] / against:.2f} per game, between members "
        f"{near[1] / between:.2f}"
    )
    r = asyncio.run(posing_costs(bot_games + member_games + w["found"], facts, copies, asks, seed))
    print(
        f"going through {r['old']:,} games looked back at before puzzles (once per server): "
        f"{r['caught_up']:.2f} s, longest loop stall meanwhile {r['catch_up_stall'][0]:.1f} ms "
        f"(the process ran {r['catch_up_stall'][1]:.1f} ms of it); its longest step, one game's "
        f"cut, held the loop's thread {r['catch_up_step']:.1f} ms of CPU"
    )
    print(
        f"posing a puzzle ({r['asks']:,} asked) on a server of {r['facts']:,} facts and "
        f"{r['puzzles']:,} puzzles: p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
        f"max {r['max']:.1f} ms; longest loop stall {r['stall'][0]:.1f} ms (the process ran "
        f"{r['stall'][1]:.1f} ms of it), longest CPU on the loop's thread for one "
        f"{r['held']:.1f} ms"
    )
    print(
        f"of which to members with an established puzzle rating (the nearest first): p50 "
        f"{r['near_p50']:.2f} ms, p99 {r['near_p99']:.2f} ms"
    )
    print(
        f"answering it (checked it was posed, counted, both ratings moved): p50 "
        f"{r['answer_p50']:.2f} ms, p99 {r['answer_p99']:.2f} ms"
    )
    s = asyncio.run(show_me_costs(bot_games + member_games))
    print(
        f"Show me, in the solver's worker ({s['count']} puzzles, lines of {s['plies']:.1f} "
        f"plies on average): p50 {s['p50']:.0f} ms, p99 {s['p99']:.0f} ms, max {s['max']:.0f} ms"
    )
    f = asyncio.run(follow_up_costs(bot_games + member_games))
    print(
        f"playing a short win on, a click in the solver's worker ({f['count']} short wins "
        f"played to the end, {f['clicks']} clicks): p50 {f['p50']:.0f} ms, p99 "
        f"{f['p99']:.0f} ms, max {f['max']:.0f} ms"
    )
    print(
        "targets: posing and answering p99 <= 20 ms and no loop stall over 20 ms; Show me "
        "p99 <= 2 s; >= 0.5 puzzles per game members won; post-mortem p50 <= 0.3 s, p99 <= 3 s"
    )


def minis_census(seed: int = 1) -> None:
    """How many puzzles the minis and tic-tac-toe would have, from their memory alone: a
    position (one move before a fact) whose every move has a fact, exactly one of them a
    win, the win not completing a line at once and the opponent threatening none."""
    from engine.tictactoe import LINES
    from engine.training import train

    for name, games in (("tictactoe", 20_000), ("connect4", 100_000), ("connect4-5x4", 100_000)):
        rules = engine.get_game(name)
        memory = Memory(game=rules)
        train(memory, games, opponent="random", seed=seed)
        parents = {
            rules.key(parent)
            for key, _value in memory.items()
            for parent in rules.parents(rules.key_code(key))
        }
        found = forced = 0
        for key in parents:
            code = rules.key_code(key)
            moves = rules.moves(code)
            if not moves or len(moves) < 2 or any(not memory.known(k) for _m, _c, k in moves):
                continue
            wins = [child for _move, child, k in moves if memory.known(k) == 1]
            if len(wins) != 1:
                continue
            other = 3 - rules.turn(code)
            if name == "tictactoe":
                cells = rules.cells(code)
                threat = any(sorted(cells[i] for i in line) == [0, other, other] for line in LINES)
            else:
                threat = bool(rules.fours(code, other))
            if rules.moves(wins[0]) is None or threat:
                forced += 1
            else:
                found += 1
        print(
            f"{name}: {len(memory):,} facts after {games:,} random games; positions with one "
            f"winning move and every other proven lost: {found} (and {forced} forced: an "
            f"immediate win or a block)"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games of each kind looked back at")
    parser.add_argument("--facts", type=int, default=200_000)
    parser.add_argument("--asks", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minis", action="store_true", help="only: how many puzzles the other boards would have"
    )
    args = parser.parse_args(argv)
    if args.minis:
        minis_census(args.seed)
        return
    print_puzzle_costs(args.games, args.facts, asks=args.asks, seed=args.seed)


if __name__ == "__main__":
    main()

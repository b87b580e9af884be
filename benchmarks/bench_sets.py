"""The benchmark sets and workloads shared by ``compare_dds.py`` and the pytest-benchmark suites.

Sets (all files are read from ``tests/data/``):

* ``list100``: the 100 deals of DDS's ``list100.txt`` (real deals from top-level play).
* ``random``: ``ddsolver.deal.random_deals(2026, 200)``, 200 seeded random deals.
* ``positions``: the 300 positions of ``solve_positions.jsonl`` (made with seed 1, trick 1 to
  trick 11, 140 of them partway through a trick), with DDS's answer for every legal card.

Workloads, each made of *jobs* (one timed call per item):

* ``table``: the full 20-entry DD table of each deal (DDS ``CalcDDtable``).
* ``solve``: the exact best value of one position (DDS ``SolveBoard(target=-1, solutions=1,
  mode=1)``).  On deal sets a position is trick 1 with a fixed strain and opening leader:
  job ``NT/E`` (notrump, East leads, so North declares) and job ``S/E`` (spades, East leads);
  on ``list100`` also job ``file`` (the file's own strain and leader, checked against its FUT
  line).  On ``positions`` the position of each line.
* ``allcards``: the value of every legal card (DDS ``SolveBoard(-1, 3, 1)``), same jobs.

Every answer counts tricks for the side to move among the tricks not yet completed (DDS's
viewpoint; 13 at trick 1); tables count declarer's side's tricks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ddsolver.cards import Card, Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import Deal, Hand, random_deals
from ddsolver.table import Seat

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
RANDOM_SEED = 2026
RANDOM_COUNT = 200
WARMUP_SEED = 777  # a deal used only to warm engines up, never timed

SETS = ("list100", "random", "positions")
WORKLOADS = ("table", "solve", "allcards")
#: (job name, trump, opening leader) at trick 1 on the deal sets
TRICK1_JOBS = (("NT/E", Strain.NOTRUMP, Seat.EAST), ("S/E", Strain.SPADES, Seat.EAST))


@dataclass
class Item:
    """One unit of work.  ``masks`` are the cards still held, N, E, S, W (ddsolver masks)."""

    id: int
    deal: Deal | None  # the full deal, for table jobs (None for mid-play positions)
    masks: tuple
    trump: Strain | None = None
    leader: Seat | None = None
    trick: tuple = ()
    expected: object = None  # the reference answer when one is known (JSON-ready)


@dataclass
class Job:
    set: str
    workload: str
    name: str
    items: list = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.set}/{self.workload}/{self.name}"


def load_deals(set_name: str, limit: int | None = None) -> list:
    """``[(id, Deal, DDSRecord or None)]`` of a deal set."""
    if set_name == "list100":
        recs = read_dds_file(DATA / "list100.txt")
        out = [(r.number, r.deal, r) for r in recs]
    elif set_name == "random":
        out = [(i, d, None) for i, d in enumerate(random_deals(RANDOM_SEED, RANDOM_COUNT))]
    else:
        raise ValueError(f"not a deal set: {set_name!r}")
    return out[:limit] if limit else out


def load_positions(limit: int | None = None) -> list:
    """The lines of ``solve_positions.jsonl`` as dicts."""
    with open(DATA / "solve_positions.jsonl") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return rows[:limit] if limit else rows


def position_item(row: dict) -> Item:
    hands = [Hand.from_pbn(row["remaining"][s]) for s in "NESW"]
    return Item(
        id=row["id"], deal=None, masks=tuple(h.mask for h in hands),
        trump=Strain.from_str(row["trump"]), leader=Seat.from_str(row["leader"]),
        trick=tuple(Card.from_str(c) for c in row["current_trick"]))


def table_answer(array) -> list:
    """A ``(5, 4)`` table as a JSON list of 5 rows."""
    return [[int(x) for x in row] for row in array]


def build_jobs(set_name: str, workload: str, limit: int | None = None) -> list:
    """The jobs of one set and workload (empty for ``positions``/``table``).

    :raises ValueError: for an unknown set or workload.
    """
    if set_name not in SETS:
        raise ValueError(f"unknown set {set_name!r}; choose from {SETS}")
    if workload not in WORKLOADS:
        raise ValueError(f"unknown workload {workload!r}; choose from {WORKLOADS}")
    if set_name == "positions":
        if workload == "table":
            return []
        job = Job(set_name, workload, "mid-play")
        for row in load_positions(limit):
            item = position_item(row)
            item.expected = row["best"] if workload == "solve" else dict(row["results"])
            job.items.append(item)
        return [job]
    deals = load_deals(set_name, limit)
    if workload == "table":
        job = Job(set_name, workload, "CalcDDtable")
        for i, deal, rec in deals:
            job.items.append(Item(i, deal, deal.masks(),
                                  expected=table_answer(rec.table) if rec else None))
        return [job]
    jobs = []
    variants = list(TRICK1_JOBS)
    if set_name == "list100":
        variants.append(("file", None, None))
    for name, trump, leader in variants:
        job = Job(set_name, workload, name)
        for i, deal, rec in deals:
            t = rec.trump if trump is None else trump
            ld = rec.leader if leader is None else leader
            expected = None
            if trump is None:
                scores = {str(c): s for c, s in rec.lead_scores().items()}
                expected = max(scores.values()) if workload == "solve" else scores
            job.items.append(Item(i, deal, deal.masks(), t, ld, (), expected))
        jobs.append(job)
    return jobs


def warmup_item(workload: str) -> Item:
    """An item on a deal of no set, to load code and memory before timing."""
    deal = random_deals(WARMUP_SEED, 1)[0]
    return Item(-1, deal, deal.masks(), Strain.HEARTS, Seat.SOUTH, ())

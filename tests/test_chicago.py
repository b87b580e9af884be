"""Tests of ai.chicago: the Chicago match, its worked sequences, whole matches, saving."""

from __future__ import annotations

import json
import os

import pytest
from table_players import Log, ScriptedPlayer, SystemPlayer, Watch, check_card_by_card

from ai.chicago import ChicagoMatch, SavedGameError, chicago_deal, write_json_atomic
from ai.game import BoardResult
from ddsolver import read_pbn
from ddsolver.cards import Strain
from ddsolver.deal import random_deal
from ddsolver.errors import BridgeError
from ddsolver.scoring import Contract, ns_score, undertrick_penalty
from ddsolver.table import Seat, Side

ANY = random_deal(5)


def made(match, contract: str, tricks: int) -> BoardResult:
    """A hand-made result of the current board (no play) for the worked sequences."""
    c = Contract.from_str(contract)
    vul = match.vulnerability
    return BoardResult(ANY, match.dealer, vul, "IMP", (), None, c, c.declarer, (), tricks,
                       ns_score(c, tricks, vul))


def passed(match) -> BoardResult:
    return BoardResult(ANY, match.dealer, match.vulnerability, "IMP", (), None, None, None,
                       (), 0, 0)


def test_the_boards_dealers_and_vulnerability():
    m = ChicagoMatch(seed=1)
    seen = []
    while not m.is_finished:
        seen.append((m.board_number, m.dealer.letter, m.vulnerability.pbn))
        m.record(passed(m)) if len(seen) == 2 else m.record(made(m, f"1NT{m.dealer}", 7))
    assert seen == [(1, "N", "None"), (2, "E", "NS"), (2, "E", "NS"), (3, "S", "EW"),
                    (4, "W", "All")]
    m2 = ChicagoMatch(seed=1)
    with pytest.raises(BridgeError, match="finished"):
        m.record(made(m2, "1NTN", 7))
    with pytest.raises(BridgeError, match="dealt by NORTH"):
        m2.record(BoardResult(ANY, Seat.EAST, m2.vulnerability, "IMP", (), None, None, None,
                              (), 0, 0))


def test_part_score_carried_into_a_game_board_4_bonus_and_a_passed_out_board():
    m = ChicagoMatch(seed=1)
    m.record(made(m, "2SN", 8))          # board 1: 60 trick points, no part-score bonus
    assert m.board_points() == [(60, 0)] and m.score.part_scores == (60, 0)
    m.record(passed(m))                  # board 2 passed out: East deals it again
    assert (m.board_number, m.dealer) == (2, Seat.EAST) and m.board_points()[-1] == (0, 0)
    m.record(made(m, "2HS", 9))          # 60 carried + 60 = game, N-S vulnerable: 500
    assert m.board_points()[-1] == (60 + 30 + 500, 0)
    assert m.score.part_scores == (0, 0)     # a game wipes out the part-scores
    m.record(made(m, "3NTE", 7))         # two down vulnerable: 200 to N-S
    assert m.board_points()[-1] == (200, 0)
    m.record(made(m, "2DW", 8))          # board 4: part-score completing no game: +100
    assert m.board_points()[-1] == (0, 40 + 100)
    assert m.is_finished and m.totals == (850, 140)
    assert m.final_score() == 710 and m.final_score("W") == 0 and m.final_score("N") == 710


def test_the_floor_at_zero_and_a_doubled_part_score_making_game():
    m = ChicagoMatch(seed=2)
    m.record(made(m, "2SXE", 8))         # doubled: 120 trick points = game, +50 insult
    assert m.board_points()[-1] == (0, 120 + 50 + 300)
    m.record(made(m, "1NTN", 6))         # one down, N-S vulnerable: 100
    m.record(made(m, "3CW", 9))          # 60 part-score on board 3: no bonus
    assert m.board_points()[-1] == (0, 60) and m.score.part_scores == (0, 60)
    m.record(made(m, "1SN", 7))          # board 4 part-score: 30 + 100
    assert m.board_points()[-1] == (130, 0) and m.score.part_scores == (30, 60)
    assert m.totals == (130, 630)
    assert m.final_score() == 0 and m.final_score(Seat.EAST) == 500   # never below zero


def chicago_oracle(results):
    """The spec's Chicago rules written out once more, independently of ChicagoScore:
    points per board (NS, EW)."""
    parts, board, out = [0, 0], 1, []
    for r in results:
        if r.contract is None:
            out.append((0, 0))
            continue
        c, side = r.contract, r.declarer.side
        vul = r.vulnerability.is_vulnerable(side)
        points = [0, 0]
        if r.tricks >= c.tricks_needed:
            first, rest = {Strain.CLUBS: (20, 20), Strain.DIAMONDS: (20, 20),
                           Strain.HEARTS: (30, 30), Strain.SPADES: (30, 30),
                           Strain.NOTRUMP: (40, 30)}[c.strain]
            tp = (first + rest * (c.level - 1)) * (1, 2, 4)[c.doubled]
            over = r.tricks - c.tricks_needed
            over_points = over * (rest, 200 if vul else 100, 400 if vul else 200)[c.doubled]
            extra = (0, 50, 100)[c.doubled] + {6: 750 if vul else 500,
                                                 7: 1500 if vul else 1000}.get(c.level, 0)
            if parts[side] + tp >= 100:
                bonus, parts = (500 if vul else 300), [0, 0]
            else:
                parts[side] += tp
                bonus = 100 if board == 4 else 0
            points[side] = tp + over_points + extra + bonus
        else:
            points[1 - side] = undertrick_penalty(c.tricks_needed - r.tricks, c.doubled, vul)
        out.append(tuple(points))
        board += 1
    return out


def _computer(level="easy", seed=0):
    from ai.robot import ComputerPlayer
    return ComputerPlayer(level, seed=seed, threads=1)


def _play_watched(match, players, human=None):
    """Play the match board by board, checking each board card by card."""
    while not match.is_finished:
        log = Log()
        watched = {s: (p if isinstance(p, SystemPlayer) else Watch(s, p, log))
                   for s, p in players.items()}
        for p in watched.values():
            if isinstance(p, SystemPlayer):
                p.log = log
        before = (match.board_number, match.dealer, match.vulnerability)
        r = match.play(watched)
        assert (before[1], before[2]) == (r.dealer, r.vulnerability)
        check_card_by_card(r, log, human)
        assert r.score == ns_score(r.contract, r.tricks, r.vulnerability)


def test_a_whole_match_of_four_computers():
    m = ChicagoMatch(seed=2024, human=None)
    players = {s: _computer("easy", seed=i) for i, s in enumerate("NESW")}
    try:
        _play_watched(m, players)
    finally:
        for p in players.values():
            p.close()
    assert m.is_finished and len(m.results) >= 4
    assert sum(not r.passed_out for r in m.results) == 4
    assert m.board_points() == chicago_oracle(m.results)
    ns = sum(p[0] for p in m.board_points())
    ew = sum(p[1] for p in m.board_points())
    assert m.totals == (ns, ew) and m.final_score() == max(0, ns - ew)
    for i, r in enumerate(m.results):
        assert r.deal == chicago_deal(2024, i)


# The scripted match: board 1 North declares 1NT (South is dummy); board 2 is passed out and
# dealt again by East; then South declares 1NT (North is dummy); board 3 West declares.
DEAL_NORTH_DECLARES = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
DEAL_PASSED_OUT = "N:AT98.KT9.QT9.JT9 K76.Q876.J87.A87 Q54.J54.A654.K65 J32.A32.K32.Q432"
DEAL_SOUTH_DECLARES = "N:653.T742.T42.A73 JT97.A86.A87.T96 AQ4.KJ5.Q963.KJ2 K82.Q93.KJ5.Q854"
DEAL_WEST_DECLARES = "N:JT97.A86.A87.T96 653.T742.T42.A73 K82.Q93.KJ5.Q854 AQ4.KJ5.Q963.KJ2"
SOUTH_SCRIPT = {"JT97.A86.A87.T96": ["Pass"], "Q54.J54.A654.K65": ["Pass"],
                "AQ4.KJ5.Q963.KJ2": ["1NT", "Pass", "Pass"],
                "K82.Q93.KJ5.Q854": ["Pass", "Pass"]}


def test_a_match_with_a_scripted_human_south():
    deals = [DEAL_NORTH_DECLARES, DEAL_PASSED_OUT, DEAL_SOUTH_DECLARES, DEAL_WEST_DECLARES,
             random_deal(77), random_deal(78), random_deal(79)]
    m = ChicagoMatch(seed=9, human=Seat.SOUTH, deals=deals)
    south = ScriptedPlayer("S", calls=SOUTH_SCRIPT, seed=4)
    players = {"N": _computer(seed=1), "E": _computer(seed=2), "S": south,
               "W": _computer(seed=3)}
    try:
        _play_watched(m, players, human=Seat.SOUTH)
    finally:
        for s in "NEW":
            players[s].close()
    r = m.results
    assert [str(x.contract) for x in r[:4]] == ["1NTN", "None", "1NTS", "1NTW"]
    assert r[1].passed_out and r[2].dealer == Seat.EAST       # East deals board 2 again
    assert m.score.boards[2].board == 2 and m.score.boards[3].board == 3
    # North declares: the human played all 26 North-South cards from North's view
    for board in (r[0], r[2]):
        ns_cards = [c for s, c in board.play if s.side == Side.NS]
        assert len(ns_cards) == 26
    assert m.is_finished and m.board_points() == chicago_oracle(m.results)
    assert m.final_score() == max(0, m.totals[0] - m.totals[1])


def test_save_and_resume_mid_board_gives_the_same_match(tmp_path):
    path = tmp_path / "match.json"

    def players():
        return {s: SystemPlayer(s, seed=i) for i, s in enumerate("NESW")}

    whole = ChicagoMatch(seed=31)
    whole.play_all(players())

    class Interrupt(SystemPlayer):
        def card(self, view):
            if len(view.played) >= 17:
                raise KeyboardInterrupt
            return super().card(view)

    m = ChicagoMatch(seed=31, path=path, settings={"level": "easy", "name": "Ann"})
    interrupted = players()
    interrupted["W"] = Interrupt("W", seed=3)
    m.play(players())
    with pytest.raises(KeyboardInterrupt):
        while True:
            m.play(interrupted)
    saved = json.loads(path.read_text())
    assert saved["current"] is not None and len(saved["current"]["progress"]["play"]) >= 17
    back = ChicagoMatch.load(path)
    assert back.settings == {"level": "easy", "name": "Ann"} and back.seed == 31
    assert back.progress == m.progress and back.results[0].play == whole.results[0].play
    back.play_all(players())
    assert [x.to_dict() for x in back.results] == [x.to_dict() for x in whole.results]
    assert back.totals == whole.totals
    done = ChicagoMatch.load(path)
    assert done.is_finished and done.totals == whole.totals
    # every board reads back from PBN with its Chicago points
    games = read_pbn(whole.to_pbn().encode("latin-1"))
    assert len(games) == len(whole.results)
    for g, r, p in zip(games, whole.results, whole.board_points()):
        assert g["Scoring"] == "Chicago" and g["Score"] == f"NS {p[0] - p[1]}"
        assert [(x.seat, x.card) for x in g.play_sequence] == list(r.play)
        assert [e.call for e in g.auction] == list(r.calls)


def test_bad_saved_files_give_a_clear_error(tmp_path):
    m = ChicagoMatch(seed=5, path=tmp_path / "ok.json")
    m.play({s: SystemPlayer(s, seed=1) for s in "NESW"})
    good = json.loads((tmp_path / "ok.json").read_text())
    cases = {
        "truncated": (tmp_path / "ok.json").read_bytes()[:100],
        "binary": b"\x00\xff\xfe garbage",
        "foreign": json.dumps({"name": "something else"}).encode(),
        "list": b"[1, 2, 3]",
        "version": json.dumps({**good, "version": 99}).encode(),
        "score": json.dumps({**good, "boards": [{**good["boards"][0],
                                                 "score": good["boards"][0]["score"] + 10}]
                             }).encode(),
        "dealer": json.dumps({**good, "boards": [{**good["boards"][0], "dealer": "E"}]}
                             ).encode(),
        "human": json.dumps({**good, "human": "Q"}).encode(),
        "seed": json.dumps({k: v for k, v in good.items() if k != "seed"}).encode(),
        "progress": json.dumps({**good, "current": {"deal": chicago_deal(5, 1).to_pbn(),
                                                    "progress": {"calls": ["1NT", "1C"],
                                                                 "play": []}}}).encode(),
        "other deal": json.dumps({**good, "current": {"deal": chicago_deal(6, 1).to_pbn(),
                                                      "progress": {"calls": [], "play": []}}}
                                 ).encode(),
        # values of the wrong type (a raw AttributeError or ValueError, a traceback in
        # ddsolver-play and a 500 in the web page, instead of the damaged file reported)
        "seat a number": json.dumps({**good, "boards": [{**good["boards"][0], "play": [
            [1, good["boards"][0]["play"][0][1]]] + good["boards"][0]["play"][1:]}]}
                                    ).encode(),
        "dealer a list": json.dumps({**good, "boards": [{**good["boards"][0],
                                                         "dealer": ["N"]}]}).encode(),
        "call a number": json.dumps({**good, "boards": [{**good["boards"][0],
                                                         "calls": [1]}]}).encode(),
        "settings a list": json.dumps({**good, "settings": ["level"]}).encode(),
        "progress seat": json.dumps({**good, "current": {"deal": chicago_deal(5, 1).to_pbn(),
                                                         "progress": {"calls": ["1NT"],
                                                                      "play": [[None, "SA"]]}}}
                                    ).encode(),
    }
    for name, data in cases.items():
        p = tmp_path / f"{name}.json"
        p.write_bytes(data)
        with pytest.raises(SavedGameError) as info:
            ChicagoMatch.load(p)
        assert str(p) in str(info.value), name
    with pytest.raises(FileNotFoundError):
        ChicagoMatch.load(tmp_path / "missing.json")


def test_saving_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    write_json_atomic(path, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": object()})
    assert json.loads(path.read_text()) == {"a": 1}

    def broken(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        write_json_atomic(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 1}
    assert sorted(os.listdir(tmp_path)) == ["m.json"]          # no temporary file left


def test_seeds_and_deals():
    assert ChicagoMatch(seed=3).current_deal() == chicago_deal(3, 0)
    assert chicago_deal("abc", 1) != chicago_deal("abc", 2)
    assert isinstance(ChicagoMatch().seed, int)
    with pytest.raises(TypeError):
        ChicagoMatch(seed=1.5)
    m = ChicagoMatch(seed=1, deals=[ANY])
    m.record(passed(m))
    with pytest.raises(BridgeError, match="needs another"):
        m.current_deal()


def test_saving_into_a_missing_folder_is_refused_and_creates_nothing(tmp_path):
    """save() created a missing folder (ddsolver-play --save refuses it): it is refused
    with a SavePathError, both a SavedGameError and an OSError (the callers of save()
    catch OSError), naming the file and the folder; a link into a missing folder too."""
    from ai.chicago import SavePathError

    missing = tmp_path / "no such folder"
    m = ChicagoMatch(seed=1, path=missing / "m.json")
    with pytest.raises(SavePathError) as info:
        m.save()
    assert isinstance(info.value, SavedGameError) and isinstance(info.value, OSError)
    assert str(info.value) == f"cannot write {missing / 'm.json'}: the folder {missing} " \
                              f"does not exist"
    link = tmp_path / "link.json"
    link.symlink_to(missing / "target.json")
    with pytest.raises(SavePathError, match=f"the folder {missing} does not exist"):
        m.save(link)
    with pytest.raises(SavePathError, match="^an empty file name$"):
        m.save("")
    assert sorted(os.listdir(tmp_path)) == ["link.json"]
    m.save(tmp_path / "m.json")     # an existing folder: saved
    assert ChicagoMatch.load(tmp_path / "m.json").seed == 1


def test_write_json_atomic_refuses_a_missing_folder(tmp_path):
    """write_json_atomic created missing folders silently: it refuses them with a
    SavePathError (an OSError) naming the file and the folder, and writes nothing."""
    from ai.chicago import SavePathError

    missing = tmp_path / "no such folder"
    path = missing / "deeper" / "m.json"
    with pytest.raises(SavePathError) as info:
        write_json_atomic(path, {"a": 1})
    assert isinstance(info.value, OSError)
    assert str(info.value) == (f"cannot write {path}: the folder {missing / 'deeper'} "
                               f"does not exist")
    assert os.listdir(tmp_path) == []
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(SavePathError, match=f"the folder {file} is not a folder"):
        write_json_atomic(file / "m.json", {"a": 1})
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_saving_through_a_symlink_replaces_its_target(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "match.json"
    link = tmp_path / "match.json"
    link.symlink_to(target)
    write_json_atomic(link, {"a": 1})
    assert link.is_symlink() and json.loads(target.read_text()) == {"a": 1}
    write_json_atomic(link, {"a": 2})
    assert link.is_symlink() and json.loads(target.read_text()) == {"a": 2}
    assert sorted(os.listdir(real)) == ["match.json"]

"""The page's API: whole matches over HTTP, hidden hands never sent, bad requests refused
with a JSON error and the match unchanged, matches surviving a restart and expiring."""

import json
import os
import re
import sqlite3
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("ai.protocols.http", reason="the HTTP robot API (ai.protocols) is needed")

from fastapi.testclient import TestClient  # noqa: E402

from ai.web.app import create_web_app  # noqa: E402
from ai.web.cli import FAST  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _client(tmp_path, **kw):
    app = create_web_app(data_dir=str(tmp_path / "data"),
                         leaderboard=str(tmp_path / "lb.sqlite3"),
                         computer_settings=FAST, deal_seed=kw.pop("deal_seed", "api"), **kw)
    return TestClient(app)


def _check_visible(state):
    """The hands sent are the ones the human may see now."""
    hands = set(state.get("hands", {}))
    if state["phase"] == "auction":
        assert hands == {"S"}
    elif state["phase"] == "play":
        c = state["contract"]
        allowed = {"S"}
        if state["opening_lead"]:
            allowed.add(c["dummy"])
            if c["declarer"] in "NS":
                allowed.add("N")
        assert hands == allowed, (hands, c, state["opening_lead"])
    else:
        assert "hands" not in state


def _step(c, mid, state, choose):
    if state["phase"] == "between":
        return c.post(f"/web/api/matches/{mid}/next")
    if state["phase"] == "auction":
        return c.post(f"/web/api/matches/{mid}/call", json={"call": choose(state)})
    seat = state["to_act"]
    return c.post(f"/web/api/matches/{mid}/card",
                  json={"seat": seat, "card": state["legal_cards"][0]})


def _play_out(c, state, choose=lambda s: "Pass", check=_check_visible, limit=800):
    mid = state["id"]
    for _ in range(limit):
        check(state)
        if state["phase"] == "over":
            return state
        r = _step(c, mid, state, choose)
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the match did not end")


def test_whole_chicago_match_over_http(tmp_path):
    with _client(tmp_path) as c:
        r = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})
        assert r.status_code == 200, r.text
        state = r.json()
        assert state["phase"] == "auction" and state["your_turn"]
        declared = []

        def choose(s):
            # bid 7NT at the first turn of board 1 (North-South declare), pass otherwise
            if s["board"]["number"] == 1 and "7NT" in s["legal_calls"] and not any(
                    a["seat"] == "S" for a in s["auction"]):
                return "7NT"
            return "Pass"

        def check(s):
            _check_visible(s)
            if s["phase"] == "play" and s["your_turn"]:
                declared.append(s["to_act"])

        final = _play_out(c, state, choose, check)
        assert "N" in declared and "S" in declared   # the human played North's cards
        ns, ew = final["final"]["NS"], final["final"]["EW"]
        assert final["final"]["yours"] == max(0, ns - ew)
        assert len([b for b in final["boards"] if not b["passed_out"]]) == 4
        assert final["boards"][0]["contract"].startswith("7NT")


def test_daily_boards_and_leaderboard(tmp_path):
    with _client(tmp_path) as c:
        r = c.post("/web/api/matches", json={"mode": "daily", "name": "  Ana  María "})
        assert r.status_code == 200, r.text
        state = r.json()
        assert state["level"] == "medium" and state["daily"]["name"] == "Ana María"
        final = _play_out(c, state)
        assert final["daily"]["recorded"] is True
        board = c.get("/web/api/leaderboard").json()
        assert [e["name"] for e in board["entries"]] == ["Ana María"]
        assert board["entries"][0]["score"] == final["final"]["total"]
        # once a day per name (names compare without case)
        r = c.post("/web/api/matches", json={"mode": "daily", "name": "ana maría"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "already_played"
        for bad in ["", " ", "x" * 41, "a\x00b", "\x7f"]:
            r = c.post("/web/api/matches", json={"mode": "daily", "name": bad})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", bad
        for bad in ["2024-13-45", "20240101", "2024-W01-1", "2024-1-01"]:
            r = c.get(f"/web/api/leaderboard?date={bad}")
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_date", bad
            assert repr(bad) in r.json()["error"]["message"]
    with sqlite3.connect(tmp_path / "lb.sqlite3") as db:
        assert db.execute("select count(*) from entry").fetchone() == (1,)


def _snapshot(c, mid):
    return c.get(f"/web/api/matches/{mid}").json()


def _same(a, b):
    a, b = dict(a), dict(b)
    a.pop("events"), b.pop("events")
    return a == b


def test_bad_requests_get_json_errors_and_change_nothing(tmp_path):
    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "medium"}).json()
        mid = state["id"]
        before = _snapshot(c, mid)
        if "1C" not in state["legal_calls"]:
            # the reason, as the terminal game and the robot API give it
            r = c.post(f"/web/api/matches/{mid}/call", json={"call": "1C"})
            assert re.search(r"1C is not legal after .*: insufficient bid: it must be "
                             r"higher than the last bid", r.json()["error"]["message"]), r.text
        cases = [
            ("post", f"/web/api/matches/{mid}/call", {"call": "1C"}, 422, "illegal_call")
            if "1C" not in state["legal_calls"] else None,
            ("post", f"/web/api/matches/{mid}/call", {"call": "8NT"}, 422, "bad_call"),
            ("post", f"/web/api/matches/{mid}/call", {"call": 3}, 422, "bad_message"),
            ("post", f"/web/api/matches/{mid}/call", {"call": "1C", "x": 1}, 422,
             "bad_message"),
            ("post", f"/web/api/matches/{mid}/card", {"seat": "S", "card": "SA"}, 409,
             "not_play"),
            ("post", f"/web/api/matches/{mid}/next", None, 409, "board_in_progress"),
            ("post", f"/web/api/matches/{mid}/hint", None, 409, "no_hint"),
            ("get", "/web/api/matches/" + "A" * 24, None, 404, "unknown_match"),
            ("get", "/web/api/matches/..%2F..%2Fetc%2Fpasswd", None, 404, None),
            ("post", "/web/api/matches/short/call", {"call": "Pass"}, 404, "unknown_match"),
            ("post", "/web/api/matches", {"mode": "chicago", "level": "expert"}, 422,
             "bad_message"),
        ]
        for case in filter(None, cases):
            method, path, body, status, code = case
            r = getattr(c, method)(path, json=body) if body is not None else \
                getattr(c, method)(path)
            assert r.status_code == status, (path, body, r.text)
            err = r.json()["error"]
            assert err["message"]
            if code:
                assert err["code"] == code, (path, body, err)
        # bad JSON and an oversized body
        r = c.post(f"/web/api/matches/{mid}/call", content=b"{not json",
                   headers={"content-type": "application/json"})
        assert r.status_code in (400, 422) and "error" in r.json()
        r = c.post(f"/web/api/matches/{mid}/call", content=b"{\"call\": \"" + b"P" * 100_000
                   + b"\"}", headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        # a body that is JSON but not an object: the page's API asks for no 'view'
        r = c.post("/web/api/matches", json=[])
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_message"
        assert r.json()["error"]["message"] == "the body must be a JSON object"
        # the boards of the day are against medium computers: another level is refused
        r = c.post("/web/api/matches", json={"mode": "daily", "name": "Ann", "level": "hard"})
        assert r.status_code == 422 and "'level' cannot be chosen" in r.text
        r = c.post("/web/api/matches", json={"mode": "daily"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"
        assert "a name is required" in r.json()["error"]["message"]
        assert _same(_snapshot(c, mid), before)
        # nothing outside the data directory was written
        assert sorted(os.listdir(tmp_path)) == ["data", "lb.sqlite3"] or \
            sorted(os.listdir(tmp_path)) == ["data"]


def test_cards_refused_for_seats_and_rules(tmp_path):
    """An illegal card, a card out of turn, a card for a seat the human does not control:
    refused, the match unchanged."""
    with _client(tmp_path, deal_seed="cards") as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        seen = set()
        for _ in range(300):
            if state["phase"] == "over" or len(seen) >= 3:
                break
            if state["phase"] == "play" and state["your_turn"]:
                before = _snapshot(c, mid)
                seat = state["to_act"]
                legal = set(state["legal_cards"])
                held = set(state["hands"][seat])
                illegal = sorted(held - legal)
                if illegal:
                    r = c.post(f"/web/api/matches/{mid}/card",
                               json={"seat": seat, "card": illegal[0]})
                    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_card"
                    assert "follow suit" in r.json()["error"]["message"]
                    seen.add("illegal")
                not_held = sorted({"SA", "SK", "HA", "DA", "CA", "C2"} - held)
                r = c.post(f"/web/api/matches/{mid}/card",
                           json={"seat": seat, "card": not_held[0]})
                assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_card"
                for other in "EW":
                    r = c.post(f"/web/api/matches/{mid}/card",
                               json={"seat": other, "card": state["legal_cards"][0]})
                    assert r.status_code == 403 and \
                        r.json()["error"]["code"] == "not_your_seat"
                    name = {"E": "East", "W": "West"}[other]
                    assert r.json()["error"]["message"] == f"you do not play {name}'s cards"
                    seen.add("seat")
                if state["contract"]["declarer"] in "EW":
                    r = c.post(f"/web/api/matches/{mid}/card",
                               json={"seat": "N", "card": state["legal_cards"][0]})
                    assert r.status_code == 403
                    seen.add("north")
                elif seat == "S":
                    r = c.post(f"/web/api/matches/{mid}/card",
                               json={"seat": "N", "card": state["legal_cards"][0]})
                    assert r.status_code == 409 and r.json()["error"]["code"] == "out_of_turn"
                    assert r.json()["error"]["message"] == ("it is South's turn to play, "
                                                            "not North's")
                assert _same(_snapshot(c, mid), before)
            r = _step(c, mid, state, lambda s: "Pass")
            assert r.status_code == 200, r.text
            state = r.json()
        assert {"illegal", "seat"} <= seen


def test_match_survives_restart_and_expires(tmp_path):
    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        state = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"}).json()
        before = _snapshot(c, mid)
    assert os.path.isfile(tmp_path / "data" / "matches" / f"{mid}.json")
    with _client(tmp_path) as c:          # a new server process on the same directory
        assert _same(_snapshot(c, mid), before)
    with _client(tmp_path, ttl=60) as c:
        path = tmp_path / "data" / "matches" / f"{mid}.json"
        old = time.time() - 120
        os.utime(path, (old, old))
        r = c.get(f"/web/api/matches/{mid}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
        assert not path.exists()


def test_page_files_and_languages(tmp_path):
    with _client(tmp_path) as c:
        r = c.get("/")
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert c.get("/static/app.js").status_code == 200
        r = c.get("/web/api/i18n", headers={"Accept-Language": "es-ES,es;q=0.9"})
        data = r.json()
        assert data["lang"] == "es"
        assert data["messages"]["Pass"] == "Paso"
        assert {x["code"] for x in data["languages"]} >= {"en", "de", "es", "vi"}
        assert c.get("/web/api/i18n?lang=vi").json()["messages"]["South"] == "Nam"
        rules = c.get("/web/api/rules?lang=de").json()
        assert rules["lang"] == "de" and rules["sections"][0]["text"] == "So wird gespielt"
        state = c.post("/web/api/matches?lang=de",
                       json={"mode": "chicago", "level": "easy"}).json()
        texts = [a["explanation"]["text"] for a in state["auction"]]
        assert texts and all(t for t in texts)
        assert json.dumps(state).count('"S"') >= 1


def test_concurrent_requests_after_a_restart_share_one_table(tmp_path, monkeypatch):
    """Two requests for a match that a restarted server has not read back yet: both load
    the saved file at once; they must still get the same table (one lock, one series),
    else both calls are accepted and one silently lost."""
    import threading

    import ai.web.tables as tables

    with _client(tmp_path) as c:
        mid = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()["id"]
    store = tables.MatchStore(tmp_path / "data" / "matches", computer_settings=FAST)
    barrier = threading.Barrier(2, timeout=10)
    real_load = tables.load_game

    def load_together(path):
        game = real_load(path)
        barrier.wait()             # both requests have read the file before either adds it
        return game

    monkeypatch.setattr(tables, "load_game", load_together)
    got = []
    threads = [threading.Thread(target=lambda: got.append(store.get(mid))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 2 and got[0] is got[1]


def test_a_match_held_in_memory_expires_too(tmp_path):
    """A match unused for the ttl is gone even when the server still holds it (no new
    match has swept the store since): 404, and its file deleted."""
    with _client(tmp_path, ttl=60) as c:
        mid = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()["id"]
        assert c.get(f"/web/api/matches/{mid}").status_code == 200
        c.app.state.web_store._tables[mid].last_used -= 120
        r = c.get(f"/web/api/matches/{mid}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
        assert not (tmp_path / "data" / "matches" / f"{mid}.json").exists()


def test_the_sweep_removes_saves_a_kill_interrupted(tmp_path):
    """A server killed during a save leaves the save's temporary file (the match file
    itself is whole); the sweep deletes such files once they are older than the ttl."""
    from ai.web.tables import MatchStore

    store = MatchStore(tmp_path, ttl=60)
    stale = tmp_path / ".Z3qlVArSxbZJ_XZow_B3VWPe.json.33ontor8.tmp"
    fresh = tmp_path / ".Z3qlVArSxbZJ_XZow_B3VWPe.json.x1y2z3w4.tmp"
    other = tmp_path / ".notes.tmp"
    for f in (stale, fresh, other):
        f.write_text('{"format": ')
    old = time.time() - 120
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    store.sweep()
    assert not stale.exists() and fresh.exists() and other.exists()


def test_the_web_command_refuses_a_data_dir_it_cannot_create(tmp_path):
    """An unusable --data-dir is a usage error naming it, not a traceback."""
    from click.testing import CliRunner

    from ai.cli import main

    blocker = tmp_path / "a file"
    blocker.write_text("")
    r = CliRunner().invoke(main, ["web", "--port", "0", "--data-dir", str(blocker / "d")])
    assert r.exit_code == 2 and "'--data-dir'" in r.output, (r.output, r.exception)


def test_the_web_command_refuses_unusable_paths_before_it_serves(tmp_path, monkeypatch):
    """--leaderboard '' (an in-memory database: nothing recorded), --leaderboard naming a
    loop of symbolic links (a mere warning), --data-dir '' (matches/ created in the working
    folder) and a --data-dir that is not writable all started the server: each is refused
    first, exit status 2, naming the option and the reason."""
    from click.testing import CliRunner

    import ai.web.app
    import ddsolver._io
    from ai.cli import main

    served = []
    monkeypatch.setattr(ai.web.app, "serve", lambda *a, **kw: served.append(kw))
    monkeypatch.chdir(tmp_path)
    os.symlink("loop", tmp_path / "loop")
    (tmp_path / "a file").write_text("")
    (tmp_path / "locked").mkdir()
    real_access = os.access
    # the tests may run as root (who may write anywhere): a folder refused by os.access
    monkeypatch.setattr(ddsolver._io.os, "access", lambda p, mode: False if str(p).endswith(
        "locked") and mode == os.W_OK else real_access(p, mode))
    data = ["--data-dir", str(tmp_path / "d")]
    for args, message in (
            (data + ["--leaderboard", ""], "Invalid value for '--leaderboard': an empty file "
                                           "name"),
            (data + ["--leaderboard", str(tmp_path / "loop")],
             f"Invalid value for '--leaderboard': cannot write {tmp_path / 'loop'}: Too many "
             f"levels of symbolic links"),
            (data + ["--leaderboard", str(tmp_path / "no" / "lb.sqlite3")],
             f"Invalid value for '--leaderboard': cannot write {tmp_path / 'no'}/lb.sqlite3: "
             f"the folder {tmp_path / 'no'} does not exist"),
            (["--data-dir", ""], "Invalid value for '--data-dir': an empty folder name"),
            (["--data-dir", str(tmp_path / "loop")],
             f"Invalid value for '--data-dir': cannot use the folder {tmp_path / 'loop'}: "
             f"Too many levels of symbolic links"),
            (["--data-dir", str(tmp_path / "a file")],
             f"Invalid value for '--data-dir': Directory '{tmp_path / 'a file'}' is a file"),
            (["--data-dir", str(tmp_path / "locked")],
             f"Invalid value for '--data-dir': cannot write in the folder "
             f"{tmp_path / 'locked'}: it is not writable"),
            (["--data-dir", str(tmp_path / "locked" / "d")],
             f"Invalid value for '--data-dir': cannot create the folder "
             f"{tmp_path / 'locked' / 'd'}: {tmp_path / 'locked'} is not writable")):
        r = CliRunner().invoke(main, ["web", "--port", "0", *args])
        assert r.exit_code == 2, (args, r.output, r.exception)
        assert message in " ".join(r.output.split()), (args, r.output)
        assert not served and "Serving" not in r.output, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file", "locked", "loop"]
    assert list((tmp_path / "locked").iterdir()) == []


def test_the_web_command_warns_of_an_unusable_leaderboard_at_start(tmp_path, monkeypatch):
    from click.testing import CliRunner

    import ai.web.app
    from ai.cli import main

    served = []
    monkeypatch.setattr(ai.web.app, "serve", lambda *a, **kw: served.append(kw))
    bad = tmp_path / "lb.txt"
    bad.write_text("name,score\n")
    r = CliRunner().invoke(main, ["web", "--port", "0", "--data-dir", str(tmp_path / "d"),
                                  "--leaderboard", str(bad)])
    assert r.exit_code == 0 and served, (r.output, r.exception)
    assert "Warning: the leaderboard cannot be used" in r.output
    assert "not a ddsolver leaderboard" in r.output
    assert bad.read_text() == "name,score\n"
    good = tmp_path / "lb.sqlite3"
    r = CliRunner().invoke(main, ["web", "--port", "0", "--data-dir", str(tmp_path / "d"),
                                  "--leaderboard", str(good)])
    assert r.exit_code == 0 and "Warning" not in r.output, r.output


def test_the_web_command_names_an_address_a_browser_can_open(tmp_path, monkeypatch):
    """--port 0 (any free port) announced http://127.0.0.1:0/, and an IPv6 host lacked its
    brackets (http://::1:9000/): neither opens in a browser."""
    from click.testing import CliRunner

    import ai.web.app
    from ai.cli import main

    monkeypatch.setattr(ai.web.app, "serve", lambda *a, **kw: None)
    base = ["web", "--data-dir", str(tmp_path / "d"), "--leaderboard",
            str(tmp_path / "lb.sqlite3")]
    r = CliRunner().invoke(main, base + ["--port", "0"])
    assert r.exit_code == 0 and ":0/" not in r.output, r.output
    assert "a free port of 127.0.0.1" in r.output
    r = CliRunner().invoke(main, base + ["--host", "::1", "--port", "9000"])
    assert "Serving the page on http://[::1]:9000/ " in r.output, r.output
    r = CliRunner().invoke(main, base + ["--port", "9000"])
    assert "Serving the page on http://127.0.0.1:9000/ " in r.output, r.output


def test_the_web_command_sets_the_store_limits(tmp_path, monkeypatch):
    """max_tables and max_saved could be changed only in code: --max-tables and
    --max-saved set them (defaults 500 and 20,000), and a value below 1 is refused."""
    from click.testing import CliRunner

    import ai.web.app
    from ai.cli import main

    served = []
    monkeypatch.setattr(ai.web.app, "serve", lambda *a, **kw: served.append(kw))
    base = ["web", "--port", "0", "--data-dir", str(tmp_path / "d"), "--leaderboard",
            str(tmp_path / "lb.sqlite3")]
    r = CliRunner().invoke(main, base)
    assert r.exit_code == 0, r.output
    assert (served[-1]["max_tables"], served[-1]["max_saved"]) == (500, 20_000)
    r = CliRunner().invoke(main, base + ["--max-tables", "3", "--max-saved", "7"])
    assert r.exit_code == 0, r.output
    assert (served[-1]["max_tables"], served[-1]["max_saved"]) == (3, 7)
    for option in ("--max-tables", "--max-saved"):
        r = CliRunner().invoke(main, base + [option, "0"])
        assert r.exit_code == 2 and f"Invalid value for '{option}'" in r.output, r.output
    assert len(served) == 2


def test_two_daily_matches_under_one_name_the_second_says_why_it_is_not_recorded(tmp_path):
    with _client(tmp_path) as c:
        first = c.post("/web/api/matches", json={"mode": "daily", "name": "Bob"}).json()
        second = c.post("/web/api/matches", json={"mode": "daily", "name": "bob"}).json()
        done = _play_out(c, first)
        assert done["daily"]["recorded"] is True and done["daily"]["reason"] is None
        late = _play_out(c, second)
        assert late["daily"]["recorded"] is False
        assert late["daily"]["reason"] == "already_played"
        assert [e["name"] for e in c.get("/web/api/leaderboard").json()["entries"]] == ["Bob"]


def test_errors_about_files_do_not_show_where_the_server_keeps_them(tmp_path):
    """A damaged match file or an unusable leaderboard is reported by file name only: the
    client is not told the server's directories."""
    (tmp_path / "lb.sqlite3").write_text("name,score\n")      # not a leaderboard
    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        (tmp_path / "data" / "matches" / f"{mid}.json").write_text("{broken")
    with _client(tmp_path) as c:                               # read from the file again
        r = c.get(f"/web/api/matches/{mid}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_match"
        message = r.json()["error"]["message"]
        assert f"{mid}.json" in message and "not JSON" in message
        r = c.get("/web/api/leaderboard")
        assert r.status_code == 503
        board = r.json()["error"]["message"]
        r = c.post("/web/api/matches", json={"mode": "daily", "name": "Ann"})
        assert r.status_code == 503
        daily = r.json()["error"]["message"]
        for text in (message, board, daily):
            assert str(tmp_path) not in text, text
        assert "lb.sqlite3" in board and "not a ddsolver leaderboard" in board
        assert "lb.sqlite3" in daily


def test_practice_is_a_json_boolean(tmp_path):
    """``practice`` is true or false: text or a number is refused (422 bad_message), not
    read as a boolean ("false" was false, "yes" and 1 true), and no match is made."""
    with _client(tmp_path) as c:
        for value in ("yes", "false", 1, 0, None):
            r = c.post("/web/api/matches", json={"mode": "daily", "name": "Ann",
                                                 "practice": value})
            assert r.status_code == 422, (value, r.text)
            assert r.json()["error"]["code"] == "bad_message"
            assert "practice" in r.json()["error"]["message"]
        assert not os.listdir(tmp_path / "data" / "matches")
        r = c.post("/web/api/matches", json={"mode": "daily", "name": "Ann",
                                             "practice": True})
        assert r.status_code == 200 and r.json()["daily"]["practice"] is True


def test_a_request_meanwhile_does_not_change_the_state_an_answer_reports(tmp_path, monkeypatch):
    """The state a change answers is read under the match's lock: a request arriving while
    it is read (another tab) is refused busy, and does not empty the answer's ``events``
    (it read the state after releasing the lock, and a GET cleared the events without
    it, so the computers' calls of the answer were lost)."""
    import threading

    import ai.web.tables as tables

    reading = threading.Event()
    go_on = threading.Event()
    real_state = tables.WebTable.state
    hold = []

    def slow_state(self, lang):
        if hold:
            hold.clear()
            reading.set()
            go_on.wait(10)
        return real_state(self, lang)

    monkeypatch.setattr(tables.WebTable, "state", slow_state)
    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        assert state["phase"] == "auction" and state["your_turn"]
        got = {}
        hold.append(True)
        t = threading.Thread(target=lambda: got.update(
            r=c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})))
        t.start()
        assert reading.wait(10)
        other = c.get(f"/web/api/matches/{mid}")
        go_on.set()
        t.join(30)
        assert other.status_code == 409 and other.json()["error"]["code"] == "busy", other.text
        answer = got["r"].json()
        assert got["r"].status_code == 200, answer
        # South's pass and the computers' calls after it are the answer's events
        assert [e["seat"] for e in answer["events"]][:2] == ["S", "W"], answer["events"]


def test_a_chicago_match_refuses_the_daily_fields(tmp_path):
    """``name`` and ``practice`` belong to the boards of the day: with a Chicago match
    they were accepted and ignored (no name is kept, nothing is practice); they are
    refused (422 bad_message) and no match is made."""
    with _client(tmp_path) as c:
        for extra in ({"name": "Ann"}, {"practice": True}, {"name": "Ann", "practice": False}):
            r = c.post("/web/api/matches", json={"mode": "chicago", **extra})
            assert r.status_code == 422, (extra, r.text)
            err = r.json()["error"]
            assert err["code"] == "bad_message" and "boards of the day" in err["message"]
            assert ("belongs to" if len(extra) == 1 else "belong to") in err["message"]
        assert not os.listdir(tmp_path / "data" / "matches")
        r = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})
        assert r.status_code == 200 and r.json()["mode"] == "chicago"


def test_a_match_that_cannot_be_saved_is_refused_and_left_as_saved(tmp_path, monkeypatch):
    """A full disk when the human's call is saved: the answer was 500 'internal' naming
    the server's folder, and the call counted anyway (held in memory, the computers went
    on at the next request).  It is 503 'storage' with the reason only, and the match is
    the one last saved."""
    import errno

    import ai.chicago

    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        before = _snapshot(c, mid)
        real = ai.chicago.atomic_write

        def full(path, data, *args, **kwargs):
            raise OSError(errno.ENOSPC, "No space left on device", path + ".tmp")

        monkeypatch.setattr(ai.chicago, "atomic_write", full)
        r = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})
        assert r.status_code == 503, r.text
        err = r.json()["error"]
        assert err["code"] == "storage" and "No space left on device" in err["message"]
        assert str(tmp_path) not in err["message"] and mid not in err["message"]
        r = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "storage"
        monkeypatch.setattr(ai.chicago, "atomic_write", real)
        assert _same(_snapshot(c, mid), before)
        r = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})
        assert r.status_code == 200 and r.json()["auction"][len(before["auction"])] == \
            {**r.json()["auction"][len(before["auction"])], "seat": "S", "call": "Pass"}


def test_a_result_the_leaderboard_could_not_take_says_why(tmp_path, monkeypatch):
    """The leaderboard failing when the fourth board ends (locked by another program for
    longer than its timeout, a full disk): the state said recorded false with reason
    null, as if nothing had gone wrong; the reason is "leaderboard"."""
    from ai.daily import Leaderboard, LeaderboardFileError

    def broken(self, *args, **kwargs):
        raise LeaderboardFileError(f"{self.path}: cannot write the leaderboard: database "
                                   f"is locked")

    with _client(tmp_path) as c:
        state = c.post("/web/api/matches", json={"mode": "daily", "name": "Cy"}).json()
        monkeypatch.setattr(Leaderboard, "record", broken)
        done = _play_out(c, state)
        assert done["daily"]["recorded"] is False
        assert done["daily"]["reason"] == "leaderboard"
        # the leaderboard usable again: the next request records the result
        monkeypatch.undo()
        again = c.get(f"/web/api/matches/{state['id']}").json()
        assert again["daily"]["recorded"] is True and again["daily"]["reason"] is None
        assert [e["name"] for e in c.get("/web/api/leaderboard").json()["entries"]] == ["Cy"]


def test_a_day_finished_just_before_a_kill_is_recorded_after_the_restart(tmp_path, monkeypatch):
    """The last board is saved, then the result goes on the leaderboard, then the file
    says so: a server killed before the leaderboard never recorded it (the finished match
    was only shown again, "not recorded"): the next request records it.  Killed after the
    leaderboard but before the file, the entry is this match's own, not "already
    played"."""
    import errno

    import ai.chicago
    from ai.daily import Leaderboard
    from ai.web.tables import WebTable

    real_record_daily, real_record = WebTable._record_daily, Leaderboard.record
    monkeypatch.setattr(WebTable, "_record_daily", lambda self: None)   # killed before
    with _client(tmp_path) as c:
        ann = c.post("/web/api/matches", json={"mode": "daily", "name": "Ann"}).json()
        done = _play_out(c, ann)
        assert done["daily"]["recorded"] is None
    monkeypatch.setattr(WebTable, "_record_daily", real_record_daily)
    real_write = ai.chicago.atomic_write
    killed = []

    def record_then_die(self, *args, **kwargs):    # the file is never written again
        out = real_record(self, *args, **kwargs)
        killed.append(True)
        return out

    def write(path, data, *args, **kwargs):
        if killed:
            raise OSError(errno.EIO, "killed")
        return real_write(path, data, *args, **kwargs)

    monkeypatch.setattr(Leaderboard, "record", record_then_die)
    monkeypatch.setattr(ai.chicago, "atomic_write", write)
    with _client(tmp_path) as c:
        bob = c.post("/web/api/matches", json={"mode": "daily", "name": "Bob"}).json()
        _play_out(c, bob)
    assert killed
    monkeypatch.setattr(Leaderboard, "record", real_record)
    monkeypatch.setattr(ai.chicago, "atomic_write", real_write)
    with _client(tmp_path) as c:                       # the restart
        again = c.get(f"/web/api/matches/{ann['id']}").json()
        assert again["daily"]["recorded"] is True, again["daily"]
        again = c.get(f"/web/api/matches/{bob['id']}").json()
        assert again["daily"]["recorded"] is True and again["daily"]["reason"] is None
        assert sorted(e["name"] for e in c.get("/web/api/leaderboard").json()["entries"]) \
            == ["Ann", "Bob"]


def _played(state) -> int:
    """The cards played on the board in progress."""
    if state["phase"] != "play":
        return 0
    return 4 * (state["tricks"]["NS"] + state["tricks"]["EW"]) + len(state["trick"])


def _into_the_play(c, state, cards=6):
    """Play a match (South bids 1NT once, then passes) until ``cards`` cards of the board
    are played and the human is due: a match with calls and cards to lose."""
    mid = state["id"]

    def choose(s):
        bid = any(a["seat"] == "S" and a["call"] != "Pass" for a in s["auction"])
        return "1NT" if not bid and "1NT" in s["legal_calls"] else "Pass"

    for _ in range(200):
        if state["phase"] == "play" and _played(state) >= cards and state["your_turn"]:
            return state
        r = _step(c, mid, state, choose)
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the play was not reached")


def test_a_full_store_drops_the_least_recently_used_match_from_memory_and_loses_nothing(
        tmp_path):
    """With a data directory, a new match beyond ``max_tables`` was refused 503 'busy'
    until matches expired (a day): one client's 500 new matches shut everyone out.  The
    least recently used match is dropped from memory instead; its file stays, and the next
    request reads it back with every call and card made."""
    with _client(tmp_path, max_tables=3) as c:
        store = c.app.state.web_store
        first = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = first["id"]
        state = _into_the_play(c, first)
        before = _snapshot(c, mid)
        assert _same(before, state) and _played(before) >= 6 and len(before["auction"]) >= 4
        others = []
        for _ in range(5):        # past max_tables: each new match drops the oldest one
            r = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})
            assert r.status_code == 200, r.text
            others.append(r.json()["id"])
        assert len(store._tables) <= 3 and mid not in store._tables
        assert (tmp_path / "data" / "matches" / f"{mid}.json").is_file()
        after = _snapshot(c, mid)           # read back from its file
        assert _same(after, before)
        assert mid in store._tables and len(store._tables) <= 3
        r = c.post(f"/web/api/matches/{mid}/card",
                   json={"seat": after["to_act"], "card": after["legal_cards"][0]})
        assert r.status_code == 200, r.text
        now = r.json()
        assert now["auction"] == before["auction"] and now["contract"] == before["contract"]
        assert _played(now) > _played(before) or now["phase"] != "play"
        # the matches dropped later are whole too: every one answers
        for other in others:
            assert c.get(f"/web/api/matches/{other}").status_code == 200


def test_a_match_dropped_from_memory_keeps_the_time_it_was_last_used(tmp_path):
    """A match read (GET) lately but last saved more than a ttl ago must not expire when it
    is dropped from memory: its file's time is brought up to its last use."""
    with _client(tmp_path, max_tables=1, ttl=3600) as c:
        store = c.app.state.web_store
        mid = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()["id"]
        path = tmp_path / "data" / "matches" / f"{mid}.json"
        old = time.time() - 7200
        os.utime(path, (old, old))          # saved two hours ago, read just now
        assert c.get(f"/web/api/matches/{mid}").status_code == 200
        assert c.post("/web/api/matches",
                      json={"mode": "chicago", "level": "easy"}).status_code == 200
        assert mid not in store._tables
        assert time.time() - path.stat().st_mtime < 600
        assert c.get(f"/web/api/matches/{mid}").status_code == 200


def test_a_request_on_a_match_dropped_meanwhile_acts_on_the_match_read_back(
        tmp_path, monkeypatch):
    """A request that found its match just before a new match dropped it from memory, and
    another request that read it back meanwhile and changed it: the first request must act
    on the match as read back (one match, one lock), not on the dropped copy, else the
    second request's call is lost when the first saves."""
    with _client(tmp_path, max_tables=1) as c:
        store = c.app.state.web_store
        state = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()
        mid = state["id"]
        assert state["your_turn"]
        bid = next(x for x in state["legal_calls"] if x != "Pass")
        real_get = store.get
        meanwhile = []

        def get_then_drop(table_id):
            table = real_get(table_id)
            if not meanwhile:
                meanwhile.append(store.new_chicago("easy"))      # drops ``mid`` from memory
                assert table_id not in store._tables
                other = real_get(table_id)                       # another request reads it
                assert other is not table
                with other.lock:
                    other.call(bid)                              # ... and bids
                meanwhile.append(len(other.series.progress.calls))
            return table

        monkeypatch.setattr(store, "get", get_then_drop)
        r = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})
        monkeypatch.setattr(store, "get", real_get)
        after = _snapshot(c, mid)
        made = [a for a in after["auction"] if a["seat"] == "S"]
        assert made and made[0]["call"] == bid, after["auction"]       # the bid is kept
        store.forget(mid)
        assert _same(_snapshot(c, mid), after)             # ... in the file too: one match
        if r.status_code == 200:
            assert len(after["auction"]) > meanwhile[1]
        else:
            assert r.json()["error"]["code"] in ("out_of_turn", "not_auction"), r.text


def test_a_store_in_memory_only_still_refuses_a_match_beyond_max_tables(tmp_path):
    """Without a data directory a match dropped from memory would be lost: a new match
    beyond ``max_tables`` is refused (503 'busy') and the matches held play on."""
    app = create_web_app(data_dir=None, leaderboard=str(tmp_path / "lb.sqlite3"),
                         computer_settings=FAST, deal_seed="mem", max_tables=2)
    with TestClient(app) as c:
        ids = [c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"}).json()["id"]
               for _ in range(2)]
        r = c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
        assert "at most 2" in r.json()["error"]["message"]
        for mid in ids:
            s = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})
            assert s.status_code == 200, s.text
        assert set(app.state.web_store._tables) == set(ids)


def _new(c):
    return c.post("/web/api/matches", json={"mode": "chicago", "level": "easy"})


def test_the_saved_matches_are_bounded_by_max_saved(tmp_path):
    """Matches dropped from memory stay on disk: without a bound one client's new matches
    filled the disk.  Beyond ``max_saved`` files a new match is refused (503 'busy',
    saying why) after a sweep of the expired ones; the matches kept play on."""
    matches = tmp_path / "data" / "matches"
    with _client(tmp_path, max_tables=2, max_saved=3, ttl=3600) as c:
        store = c.app.state.web_store
        store.scan_interval = 0                 # a sweep of the files before every match
        ids = [_new(c).json()["id"] for _ in range(3)]
        r = _new(c)
        assert r.status_code == 503, r.text
        err = r.json()["error"]
        assert err["code"] == "busy" and "3 saved matches (at most 3)" in err["message"]
        assert str(tmp_path) not in err["message"]
        assert sorted(p.stem for p in matches.glob("*.json")) == sorted(ids)
        for mid in ids:                          # held in memory or read back
            r = c.post(f"/web/api/matches/{mid}/call", json={"call": "Pass"})
            assert r.status_code == 200, r.text
        # one match expires (its file two hours old, dropped from memory): room again
        old = time.time() - 7200
        store.forget(ids[0])
        os.utime(matches / f"{ids[0]}.json", (old, old))
        r = _new(c)
        assert r.status_code == 200, r.text
        assert not (matches / f"{ids[0]}.json").exists()
        assert len(list(matches.glob("*.json"))) == 3
        # one held in memory expires: the sweep deletes its file, and counts it
        assert ids[2] in store._tables          # used last (max_tables 2)
        store._tables[ids[2]].last_used -= 7200
        assert _new(c).status_code == 200
        assert not (matches / f"{ids[2]}.json").exists()
        assert _new(c).status_code == 503


def test_the_saved_matches_are_counted_across_a_restart_and_by_the_sweep(tmp_path):
    """The files of a previous run count; a file deleted by hand is noticed at the next
    sweep of the directory (at most every ``scan_interval`` seconds, not at every match)."""
    with _client(tmp_path, max_saved=2) as c:
        ids = [_new(c).json()["id"] for _ in range(2)]
    with _client(tmp_path, max_saved=2) as c:
        store = c.app.state.web_store
        assert _new(c).status_code == 503
        os.unlink(tmp_path / "data" / "matches" / f"{ids[0]}.json")
        assert _new(c).status_code == 503       # swept less than a minute ago
        store.scan_interval = 0
        assert _new(c).status_code == 200
        assert _new(c).status_code == 503


def test_the_data_directory_is_not_listed_for_every_new_match(tmp_path, monkeypatch):
    """The sweep before every new match listed the whole directory (up to ``max_saved``
    files, each one's time read): a cost on every request.  The files are counted when
    made and deleted; the directory is listed at most every ``scan_interval`` seconds."""
    listed = []
    real = os.listdir

    def counting(path="."):
        if os.fspath(path).endswith("matches"):
            listed.append(path)
        return real(path)

    monkeypatch.setattr(os, "listdir", counting)
    with _client(tmp_path) as c:
        for _ in range(5):
            assert _new(c).status_code == 200
    assert len(listed) <= 2, listed          # counted at the start, swept once


def test_max_tables_and_max_saved_are_checked(tmp_path):
    from ai.web.tables import MatchStore

    for bad in ({"max_tables": 0}, {"max_saved": 0}, {"max_saved": -5}):
        with pytest.raises(ValueError, match="at least 1"):
            MatchStore(tmp_path, **bad)


def test_a_match_whose_last_save_failed_is_not_dropped_from_memory(tmp_path, monkeypatch):
    """The boards of the day note their leaderboard record in the match and save it,
    going on when that save fails (a full disk): memory then holds what the file lacks,
    and dropping the match from memory would lose it.  Such a match stays in memory
    until a save succeeds."""
    import errno

    from ai.web.tables import MatchStore

    store = MatchStore(tmp_path / "matches", max_tables=1, leaderboard=tmp_path / "lb.sqlite3",
                       computer_settings=FAST)
    table = store.new_daily("Ann")
    real_save = type(table.series).save

    def full(self, path=None):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(type(table.series), "save", full)
    with table.lock:
        table._record_daily()          # no four results yet: refused, the reason noted
    assert table.series.settings["record_reason"] == "leaderboard"
    monkeypatch.setattr(type(table.series), "save", real_save)
    store.new_chicago("easy")
    assert store._tables.get(table.id) is table       # kept: its file lacks the reason
    with table.lock:
        table.resume()                                # the next GET saves it again
    assert not table.unsaved
    store.new_chicago("easy")
    assert table.id not in store._tables
    assert store.get(table.id).series.settings["record_reason"] == "leaderboard"

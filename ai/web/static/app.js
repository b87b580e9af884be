// The bridge page: plain JavaScript, no build step, no library.  Every text goes through
// t("...") so that `ddsolver-ai translations update` finds it (docs/web.md).
"use strict";
(function () {
  const S = {
    lang: null, messages: {}, languages: [], match: null, id: null,
    view: "start", showAuction: false, busy: false, selected: null,
  };
  const SEATS = ["N", "E", "S", "W"];
  const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const HAND_SUITS = ["S", "H", "C", "D"];
  const $ = (id) => document.getElementById(id);

  function t(msg, args) {
    let s = Object.prototype.hasOwnProperty.call(S.messages, msg) && S.messages[msg]
      ? S.messages[msg] : msg;
    if (args) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
    return s;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // -- words -------------------------------------------------------------------------------
  function seatName(l) {
    return { N: t("North"), E: t("East"), S: t("South"), W: t("West") }[l] || l;
  }
  function seatLetter(l) {
    // TRANSLATORS: one-letter seat names in the auction's header
    return { N: t("N"), E: t("E"), S: t("S"), W: t("W") }[l] || l;
  }
  function suitName(s) {
    return { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") }[s];
  }
  function rankText(r) {
    // TRANSLATORS: rank letters on the cards (ace, king, queen, jack)
    return { A: t("A"), K: t("K"), Q: t("Q"), J: t("J"), T: "10" }[r] || r;
  }
  function vulText(v) {
    return { None: t("Nobody vulnerable"), NS: t("North-South vulnerable"),
      EW: t("East-West vulnerable"), All: t("Both sides vulnerable") }[v] || v;
  }
  function levelName(l) {
    return { easy: t("Easy"), medium: t("Medium"), hard: t("Hard") }[l] || l;
  }
  function cardNode(card, extra) {
    const s = card[0], r = card.slice(1);
    return el("span", Object.assign({ class: "cardtext " + (s === "H" || s === "D" ? "red" : "black") },
      extra || {}), rankText(r) + SUIT_SYMBOL[s]);
  }
  function signed(n) { return n > 0 ? "+" + n : String(n); }

  // -- server --------------------------------------------------------------------------------
  async function api(method, path, body) {
    const sep = path.includes("?") ? "&" : "?";
    const url = S.lang && !/[?&]lang=/.test(path) ? path + sep + "lang=" + encodeURIComponent(S.lang) : path;
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const res = await fetch(url, opts);
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error(data && data.error ? data.error.message : res.statusText);
      err.code = data && data.error ? data.error.code : "http";
      err.status = res.status;
      throw err;
    }
    return data;
  }

  async function loadLanguage(lang) {
    const data = await api("GET", "/web/api/i18n" + (lang ? "?lang=" + encodeURIComponent(lang) : ""));
    S.lang = data.lang;
    S.messages = data.messages;
    S.languages = data.languages;
    document.documentElement.lang = S.lang;
    try { localStorage.setItem("ddsolver.lang", S.lang); } catch (e) { /* private mode */ }
  }

  function saveId(id) {
    S.id = id;
    try {
      if (id) localStorage.setItem("ddsolver.match", id);
      else localStorage.removeItem("ddsolver.match");
    } catch (e) { /* private mode */ }
    const hash = id ? "#m=" + id : "";
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
  }

  function setMessage(text, kind) {
    const m = $("message");
    m.textContent = text || "";
    m.className = "message" + (kind ? " " + kind : "");
  }

  async function act(method, path, body) {
    if (S.busy) return;
    S.busy = true;
    document.body.classList.add("busy");
    setMessage(t("The computers are thinking…"));
    try {
      const data = await api(method, path, body);
      setMessage("");
      show(data);
    } catch (err) {
      if (err.code === "unknown_match") { saveId(null); S.match = null; S.view = "start"; render(); }
      setMessage(err.message, "error");
    } finally {
      S.busy = false;
      document.body.classList.remove("busy");
    }
  }

  function show(match) {
    S.match = match;
    S.view = "game";
    if (match.id) saveId(match.id);
    if (match.phase !== "play") S.showAuction = false;
    announce(match.events || []);
    render();
  }

  function announce(events) {
    const words = events.map((e) => {
      if (e.kind === "call") return seatName(e.seat) + ": " + callText(e.call);
      if (e.kind === "card") {
        const c = e.card;
        return seatName(e.seat) + ": " + rankText(c.slice(1)) + " " + suitName(c[0]);
      }
      return "";
    }).filter(Boolean);
    $("log").textContent = words.join(". ");
  }

  function callText(call) {
    if (call === "Pass") return t("Pass");
    if (call === "X") return t("X");
    if (call === "XX") return t("XX");
    const level = call[0], strain = call.slice(1);
    return level + (strain === "NT" ? t("NT") : SUIT_SYMBOL[strain]);
  }

  // -- rendering -------------------------------------------------------------------------------
  function render() {
    document.title = t("Bridge");
    $("title").textContent = t("Bridge");
    $("btn-home").textContent = S.view === "game" ? t("Menu") : t("Play");
    $("btn-rules").textContent = t("Rules and scoring");
    $("lang-label").textContent = t("Language");
    const sel = $("lang");
    sel.replaceChildren(...S.languages.map((l) => el("option", { value: l.code, selected: l.code === S.lang }, l.name)));
    $("loading").hidden = true;
    $("start").hidden = S.view !== "start";
    $("rules").hidden = S.view !== "rules";
    $("game").hidden = S.view !== "game";
    if (S.view === "start") renderStart();
    else if (S.view === "game" && S.match) renderGame();
  }

  function renderStart() {
    $("start-chicago-h").textContent = t("Chicago");
    $("start-chicago-p").textContent = t("Four boards against the computer. You sit South with a computer partner in North; when your side wins the contract you play North's cards too.");
    $("level-legend").textContent = t("Strength of the computers");
    const saved = (() => { try { return localStorage.getItem("ddsolver.level"); } catch (e) { return null; } })() || "medium";
    const box = $("levels");
    box.querySelectorAll("label").forEach((n) => n.remove());
    for (const l of ["easy", "medium", "hard"]) {
      box.append(el("label", { class: "radio" },
        el("input", { type: "radio", name: "level", value: l, checked: l === saved }),
        " " + levelName(l) + (l === "easy" ? " — " + t("with hints") : "")));
    }
    $("btn-chicago").textContent = t("Play Chicago");
    $("start-daily-h").textContent = t("Boards of the day");
    $("start-daily-p").textContent = t("Four new boards every day, the same for everyone, against medium computers. Your result goes on the leaderboard.");
    $("daily-name-label").textContent = t("Your name");
    $("btn-daily").textContent = t("Play today's boards");
    loadLeaderboard($("leaderboard"));
  }

  async function loadLeaderboard(box, highlight) {
    try {
      const data = await api("GET", "/web/api/leaderboard");
      box.replaceChildren(leaderboardTable(data, highlight));
    } catch (err) {
      box.replaceChildren(el("p", { class: "error" }, err.message));
    }
  }

  function leaderboardTable(data, highlight) {
    const wrap = el("div", { class: "leaderboard" }, el("h3", {}, t("Leaderboard of {date}", { date: data.date })));
    if (!data.entries.length) {
      wrap.append(el("p", {}, t("No results yet today.")));
      return wrap;
    }
    const rows = data.entries.slice(0, 50).map((e) => el("tr",
      { class: highlight && e.name.toLowerCase() === highlight.toLowerCase() ? "me" : null },
      el("td", {}, String(e.rank)), el("td", {}, e.name), el("td", { class: "num" }, signed(e.score))));
    wrap.append(el("table", { id: "leaderboard-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("Name")),
        el("th", { scope: "col", class: "num" }, t("Score")))),
      el("tbody", {}, rows)));
    return wrap;
  }

  async function renderRules() {
    const box = $("rules");
    box.replaceChildren(el("p", {}, "…"));
    try {
      const data = await api("GET", "/web/api/rules");
      const out = [el("h2", {}, t("Rules and scoring"))];
      let list = null;
      for (const s of data.sections) {
        if (s.kind === "li") {
          if (!list) { list = el("ul"); out.push(list); }
          const dot = s.text.indexOf(". ");
          if (dot > 0 && dot < 40) list.append(el("li", {}, el("strong", {}, s.text.slice(0, dot + 1)), s.text.slice(dot + 1)));
          else list.append(el("li", {}, s.text));
          continue;
        }
        list = null;
        out.push(el(s.kind === "h" ? "h3" : "p", {}, s.text));
      }
      out.push(el("button", { type: "button", class: "primary", onclick: () => { S.view = S.match ? "game" : "start"; render(); } }, t("Back")));
      box.replaceChildren(...out);
    } catch (err) {
      box.replaceChildren(el("p", { class: "error" }, err.message));
    }
  }

  function statusLine(m) {
    const parts = [];
    if (m.board) {
      const title = m.mode === "daily" ? t("Boards of the day") : t("Chicago");
      parts.push(el("span", { class: "item strong" }, title + " · " + t("Board {n} of 4", { n: m.board.number })));
      parts.push(el("span", { class: "item" }, t("Dealer: {seat}", { seat: seatName(m.board.dealer) })));
      parts.push(el("span", { class: "item" }, vulText(m.board.vulnerability)));
    }
    if (m.mode === "chicago") {
      const sc = m.score;
      parts.push(el("span", { class: "item", id: "score" }, t("Score: N-S {ns}, E-W {ew}", { ns: sc.NS, ew: sc.EW }) +
        (sc.part_NS || sc.part_EW ? " (" + t("part-scores {ns} / {ew}", { ns: sc.part_NS, ew: sc.part_EW }) + ")" : "")));
    } else {
      parts.push(el("span", { class: "item", id: "score" }, t("Your total: {total}", { total: signed(m.score.total) })));
    }
    if (m.contract) {
      parts.push(el("span", { class: "item strong", id: "contract" }, t("Contract: {contract} by {seat}",
        { contract: m.contract.text, seat: seatName(m.contract.declarer) })));
      parts.push(el("span", { class: "item", id: "tricks" }, t("Tricks: N-S {ns}, E-W {ew}", { ns: m.tricks.NS, ew: m.tricks.EW })));
    }
    parts.push(el("span", { class: "item" }, levelName(m.level)));
    return parts;
  }

  function renderGame() {
    const m = S.match;
    $("status").replaceChildren(...statusLine(m));
    const playing = m.phase === "auction" || m.phase === "play";
    $("table").hidden = !playing;
    if (playing) {
      for (const seat of SEATS) renderSeat(seat);
      renderCenter();
    }
    renderControls();
  }

  function seatRole(seat) {
    const m = S.match, roles = [];
    if (m.board && m.board.dealer === seat && m.phase === "auction") roles.push(t("dealer"));
    if (m.contract) {
      if (m.contract.declarer === seat) roles.push(t("declarer"));
      if (m.contract.dummy === seat) roles.push(t("dummy"));
    }
    if (seat === "S") roles.push(t("you"));
    else if (seat === "N") roles.push(t("partner"));
    return roles;
  }

  function renderSeat(seat) {
    const m = S.match;
    const box = $("seat-" + seat);
    const head = el("div", { class: "seat-name" + (m.to_act === seat ? " to-act" : "") },
      seatName(seat), el("span", { class: "roles" }, seatRole(seat).join(", ")));
    const cards = m.hands && m.hands[seat];
    const children = [head];
    if (cards) children.push(handNode(seat, cards));
    else if (m.phase === "play" || m.phase === "auction") children.push(el("div", { class: "hidden-hand", "aria-hidden": "true" }, "🂠"));
    box.replaceChildren(...children);
  }

  function handNode(seat, cards) {
    const m = S.match;
    const controls = m.phase === "play" && m.controls && m.controls.includes(seat);
    const due = controls && m.your_turn && m.to_act === seat;
    const legal = new Set(due ? m.legal_cards || [] : []);
    const rows = [];
    for (const s of HAND_SUITS) {
      const mine = cards.filter((c) => c[0] === s);
      const row = el("div", { class: "suit-row" }, el("span", { class: "suit " + (s === "H" || s === "D" ? "red" : "black"), "aria-hidden": "true" }, SUIT_SYMBOL[s]));
      if (!mine.length) row.append(el("span", { class: "void" }, "—"));
      for (const c of mine) {
        const label = rankText(c.slice(1)) + " " + suitName(s);
        if (controls) {
          const ok = legal.has(c);
          row.append(el("button", {
            type: "button", class: "card " + (ok ? "legal" : "illegal"), "data-card": c, "data-seat": seat,
            "aria-label": label, "aria-disabled": ok ? "false" : "true",
            onclick: () => playCard(seat, c, ok),
          }, cardNode(c)));
        } else {
          row.append(el("span", { class: "card static", "aria-label": label, "data-card": c }, cardNode(c)));
        }
      }
      rows.push(row);
    }
    return el("div", { class: "hand" + (due ? " due" : ""), "data-hand": seat }, rows);
  }

  function playCard(seat, card, ok) {
    const m = S.match;
    if (!ok) {
      if (!m.your_turn || m.to_act !== seat) setMessage(t("It is not {seat}'s turn to play.", { seat: seatName(seat) }), "error");
      else setMessage(t("You must follow suit."), "error");
      return;
    }
    act("POST", "/web/api/matches/" + S.id + "/card", { seat, card });
  }

  function auctionTable(calls, dealer, clickable) {
    const order = ["W", "N", "E", "S"];
    const head = el("tr", {}, order.map((s) => el("th", { scope: "col" }, seatLetter(s))));
    const rows = [];
    let row = [];
    const start = order.indexOf(dealer);
    for (let i = 0; i < start; i++) row.push(el("td", {}));
    calls.forEach((c, i) => {
      const content = clickable
        ? el("button", { type: "button", class: "call" + (c.explanation && c.explanation.alert ? " alert" : "") + (S.selected === i ? " selected" : ""),
          "data-index": String(i), "aria-label": seatName(c.seat) + ": " + c.text + ". " + t("What does it mean?"),
          onclick: () => { S.selected = i; explain(c); renderCenter(); } }, c.text)
        : c.text;
      row.push(el("td", {}, content));
      if (row.length === 4) { rows.push(el("tr", {}, row)); row = []; }
    });
    if (row.length) rows.push(el("tr", {}, row));
    return el("table", { class: "auction", id: clickable ? "auction" : null },
      el("caption", { class: "sr-only" }, t("Auction")), el("thead", {}, head), el("tbody", {}, rows));
  }

  function explain(c) {
    const e = c.explanation;
    const box = $("explanation");
    if (!e) { box.replaceChildren(); return; }
    const items = e.hand.map((h) => el("li", {}, h));
    box.replaceChildren(el("div", { class: "panel explain", id: "explain-panel" },
      el("h3", {}, c.text + " — " + seatName(c.seat)),
      el("p", { class: "meaning" }, e.name && e.description ? e.name + ": " + e.description : (e.description || e.name)),
      items.length ? el("ul", {}, items) : null,
      el("p", { class: "forcing" }, e.forcing_text + (e.alert ? " · " + t("alert") : "") + (e.in_system ? "" : " · " + t("not in the system"))),
      el("button", { type: "button", class: "link", onclick: () => { S.selected = null; box.replaceChildren(); renderCenter(); } }, t("Close"))));
  }

  function renderCenter() {
    const m = S.match;
    const box = $("center");
    if (m.phase === "auction" || S.showAuction) {
      box.replaceChildren(auctionTable(m.auction, m.board.dealer, true),
        el("p", { class: "tip" }, t("Tap a call in the auction to read what it means.")));
      return;
    }
    const trick = m.trick && m.trick.length ? m.trick : null;
    const shown = trick || m.last_trick;
    const spots = {};
    for (const [seat, card] of shown || []) spots[seat] = card;
    const cells = SEATS.map((seat) => el("div", { class: "spot spot-" + seat, "data-spot": seat },
      spots[seat] ? cardNode(spots[seat], { "data-played": spots[seat] }) : ""));
    const caption = trick ? "" : (m.last_trick ? t("Last trick") : "");
    const lead = m.opening_lead && !m.last_trick && !trick ? "" : "";
    box.replaceChildren(el("div", { class: "trick" + (trick ? "" : " old") }, cells),
      el("p", { class: "tip" }, caption + lead));
  }

  function renderControls() {
    const m = S.match;
    const box = $("controls");
    const out = [];
    if (m.phase === "auction") {
      if (m.your_turn) out.push(biddingBox(m.legal_calls || []));
    } else if (m.phase === "play") {
      if (m.your_turn) {
        out.push(el("p", { class: "prompt" }, m.to_act === "S" ? t("Your turn: play a card from your hand.") :
          t("Your turn: play a card from {seat}'s hand.", { seat: seatName(m.to_act) })));
      }
      out.push(el("button", { type: "button", id: "btn-auction", "aria-pressed": S.showAuction ? "true" : "false",
        onclick: () => { S.showAuction = !S.showAuction; renderGame(); } }, S.showAuction ? t("Show the trick") : t("Auction")));
      if (m.opening_lead) {
        out.push(el("p", { class: "small" }, t("Opening lead: {card} by {seat}",
          { card: rankText(m.opening_lead[1].slice(1)) + SUIT_SYMBOL[m.opening_lead[1][0]], seat: seatName(m.opening_lead[0]) })));
      }
    } else if (m.phase === "between") {
      out.push(resultPanel(m.last, true));
      out.push(el("button", { type: "button", class: "primary", id: "btn-next",
        onclick: () => act("POST", "/web/api/matches/" + S.id + "/next") }, t("Next board")));
    } else if (m.phase === "over") {
      out.push(finalPanel(m));
    }
    if ((m.phase === "auction" || m.phase === "play") && m.level === "easy" && m.your_turn) {
      out.push(el("div", { class: "hint" }, el("button", { type: "button", id: "btn-hint", onclick: hint }, t("Hint")),
        el("span", { id: "hint-text" })));
    }
    box.replaceChildren(...out);
  }

  function biddingBox(legal) {
    const ok = new Set(legal);
    const rows = [];
    for (let level = 1; level <= 7; level++) {
      const row = el("div", { class: "bid-row" });
      for (const s of ["C", "D", "H", "S", "NT"]) {
        const call = level + s;
        row.append(el("button", { type: "button", class: "bid" + (s === "H" || s === "D" ? " red" : ""), "data-call": call,
          disabled: !ok.has(call), onclick: () => makeCall(call) }, callText(call)));
      }
      rows.push(row);
    }
    const special = el("div", { class: "bid-row special" },
      ["Pass", "X", "XX"].map((c) => el("button", { type: "button", class: "bid " + c.toLowerCase(), "data-call": c,
        disabled: !ok.has(c), onclick: () => makeCall(c) }, c === "Pass" ? t("Pass") : c === "X" ? t("Double") : t("Redouble"))));
    return el("div", { class: "bidding-box", role: "group", "aria-label": t("Bidding box") }, special, rows);
  }

  function makeCall(call) {
    S.selected = null;
    $("explanation").replaceChildren();
    act("POST", "/web/api/matches/" + S.id + "/call", { call });
  }

  async function hint() {
    const box = $("hint-text");
    try {
      const h = await api("POST", "/web/api/matches/" + S.id + "/hint");
      if (h.call) {
        box.textContent = t("Suggested call: {call}", { call: h.call_text }) + " — " + h.explanation.text;
      } else {
        box.textContent = t("Suggested card: {card}", { card: rankText(h.card.slice(1)) + SUIT_SYMBOL[h.card[0]] });
        const b = document.querySelector(`button.card[data-card="${h.card}"][data-seat="${h.seat}"]`);
        if (b) b.classList.add("suggested");
      }
    } catch (err) {
      box.textContent = err.message;
    }
  }

  function resultPanel(r, withHands) {
    if (!r) return el("p", {});
    const lines = [el("h3", {}, t("Board {n} is over", { n: r.board }))];
    if (r.passed_out) {
      lines.push(el("p", {}, t("All four players passed: the board is passed out.") +
        (S.match.mode === "chicago" ? " " + t("The same dealer deals again.") : "")));
    } else {
      const need = 6 + parseInt(r.contract[0], 10);
      const made = r.tricks - need;
      const res = made >= 0 ? (made === 0 ? t("made exactly") : made === 1 ? t("made with an overtrick")
        : t("made with {n} overtricks", { n: made }))
        : t("down {n}", { n: -made });
      lines.push(el("p", { id: "result" }, t("{contract} by {seat}: tricks {tricks}, {result}.",
        { contract: r.contract_text, seat: seatName(r.declarer), tricks: r.tricks, result: res })));
    }
    if (r.points) lines.push(el("p", {}, t("Chicago points: N-S {ns}, E-W {ew}", { ns: r.points.NS, ew: r.points.EW })));
    else lines.push(el("p", {}, t("Score for N-S: {score}", { score: signed(r.score) })));
    if (withHands) {
      lines.push(el("div", { class: "deal" }, SEATS.map((s) => el("div", { class: "deal-hand deal-" + s },
        el("div", { class: "seat-name" }, seatName(s)), handNode(s, r.hands[s])))));
      lines.push(auctionTable(r.auction, r.dealer, false));
    }
    return el("div", { class: "panel result" }, lines);
  }

  function finalPanel(m) {
    const out = [el("h2", {}, t("The match is over"))];
    const rows = m.boards.map((b) => el("tr", {},
      el("td", {}, String(b.board)),
      el("td", {}, b.passed_out ? t("passed out") : t("{contract} by {seat}", { contract: b.contract_text, seat: seatName(b.declarer) })),
      el("td", { class: "num" }, b.passed_out ? "" : String(b.tricks)),
      el("td", { class: "num" }, b.points ? String(b.points.NS) : signed(b.score)),
      b.points ? el("td", { class: "num" }, String(b.points.EW)) : null));
    const head = el("tr", {}, el("th", { scope: "col" }, t("Board")), el("th", { scope: "col" }, t("Contract")),
      el("th", { scope: "col", class: "num" }, t("Tricks")),
      el("th", { scope: "col", class: "num" }, m.mode === "chicago" ? t("N-S") : t("Score")),
      m.mode === "chicago" ? el("th", { scope: "col", class: "num" }, t("E-W")) : null);
    out.push(el("table", { class: "boards" }, el("thead", {}, head), el("tbody", {}, rows)));
    if (m.mode === "chicago") {
      out.push(el("p", {}, t("Totals: N-S {ns}, E-W {ew}", { ns: m.final.NS, ew: m.final.EW })));
      out.push(el("p", { class: "final", id: "final-score" }, t("Your final score: {score}", { score: m.final.yours })));
      out.push(el("p", { class: "small" }, t("Your side's points minus the other side's, never below zero.")));
    } else {
      out.push(el("p", { class: "final", id: "final-score" }, t("Your score today: {score}", { score: signed(m.final.total) })));
      const d = m.daily;
      if (d.practice) out.push(el("p", {}, t("Practice: the result is not on the leaderboard.")));
      else if (d.recorded) out.push(el("p", { id: "recorded" }, t("Your result is on the leaderboard.")));
      else if (d.reason === "already_played") out.push(el("p", {}, t("This name already has a result on today's leaderboard: this one is not recorded.")));
      else out.push(el("p", {}, t("The result could not be recorded.")));
      const box = el("div", {});
      out.push(box);
      loadLeaderboard(box, d.name);
    }
    out.push(el("button", { type: "button", class: "primary", id: "btn-new", onclick: () => { saveId(null); S.match = null; S.view = "start"; render(); } }, t("New match")));
    return el("div", { class: "panel final-panel" }, out);
  }

  // -- wiring -----------------------------------------------------------------------------------
  function level() {
    const r = document.querySelector("input[name=level]:checked");
    return r ? r.value : "medium";
  }

  async function startChicago() {
    const l = level();
    try { localStorage.setItem("ddsolver.level", l); } catch (e) { /* private mode */ }
    await act("POST", "/web/api/matches", { mode: "chicago", level: l });
  }

  async function startDaily(ev) {
    ev.preventDefault();
    const name = $("daily-name").value.trim();
    $("start-error").textContent = "";
    if (!name) { $("start-error").textContent = t("Please enter your name."); return; }
    try {
      S.busy = true;
      const data = await api("POST", "/web/api/matches", { mode: "daily", name });
      show(data);
    } catch (err) {
      $("start-error").textContent = err.message;
    } finally {
      S.busy = false;
    }
  }

  async function init() {
    $("btn-chicago").addEventListener("click", startChicago);
    $("daily-form").addEventListener("submit", startDaily);
    $("btn-rules").addEventListener("click", () => { S.view = "rules"; render(); renderRules(); });
    $("btn-home").addEventListener("click", () => {
      S.view = S.view === "game" ? "start" : (S.match ? "game" : "start");
      render();
    });
    $("lang").addEventListener("change", async (ev) => {
      await loadLanguage(ev.target.value);
      if (S.view === "rules") renderRules();
      if (S.id && S.match) {
        try { S.match = await api("GET", "/web/api/matches/" + S.id); } catch (e) { /* keep */ }
      }
      render();
    });
    let stored = null;
    try { stored = localStorage.getItem("ddsolver.lang"); } catch (e) { /* private mode */ }
    const params = new URLSearchParams(location.search);
    await loadLanguage(params.get("lang") || stored || null);
    let id = null;
    const m = /^#m=([A-Za-z0-9_-]{16,64})$/.exec(location.hash);
    if (m) id = m[1];
    else { try { id = localStorage.getItem("ddsolver.match"); } catch (e) { id = null; } }
    if (id) {
      S.id = id;
      try {
        show(await api("GET", "/web/api/matches/" + id));
        return;
      } catch (err) {
        saveId(null);
      }
    }
    S.view = "start";
    render();
  }

  document.addEventListener("DOMContentLoaded", () => {
    init().catch((err) => { $("loading").textContent = String(err.message || err); });
  });
})();

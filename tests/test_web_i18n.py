"""The page's languages: explanations composed from the structured meaning in en, de, es, vi,
the catalogs complete, a language added without code."""

import os
import random
import shutil

import pytest

from ai.bidding import StandardAmerican, bid_deal
from ai.web.content import RULES, rules_in
from ai.web.i18n import (
    available_languages,
    missing_translations,
    negotiate,
    template_catalog,
    translations,
    update_catalogs,
)
from ai.web.meaning import Localizer, call_text, explain_in
from ddsolver.auction import Auction
from ddsolver.deal import random_deal

LANGS = ("en", "de", "es", "vi")
SA = StandardAmerican()


def _exp(dealer, calls, call):
    return SA.explain(Auction(dealer, calls), call)


# The same bid in the four languages, on worked auctions: each part (rule name, meaning,
# hand, forcing) comes from the catalog or a per-language template.
WORKED = {
    "stayman": (("N", ["1NT", "Pass"], "2C"), {
        "en": "Stayman: asks for a four-card major; 8+ HCP; forcing",
        "de": "Stayman: fragt nach einer Vierer-Oberfarbe; 8+ Punkte; forcierend",
        "es": "Stayman: pregunta por un mayor de cuatro cartas; 8+ puntos H; forzante",
        "vi": "Stayman: hỏi có chất cao bốn lá không; 8+ điểm; bắt buộc",
    }),
    "transfer": (("N", ["1NT", "Pass"], "2H"), {
        "en": "Jacoby transfer: shows five or more ♠; asks opener to bid ♠; 5+ ♠; forcing; "
              "alert",
        "de": "Jacoby-Transfer: zeigt fünf oder mehr ♠; der Eröffner soll ♠ bieten; 5+ ♠; "
              "forcierend; Alert",
        "es": "Transferencia Jacoby: muestra cinco o más ♠; pide al abridor declarar ♠; "
              "5+ ♠; forzante; alerta",
        "vi": "Chuyển Jacoby: cho thấy từ năm lá ♠; nhờ người mở xướng ♠; 5+ lá ♠; bắt buộc; "
              "cảnh báo (alert)",
    }),
    "takeout double": (("N", ["1H"], "X"), {
        "en": "Takeout double: asks partner to bid one of the other suits; or Strong double: "
              "too strong for an overcall; will bid again; 12+ HCP; forcing",
        "de": "Informationskontra: bittet den Partner, eine der anderen Farben zu bieten; "
              "oder Starkes Kontra: zu stark für eine Gegenreizung; bietet wieder; "
              "12+ Punkte; forcierend",
        "es": "Doblo informativo: pide al compañero declarar uno de los otros palos; "
              "o Doblo fuerte: demasiado fuerte para intervenir; volverá a declarar; "
              "12+ puntos H; forzante",
        "vi": "Đối takeout: nhờ đồng đội xướng một trong các chất còn lại; hoặc Đối mạnh: "
              "quá mạnh để chen; sẽ xướng tiếp; 12+ điểm; bắt buộc",
    }),
    "blackwood answer": (("N", ["1S", "Pass", "3S", "Pass", "4NT", "Pass"], "5D"), {
        "en": "Blackwood answer: one ace; 1 ace; non-forcing",
        "de": "Blackwood-Antwort: ein Ass; 1 Ass; nicht forcierend",
        "es": "Respuesta a Blackwood: un as; 1 as; no forzante",
        "vi": "Đáp Blackwood: một lá át; 1 lá át; không bắt buộc",
    }),
}


@pytest.mark.parametrize("case", sorted(WORKED))
@pytest.mark.parametrize("lang", LANGS)
def test_worked_auctions_in_four_languages(case, lang):
    (dealer, calls, call), texts = WORKED[case]
    exp = _exp(dealer, calls, call)
    out = explain_in(exp, lang)
    assert out["text"] == texts[lang]
    # the structured parts travel with the text
    assert out["forcing"] == exp.forcing.value
    assert out["constraints"] == exp.constraints.to_dict()
    assert out["in_system"] is True


def test_blackwood_answers_name_the_aces_in_each_language():
    calls = ["1S", "Pass", "3S", "Pass", "4NT", "Pass"]
    expect = {"5C": ("0 or 4 aces", "0 oder 4 Asse", "0 o 4 ases", "0 hoặc 4 lá át"),
              "5H": ("2 aces", "2 Asse", "2 ases", "2 lá át"),
              "5S": ("3 aces", "3 Asse", "3 ases", "3 lá át")}
    for call, words in expect.items():
        exp = _exp("N", calls, call)
        for lang, word in zip(LANGS, words):
            assert explain_in(exp, lang)["hand"] == [word]


def test_calls_in_each_language():
    assert [call_text("3NT", x) for x in LANGS] == ["3NT", "3SA", "3SA", "3SA"]
    assert [call_text("Pass", x) for x in LANGS] == ["Pass", "Passe", "Paso", "Bỏ qua"]
    assert [call_text("X", x) for x in LANGS] == ["Double", "Kontra", "Doblo", "Đối"]
    assert [call_text("XX", x) for x in LANGS] == ["Redouble", "Rekontra", "Redoblo",
                                                   "Tái đối"]
    assert call_text("4H", "de") == "4♥"


def test_a_natural_call_outside_the_system():
    exp = _exp("N", ["1NT", "Pass"], "7C")
    assert not exp.in_system
    texts = {x: explain_in(exp, x)["text"] for x in LANGS}
    assert texts["en"] == exp.text
    assert texts["de"].startswith("nicht im System; 7♣: natürlich; zeigt ♣")


def _auctions(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        deal = random_deal(rng)
        dealer = rng.choice("NESW")
        yield bid_deal(deal, dealer, rng.choice(["None", "NS", "EW", "All"]), SA), rng


def test_english_composition_is_the_systems_own_text():
    """The per-language composition, run in English, gives exactly the bidding system's
    sentence: the parts carry the whole meaning."""
    checked = 0
    for auction, rng in _auctions(25, 11):
        for exp in SA.explain_all(auction):
            assert explain_in(exp, "en")["text"] == exp.text
            checked += 1
        prefix = Auction(auction.dealer, auction.calls[:rng.randrange(len(auction.calls))])
        for call in prefix.legal_calls():
            exp = SA.explain(prefix, call)
            assert explain_in(exp, "en")["text"] == exp.text
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("lang", ["de", "es", "vi"])
def test_every_explanation_of_real_auctions_is_translated(lang):
    loc = Localizer(lang)
    for auction, rng in _auctions(20, 5):
        for exp in SA.explain_all(auction):
            loc.explanation(exp)
        prefix = Auction(auction.dealer, auction.calls[:rng.randrange(len(auction.calls))])
        for call in prefix.legal_calls():
            loc.explanation(SA.explain(prefix, call))
    assert not loc.missing, f"{lang} lacks {sorted(set(loc.missing))}"


def test_every_message_is_translated_in_every_language():
    """Every message the page and the bidding system can produce (the extracted template)
    has a checked translation in each catalog; the failure lists what is missing."""
    template = template_catalog()
    assert len(template) > 300
    missing = []
    for lang in available_languages():
        missing += missing_translations(lang, template)
    assert not missing, "missing translations (run `ddsolver-ai translations check`):\n" \
        + "\n".join(missing)


def test_the_languages_of_our_users_are_available():
    assert available_languages()[:1] == ["en"]
    assert {"de", "es", "vi"} <= set(available_languages())


def test_negotiation_from_accept_language():
    langs = ["en", "de", "es", "vi"]
    assert negotiate("de-AT,de;q=0.9,en;q=0.5", langs) == "de"
    assert negotiate("fr-FR,fr;q=0.9,es;q=0.4,en;q=0.3", langs) == "es"
    assert negotiate("vi-VN", langs) == "vi"
    assert negotiate("en;q=0.1, vi;q=0.9", langs) == "vi"
    assert negotiate("fr, ja", langs) == "en"
    assert negotiate("", langs) == "en"
    assert negotiate(None, langs) == "en"
    assert negotiate("de;q=0, es;q=abc, ,;;", langs) == "en"
    assert negotiate("x" * 5000, langs) == "en"


def test_bad_language_code_is_refused():
    with pytest.raises(ValueError):
        translations("../../etc")


def test_rules_page_in_each_language():
    en = rules_in("en")
    assert [s["text"] for s in en] == [text for _, text in RULES]
    for lang in ("de", "es", "vi"):
        out = rules_in(lang)
        assert [s["kind"] for s in out] == [s["kind"] for s in en]
        assert all(a["text"] != b["text"] for a, b in zip(out, en) if len(b["text"]) > 12)
    assert any("Tippe ein Gebot in der Reizung an" in s["text"] for s in rules_in("de"))


def test_a_language_is_added_without_touching_code(tmp_path):
    """init/update work on a copy of the catalogs: a new language appears, the existing
    translations survive an update."""
    from ai.web import i18n
    base = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, base)
    written = update_catalogs(str(base), new=["fr"])
    assert str(base / "fr" / "LC_MESSAGES" / "ddsolver.po") in written
    assert "fr" in available_languages(str(base))
    template = template_catalog()
    assert missing_translations("de", template, str(base)) == []
    fr_missing = missing_translations("fr", template, str(base))
    assert len(fr_missing) == len([m for m in template if m.id])
    assert translations("fr", str(base)).gettext("North") == "North"
    with pytest.raises(ValueError):
        update_catalogs(str(base), new=["../x"])
    assert not os.path.exists(tmp_path / "x")


def _snapshot(base):
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("lang, reason", [
    ("zz_INVALID!!", "not a language code"), ("../x", "not a language code"),
    ("de\n", "not a language code"), ("fr\n", "not a language code"),
    ("de", "de already has a catalog"), ("en", "en is the source language")])
def test_init_refuses_a_bad_or_existing_language_before_writing(tmp_path, monkeypatch,
                                                                 lang, reason):
    """``translations init`` checks its argument first: a bad code, English or a language
    with a catalog exits 2 with the reason and writes nothing (the template was rewritten
    before the code was checked, and an existing language's catalogs silently rewritten).
    The command runs on a copy of the catalogs, so the tracked files stay as they are."""
    from click.testing import CliRunner

    from ai.web import i18n
    base = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, base)
    monkeypatch.setattr(i18n, "LOCALE_DIR", str(base))
    before = _snapshot(base)
    run = CliRunner().invoke(i18n.translations_command, ["init", lang])
    assert run.exit_code == 2, run.output
    assert f"Error: Invalid value for LANG: {reason}" in run.output
    assert ("translations update" in run.output) == (lang == "de")
    assert _snapshot(base) == before
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match=reason):
        update_catalogs(str(base), new=[lang])
    assert _snapshot(base) == before


def test_init_starts_a_new_language(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from ai.web import i18n
    base = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, base)
    monkeypatch.setattr(i18n, "LOCALE_DIR", str(base))
    run = CliRunner().invoke(i18n.translations_command, ["init", "fr"])
    assert run.exit_code == 0, run.output
    assert str(base / "fr" / "LC_MESSAGES" / "ddsolver.po") in run.output
    assert "fr" in available_languages(str(base))
    # a second init of the same language is refused
    again = CliRunner().invoke(i18n.translations_command, ["init", "fr"])
    assert again.exit_code == 2 and "fr already has a catalog" in again.output

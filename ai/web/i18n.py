"""Languages of the page: gettext catalogs read with Babel at run time (no build step).

Layout (GNU gettext's, so that any PO editor works on it)::

    ai/locale/ddsolver.pot                     the template: every message, in English
    ai/locale/<lang>/LC_MESSAGES/ddsolver.po   one catalog per language (de, es, vi, ...)

English is the source language: its messages are the ``msgid`` strings themselves.  A
language is available when its ``.po`` file exists; the server finds it at start-up, so a
translator adds a language without touching code::

    ddsolver-ai translations init fr      # ai/locale/fr/LC_MESSAGES/ddsolver.po from the template
    (translate the msgstr lines with any PO editor)
    ddsolver-ai translations check        # lists what is still missing, per language

``ddsolver-ai translations update`` re-extracts the template after the code changed (new
rules of the bidding system, new words on the page) and merges it into every catalog,
keeping the translations (changed messages are marked fuzzy and count as missing until a
translator checks them).

Where the messages come from (:func:`template_catalog`):

* the page's JavaScript (``ai/web/static/*.js``): calls of ``t("...")``;
* this package's Python (``ai/web/*.py``): ``_("...")``, ``N_("...")``,
  ``ngettext("...", "...", n)``;
* the bidding system (:data:`ai.bidding.sa.ALL_RULES`): every rule's name and meaning
  (meanings keep their suit placeholders ``{M}``, ``{x}``, ... which stand for a suit
  symbol), and the natural readings of :func:`ai.bidding.system.natural_explanation`
  (:data:`NATURAL_MEANINGS`).

Placeholders are Python format fields (``{n}``, ``{lo}``); a translation must keep the same
fields (checked by :func:`missing_translations`).
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
from typing import Dict, Iterable, List, Optional, Tuple

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "NATURAL_MEANINGS",
    "SOURCE_LANGUAGE",
    "N_",
    "available_languages",
    "language_names",
    "missing_translations",
    "negotiate",
    "system_messages",
    "template_catalog",
    "translations",
    "translations_command",
]

#: The gettext domain (the catalogs' file name).
DOMAIN = "ddsolver"
#: The language of the msgids.
SOURCE_LANGUAGE = "en"
#: Where the catalogs live (inside the package, shipped in the wheel).
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "locale")
_WEB_DIR = os.path.dirname(os.path.abspath(__file__))
_LANG_RE = re.compile(r"\A[a-z]{2,3}(_[A-Z]{2})?\Z")   # \Z, not $: "fr" and a line end is no code


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


#: The natural readings the bidding system gives a call it does not make
#: (:func:`ai.bidding.system.natural_explanation`); ``{suit}`` stands for a suit symbol.
NATURAL_MEANINGS = (
    N_("natural; no particular meaning here"),
    N_("natural; for penalty"),
    N_("natural; expects to make the contract"),
    N_("natural; suggests notrump"),
    N_("natural in an opponent's suit ({suit})"),
    N_("natural; shows {suit}"),
)


# --------------------------------------------------------------------------------------
# Catalogs at run time
# --------------------------------------------------------------------------------------

def _po_path(lang: str, locale_dir: Optional[str] = None) -> str:
    return os.path.join(locale_dir or LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.po")


def available_languages(locale_dir: Optional[str] = None) -> List[str]:
    """The languages the page speaks: English and every language with a catalog, sorted
    (English first)."""
    base = locale_dir or LOCALE_DIR
    found = []
    if os.path.isdir(base):
        for name in os.listdir(base):
            if _LANG_RE.match(name) and os.path.isfile(_po_path(name, base)):
                found.append(name)
    return [SOURCE_LANGUAGE] + sorted(x for x in found if x != SOURCE_LANGUAGE)


@functools.lru_cache(maxsize=None)
def language_names(languages: Tuple[str, ...]) -> Dict[str, str]:
    """Each language's name in itself ("Deutsch", "Tiếng Việt"), from Babel's CLDR data."""
    from babel import Locale, UnknownLocaleError
    out = {}
    for lang in languages:
        try:
            name = Locale.parse(lang).get_display_name(lang) or lang
        except (UnknownLocaleError, ValueError):
            name = lang
        out[lang] = name[:1].upper() + name[1:]
    return out


@functools.lru_cache(maxsize=32)
def _load(lang: str, locale_dir: Optional[str]) -> gettext.NullTranslations:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    path = _po_path(lang, locale_dir)
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)   # fuzzy (unchecked) entries are not used
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def translations(lang: str, locale_dir: Optional[str] = None) -> gettext.NullTranslations:
    """The translations of ``lang`` (``gettext`` / ``ngettext`` methods); English, or a
    language without a catalog, gives the msgids unchanged.

    :raises ValueError: for a language code that is not of the form ``de`` or ``pt_BR``.
    """
    if not isinstance(lang, str) or not _LANG_RE.match(lang):
        raise ValueError(f"not a language code: {lang!r}")
    if lang != SOURCE_LANGUAGE and not os.path.isfile(_po_path(lang, locale_dir)):
        return gettext.NullTranslations()
    return _load(lang, locale_dir)


def negotiate(accept_language: Optional[str], available: Iterable[str]) -> str:
    """The best available language for an HTTP ``Accept-Language`` header (RFC 9110
    section 12.5.4: quality values, then order), English when none fits.

    >>> negotiate("de-CH,de;q=0.9,en;q=0.8", ["en", "de", "es", "vi"])
    'de'
    >>> negotiate("fr-FR, vi;q=0.5", ["en", "de", "es", "vi"])
    'vi'
    """
    available = list(available)
    wanted = []
    for i, item in enumerate((accept_language or "")[:1000].split(",")[:40]):
        parts = item.strip().split(";")
        tag = parts[0].strip().lower()
        q = 1.0
        for p in parts[1:]:
            p = p.strip()
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            wanted.append((-q, i, tag))
    for _, _, tag in sorted(wanted):
        primary = tag.replace("_", "-").split("-")[0]
        for lang in available:
            if lang.lower().replace("_", "-") == tag or lang.split("_")[0] == primary:
                return lang
    return SOURCE_LANGUAGE


# --------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------

def system_messages(system=None) -> List[Tuple[str, str]]:
    """``(msgid, comment)`` of every message the bidding system can put in an explanation:
    each rule's name and meaning, and the natural readings (:data:`NATURAL_MEANINGS`).

    :param system: a :class:`~ai.bidding.BiddingSystem` (default
        :class:`~ai.bidding.StandardAmerican`).
    """
    if system is None:
        from ai.bidding import StandardAmerican
        system = StandardAmerican()
    out: Dict[str, str] = {}
    for rule in tuple(system.rules) + tuple(system.defaults):
        out.setdefault(rule.name, "bidding: the name of a rule of the bidding system")
        if rule.meaning:
            note = "bidding: what a call of this rule means"
            if re.search(r"\{[A-Za-z]\}", rule.meaning):
                note += ("; {M}, {m}, {O}, {x}, {y}, {z}, {w} stand for a suit symbol "
                         "(keep them)")
            out.setdefault(rule.meaning, note)
    for m in NATURAL_MEANINGS:
        out.setdefault(m, "bidding: the natural reading of a call the system does not "
                          "make; {suit} is a suit symbol")
    return list(out.items())


def _extract_files(catalog, directory: str, suffix: str, method: str, keywords) -> None:
    from babel.messages.extract import extract
    for name in sorted(os.listdir(directory)):
        if not name.endswith(suffix):
            continue
        path = os.path.join(directory, name)
        rel = os.path.relpath(path, os.path.dirname(LOCALE_DIR)).replace(os.sep, "/")
        with open(path, "rb") as fh:
            for lineno, message, comments, context in extract(
                    method, fh, keywords=keywords, comment_tags=("TRANSLATORS:",),
                    strip_comment_tags=True):
                catalog.add(message, None, [(f"ai/{rel}", lineno)],
                            auto_comments=comments, context=context)


def template_catalog():
    """The template (a Babel :class:`~babel.messages.catalog.Catalog`) of every message of
    the page: see the module docstring for the sources."""
    from babel.messages.catalog import Catalog
    catalog = Catalog(project="ddsolver", domain=DOMAIN, charset="utf-8",
                      msgid_bugs_address="", copyright_holder="the ddsolver authors",
                      fuzzy=False)
    _extract_files(catalog, _WEB_DIR, ".py", "python",
                   {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)})
    static = os.path.join(_WEB_DIR, "static")
    if os.path.isdir(static):
        _extract_files(catalog, static, ".js", "javascript", {"t": None})
    for msgid, note in system_messages():
        if msgid not in catalog:
            catalog.add(msgid, None, [("ai/bidding/sa", 0)], auto_comments=[note])
        else:
            catalog[msgid].auto_comments.append(note)
    return catalog


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _fields(text: str) -> set:
    return set(_FIELD.findall(text))


def missing_translations(lang: str, template=None,
                         locale_dir: Optional[str] = None) -> List[str]:
    """The messages of ``template`` (default :func:`template_catalog`) that ``lang`` does
    not translate: no entry, an empty or fuzzy translation, or a translation whose format
    fields differ from the msgid's (each line says which).  Empty for English."""
    from babel.messages.pofile import read_po
    if lang == SOURCE_LANGUAGE:
        return []
    template = template if template is not None else template_catalog()
    path = _po_path(lang, locale_dir)
    if not os.path.isfile(path):
        return [f"{lang}: no catalog {path}"]
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    out = []
    for msg in template:
        if not msg.id:
            continue
        have = catalog.get(msg.id, context=msg.context)
        ids = msg.id if isinstance(msg.id, (tuple, list)) else (msg.id,)
        label = ids[0]
        if have is None:
            out.append(f"{lang}: not in the catalog: {label!r}")
            continue
        strings = have.string if isinstance(have.string, (tuple, list)) else (have.string,)
        if have.fuzzy or not all(strings):
            out.append(f"{lang}: {'fuzzy' if have.fuzzy else 'untranslated'}: {label!r}")
            continue
        want = set().union(*(_fields(i) for i in ids))
        for s in strings:
            if _fields(s) - want or (len(ids) == 1 and _fields(s) != want):
                out.append(f"{lang}: format fields {sorted(_fields(s))} instead of "
                           f"{sorted(want)}: {label!r}")
                break
    return out


def _write_po(path: str, catalog) -> None:
    from babel.messages.pofile import write_po
    os.makedirs(os.path.dirname(path), exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, sort_output=True, include_lineno=False)
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(buf.getvalue())
    os.replace(tmp, path)


def update_catalogs(locale_dir: Optional[str] = None, new: Iterable[str] = ()) -> List[str]:
    """Extract the template, write ``ddsolver.pot`` and merge it into every catalog (and
    create catalogs for the languages in ``new``).  Returns the files written.

    :raises ValueError: for a language of ``new`` that is not a language code (``fr``,
        ``pt_BR``), is English (the msgids themselves) or already has a catalog (this
        function without ``new`` merges the template into it); checked before anything is
        written.
    """
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po
    base = locale_dir or LOCALE_DIR
    new = list(new)
    for lang in new:
        if not isinstance(lang, str) or not _LANG_RE.match(lang):
            raise ValueError(f"not a language code: {lang!r} (e.g. fr or pt_BR)")
        if lang == SOURCE_LANGUAGE:
            raise ValueError(f"{lang} is the source language: its messages are the msgids "
                             f"themselves, it has no catalog")
        if os.path.isfile(_po_path(lang, base)):
            raise ValueError(f"{lang} already has a catalog, {_po_path(lang, base)} (to "
                             f"merge new messages into it: ddsolver-ai translations update)")
    template = template_catalog()
    written = []
    pot = os.path.join(base, f"{DOMAIN}.pot")
    _write_po(pot, template)
    written.append(pot)
    langs = [x for x in available_languages(base) if x != SOURCE_LANGUAGE]
    for lang in new:
        if lang not in langs:
            langs.append(lang)
    for lang in langs:
        path = _po_path(lang, base)
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                catalog = read_po(fh, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="ddsolver",
                              copyright_holder="the ddsolver authors", fuzzy=False)
        catalog.update(template)
        catalog.obsolete.clear()   # removed messages leave the catalog (git keeps history)
        _write_po(path, catalog)
        written.append(path)
    _load.cache_clear()
    return written


# --------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------

def _command():
    import click

    @click.group("translations")
    def group():
        """The page's languages: gettext catalogs in ai/locale/ (docs/web.md)."""

    @group.command("update")
    def update():
        """Re-extract every message and merge it into every catalog."""
        for path in update_catalogs():
            click.echo(path)

    @group.command("init")
    @click.argument("lang")
    def init(lang):
        """Start a catalog for LANG (e.g. fr), then translate its msgstr lines.  A language
        that has a catalog already is refused ('update' merges new messages into it)."""
        try:
            for path in update_catalogs(new=[lang]):
                click.echo(path)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="LANG") from None

    @group.command("check")
    def check():
        """List the messages each language still lacks (exit status 1 if any)."""
        template = template_catalog()
        missing = []
        for lang in available_languages():
            missing += missing_translations(lang, template)
        for line in missing:
            click.echo(line)
        click.echo(f"{len(template) - 1} messages; "
                   f"{len(missing)} missing in {', '.join(available_languages()[1:])}")
        raise SystemExit(1 if missing else 0)

    return group


translations_command = _command()

if __name__ == "__main__":  # pragma: no cover
    translations_command()

"""The web page: a Chicago match and the boards of the day in a browser (``ddsolver-ai web``).

* :mod:`ai.web.i18n` -- the languages: gettext catalogs (``ai/locale/<lang>/LC_MESSAGES/
  ddsolver.po``) read with Babel at run time, negotiation from ``Accept-Language``, and the
  ``ddsolver-ai translations`` command that extracts, updates and checks them.
* :mod:`ai.web.meaning` -- the explanation of a call in any language, composed from the
  bidding system's structured meaning (rule name, rule meaning, hand constraints, forcing).
* :mod:`ai.web.tables` -- matches held by the server: one table per unguessable id, advanced
  call by call and card by card; the computers see only their own seat's view.
* :mod:`ai.web.app` -- the page's routes, mounted on the HTTP robot API's application
  (:func:`ai.protocols.http.create_app`), and the ``ddsolver-ai web`` command.

The page's API is documented for other frontend authors in ``docs/web.md``.
"""

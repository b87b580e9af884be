"""Networking shared by the servers of :mod:`ai.protocols` (the HTTP robot API, the web
page, the Blue Chip table manager): whether an address can be listened on, checked before a
server starts so that a command can refuse its ``--host`` or ``--port`` clearly."""

from __future__ import annotations

import errno
import socket
from typing import Optional, Tuple

__all__ = ["bind_problem", "refuse_unbindable"]


def bind_problem(host: str, port: int) -> Optional[Tuple[str, str]]:
    """Why a server could not listen on ``host``:``port``, found before it starts (the
    commands ``ddsolver-ai http``, ``web`` and ``bluechip tm`` then refuse the option with
    status 2, instead of uvicorn's own error and status 3 or a late status 1):
    ``(option, reason)``, or ``None`` when a socket binds there now (it is closed again at
    once; ``SO_REUSEADDR`` as uvicorn and asyncio set it).

    :returns: ``("--host", reason)`` for a name that does not resolve or an address not
        of this machine; ``("--port", reason)`` for a port in use or one that needs
        privileges; ``None`` when the address is free.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        return "--host", f"{host!r} is not an address or a name this machine resolves ({why})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "--port", f"port {port} of {host} is in use by another program"
            if exc.errno == errno.EACCES:
                return "--port", f"port {port} needs privileges this user does not have"
            if exc.errno == errno.EADDRNOTAVAIL:
                return "--host", f"{host} is not an address of this machine"
            return "--host", f"cannot listen on {host}, port {port} ({exc.strerror or exc})"
    return None


def refuse_unbindable(host: str, port: int) -> None:
    """The check of :func:`bind_problem` for a server's command line.

    :raises click.BadParameter: naming ``--host`` or ``--port`` and the reason (status 2)
        when the server could not listen there.
    """
    import click

    problem = bind_problem(host, port)
    if problem is not None:
        raise click.BadParameter(problem[1], param_hint=f"'{problem[0]}'")

"""Connecting to a Dask scheduler (``ddsolver analyse --scheduler``, ``ddsolver-ai match
--scheduler``) without Dask's worst failure modes.

:func:`check_scheduler_address` refuses a malformed address before anything is created:
``distributed.Client`` raises a bare ``ValueError`` for ``"nonsense"`` or
``"tcp://host:notaport"``, and the half-built client then spends ten seconds in its
``__del__`` and prints a traceback at exit.  :func:`connect_scheduler` also refuses a
``tls://`` address when the Dask configuration has no TLS settings (Dask raises a
``TypeError`` about ``ssl_context``), and turns "nothing answers there" into a
:class:`SchedulerUnreachableError` naming the address, after ``timeout`` seconds (Dask's
default is 30).
"""

from __future__ import annotations

import os
import re
from typing import Any

from .errors import SchedulerAddressError, SchedulerUnreachableError

__all__ = ["DEFAULT_CONNECT_TIMEOUT", "check_scheduler_address", "connect_scheduler"]

#: Seconds to wait for a scheduler to answer before giving up.
DEFAULT_CONNECT_TIMEOUT = 5.0

#: The protocols whose addresses are ``HOST:PORT`` (``ucx`` needs the distributed-ucxx
#: package; :func:`connect_scheduler` finds out whether it can be used).
_HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
#: A host name or an IPv4 address (an IPv6 address goes in brackets).
_HOST = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?")
_IPV6 = re.compile(r"\[([0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?)\]")
#: ``inproc://HOST/PID/N``: a scheduler in this process (``LocalCluster(processes=False)``).
_INPROC = re.compile(r"[^/\s]+/\d+/\d+")


def check_scheduler_address(address: Any) -> str:
    """A Dask scheduler address, checked for form only (nothing is contacted).

    Accepted: ``PROTOCOL://HOST:PORT`` for tcp, tls, ws, wss and ucx (an IPv6 host in
    brackets, ``tcp://[::1]:8786``), ``HOST:PORT`` (tcp, as Dask reads it), and
    ``inproc://...`` (a scheduler in this process).  The port is 1 to 65535.

    :param address: what the user gave.
    :returns: the address, surrounding blanks removed.
    :raises SchedulerAddressError: for an empty address, an unknown protocol, or a missing
        or bad host or port; the message names the address and what is wrong with it.
    :raises TypeError: if ``address`` is not a string.
    """
    if not isinstance(address, str):
        raise TypeError(f"a scheduler address is a string, not {type(address).__name__}")
    text = address.strip()

    def bad(why: str) -> SchedulerAddressError:
        return SchedulerAddressError(
            f"bad Dask scheduler address {address!r}: {why} (expected e.g. "
            f"tcp://HOST:8786)")

    if not text:
        raise bad("it is empty")
    scheme, sep, location = text.partition("://")
    if not sep:
        if "/" in text:
            raise bad("no protocol such as tcp://")
        scheme, location = "tcp", text
    if scheme == "inproc":
        if not _INPROC.fullmatch(location):
            raise bad("an inproc address is inproc://HOST/PID/N")
        return text
    if scheme not in _HOST_PORT_SCHEMES:
        raise bad(f"unknown protocol {scheme + '://'!r} (one of "
                  f"{', '.join(s + '://' for s in _HOST_PORT_SCHEMES)} or inproc://)")
    if not location:
        raise bad("no host and port")
    ipv6 = _IPV6.match(location)
    if ipv6:
        host, rest = ipv6.group(1), location[ipv6.end():]
        if not rest.startswith(":"):
            raise bad("no port")
        port = rest[1:]
    else:
        host, colon, port = location.rpartition(":")
        if not colon:
            raise bad("no port")
        if not host:
            raise bad("no host")
        if ":" in host:
            raise bad("an IPv6 host goes in brackets, e.g. tcp://[::1]:8786")
        if not _HOST.fullmatch(host):
            raise bad(f"{host!r} is not a host name or IP address")
    if not port.isascii() or not port.isdigit():
        raise bad(f"the port {port!r} is not a number" if port else "no port")
    if not 1 <= int(port) <= 65535:
        raise bad(f"the port {port} is not in 1..65535")
    return text


def _check_protocol(address: str) -> None:
    """Refuse an address whose protocol cannot be used here, before a Client is made."""
    import ssl

    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend
    from distributed.security import Security

    scheme, _ = parse_address(address)
    try:
        get_backend(scheme).get_connector()
    except Exception as exc:  # the ucx stub raises TypeError, a missing backend ValueError
        raise SchedulerAddressError(
            f"cannot use the Dask scheduler {address!r}: the {scheme}:// protocol is not "
            f"available here ({exc})") from None
    if scheme != "tls":
        return
    security = Security()
    for setting, path in (("ca-file", security.tls_ca_file),
                          ("client.cert", security.tls_client_cert),
                          ("client.key", security.tls_client_key)):
        if isinstance(path, str) and "BEGIN" not in path and not os.path.isfile(path):
            raise SchedulerAddressError(
                f"cannot use the Dask scheduler {address!r}: the file {path!r} of the Dask "
                f"setting distributed.comm.tls.{setting} does not exist")
    try:
        context = security.get_connection_args("client").get("ssl_context")
    except (OSError, ssl.SSLError, ValueError, TypeError) as exc:
        raise SchedulerAddressError(
            f"cannot use the Dask scheduler {address!r}: the TLS settings of the Dask "
            f"configuration cannot be used: {exc}") from None
    if not isinstance(context, ssl.SSLContext):
        raise SchedulerAddressError(
            f"cannot use the Dask scheduler {address!r}: tls:// needs certificates in "
            f"the Dask configuration: distributed.comm.tls.ca-file, .client.cert and "
            f".client.key (or DASK_DISTRIBUTED__COMM__TLS__CA_FILE and so on)")


def _probe_scheduler(address: str, timeout: float) -> None:
    """Ask a tcp:// address who it is, within ``timeout`` seconds in all, before a
    ``Client`` is made: ``Client`` (and ``distributed.comm.connect``, whose timeout covers
    only the connection) wait without end for a server that accepts the connection and
    says nothing or speaks another protocol (a web server), and garbage in an answer can
    reach the deserialisation (seen: a request for 3 EiB).  Nothing is left to clean up
    after a failure, and Ctrl-C stops it at once.

    :raises SchedulerUnreachableError: if no connection is made, nothing answers in time,
        or the answer is not a Dask scheduler's identity; the message names the address.
    """
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address

    if parse_address(address)[0] != "tcp":
        return

    async def identity():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(identity(), timeout))
    except (asyncio.TimeoutError, TimeoutError):
        raise SchedulerUnreachableError(
            f"cannot reach the Dask scheduler {address!r}: no answer within "
            f"{timeout:g} s") from None
    except OSError as exc:
        raise SchedulerUnreachableError(
            f"cannot reach the Dask scheduler {address!r}: {exc}") from None
    except Exception as exc:  # garbage in the answer: whatever deserialising it raised
        raise SchedulerUnreachableError(
            f"{address!r} did not answer as a Dask scheduler "
            f"({type(exc).__name__})") from None
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        raise SchedulerUnreachableError(
            f"{address!r} answered, but not as a Dask scheduler")


def connect_scheduler(address: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address`` (not set as
    Dask's default client); the caller closes it.

    :param address: the scheduler's address (see :func:`check_scheduler_address`).
    :param timeout: seconds to wait for the scheduler to answer.
    :returns: the client.
    :raises SchedulerAddressError: for a malformed address, or a protocol that cannot be
        used here (``tls://`` without TLS settings in the Dask configuration, ``ucx://``
        without the distributed-ucxx package); no client is created then.
    :raises SchedulerUnreachableError: if nothing answers at ``address`` within
        ``timeout`` seconds, or the connection fails; the message names the address.
    :raises ImportError: if the ``distributed`` package is not installed.
    :raises TypeError: if ``address`` is not a string.
    """
    address = check_scheduler_address(address)
    from distributed import Client

    _check_protocol(address)
    _probe_scheduler(address, timeout)
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SchedulerUnreachableError(
            f"cannot reach the Dask scheduler {address!r}: {exc}") from None
    except (ValueError, TypeError) as exc:  # what the checks above did not foresee
        raise SchedulerUnreachableError(
            f"cannot connect to the Dask scheduler {address!r}: {exc}") from None

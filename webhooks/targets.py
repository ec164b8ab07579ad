"""Where a webhook may be sent: never to this machine's network unless the operator allows it.

A URL whose host resolves to a private, loopback, link-local, reserved or multicast address is
refused, at registration and again at each delivery (an address can change); the delivery
then connects to the very address checked, so a second lookup cannot send it elsewhere.
Redirects are never followed. WEBHOOKS_ALLOW_PRIVATE_TARGETS=true lifts the check (development,
and the tests' loopback receiver).
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse

from django.conf import settings


class UnsafeTarget(Exception):
    """A URL a webhook may not be sent to; ``code`` says why."""

    def __init__(self, code: str, host: str) -> None:
        super().__init__(code)
        self.code = code
        self.host = host


def _forbidden(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_global or address.is_multicast


def resolve(url: str) -> tuple[str, int, str]:
    """The URL's host, port and the one address to connect to, once checked.

    Raises ``UnsafeTarget`` (``webhook_target_unresolvable`` or ``webhook_target_private``).
    """
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError) as error:
        raise UnsafeTarget("webhook_target_unresolvable", host) from error
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    if not addresses:
        raise UnsafeTarget("webhook_target_unresolvable", host)
    if not settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS and any(_forbidden(a) for a in addresses):
        raise UnsafeTarget("webhook_target_private", host)
    return host, port, str(addresses[0])

"""Where a webhook may be sent: never to this machine's network unless the operator allows it.

A URL whose host resolves to a private, loopback, link-local, reserved, shared or multicast
address is refused, and so is an IPv6 address that wraps one (IPv4-mapped and -compatible,
NAT64, 6to4, Teredo), since a gateway would carry the request there. The check is made at
registration and again at each delivery (an address can change), where the connection is made:
the delivery connects to the very address checked, so a second lookup cannot send it elsewhere.
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


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

REFUSED_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "0.0.0.0/8",  # "this network"
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "192.0.0.0/24",  # IETF protocol assignments
        "198.18.0.0/15",  # benchmarking
        "240.0.0.0/4",  # reserved, and the broadcast address
        "64:ff9b:1::/48",  # NAT64 for local use
        "::/96",  # IPv4-compatible (deprecated): refused whatever it wraps
    )
)
"""Refused whatever ``is_global`` says: Python's table of special addresses varies by version."""

NAT64 = ipaddress.ip_network("64:ff9b::/96")


def wrapped(address: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address leads to: mapped, NAT64, 6to4, Teredo (both ends)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address in NAT64:
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    return found


def forbidden(address: IPAddress) -> bool:
    """Whether the address is, or leads to, one that is not a public unicast address."""
    if not address.is_global or address.is_multicast:
        return True
    if any(
        address in network for network in REFUSED_NETWORKS if network.version == address.version
    ):
        return True
    return any(forbidden(inner) for inner in wrapped(address))


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
    if not settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS and any(forbidden(a) for a in addresses):
        raise UnsafeTarget("webhook_target_private", host)
    return host, port, str(addresses[0])

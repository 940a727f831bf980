"""This machine's addresses that other phones at the table can reach.

Read from the interface list (``ifaddr``); no packet is sent anywhere. ``truco serve``
prints them, and the share page puts the first one in its links when the browser came in
through a loopback name. No Flask: the web layer and the command line both use it.
"""

from __future__ import annotations

import ipaddress


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones could reach (no loopback, no link-local),
    from the interface list; private (LAN) addresses first."""
    import ifaddr

    found: list[ipaddress.IPv4Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 entries are tuples
            try:
                addr = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if addr.is_loopback or addr.is_link_local or addr.is_unspecified or addr in found:
                continue
            found.append(addr)
    return [str(a) for a in sorted(found, key=lambda a: (not a.is_private, a))]

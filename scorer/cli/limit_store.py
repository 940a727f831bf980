"""``truco serve --rate-limit-storage URI``: where the limits count, checked before any server
starts (issue 31, item 3). ``memory://`` (the default) counts in each process; a shared store
the limiter library knows (``redis://HOST:6379``, ``memcached://HOST:11211``) gives every
process, on every machine, one count (docs/hosting.md)."""

from __future__ import annotations

from urllib.parse import urlsplit

import click

from scorer.core.errors import N_


def rate_limit_storage_setting(uri: str, _) -> str:
    """``--rate-limit-storage`` checked before any server starts: a store the limiter library
    knows (Flask-Limiter's ``limits``: ``memory://``, ``redis://HOST:PORT``,
    ``memcached://HOST:PORT``...), whose client is installed, and that answers now. Its
    address is said without a password.

    :raise click.BadParameter: an unknown store, or one whose client is not installed.
    :raise click.ClickException: the store does not answer.
    """
    from limits.errors import ConfigurationError
    from limits.storage import storage_from_string

    parts = urlsplit(uri)
    if parts.scheme == "memory":
        return uri
    shown = f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}"
    try:
        storage = storage_from_string(uri)
    except ConfigurationError as e:
        raise click.BadParameter(_(N_("{storage} cannot be used: {reason}")).format(storage=shown, reason=e),
                                 param_hint="--rate-limit-storage") from None
    except Exception:  # noqa: BLE001 (the storage's own parser: a malformed address)
        raise click.BadParameter(_(N_("{storage} cannot be used: {reason}")).format(
            storage=shown, reason="not a storage address such as redis://HOST:6379"),
            param_hint="--rate-limit-storage") from None
    try:
        answers = storage.check()
    except Exception:  # noqa: BLE001 (a client that raises instead of answering False)
        answers = False
    if not answers:
        raise click.ClickException(_(N_("Cannot reach the rate-limit storage {storage}: start it, or leave "
                                        "--rate-limit-storage out to count in each process.")).format(storage=shown))
    return uri

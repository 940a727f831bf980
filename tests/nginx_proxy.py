"""Debian's nginx in front of a test's ``truco serve``, running the shipped
``docs/hosting/nginx.conf`` (docs/hosting.md, "Hosting many tables").

The test's copy of that file changes only what must differ on a test machine, each
replacement checked to apply exactly once: the listen lines (free 127.0.0.1 ports, no
IPv6), the certificate (a throwaway self-signed one made with ``openssl``), the log files
(in the proxy's own folder) and the upstream's address (the test's ``truco serve``). A
small main configuration (``daemon off``, its own pid file and temp folders) includes it.
:class:`Proxy` starts nginx and waits for its "start worker process" line on stderr, so no
test sleeps to synchronise; ``stop()`` quits it gracefully (every access-log line written).
"""

from __future__ import annotations

import http.client
import os
import pwd
import shutil
import signal
import ssl
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from live_server import OutputLines

NGINX = Path(os.environ.get("TRUCO_NGINX", "/usr/sbin/nginx"))
#: nginx's push module (Debian's libnginx-mod-nchan), which the shipped file's push locations need.
NCHAN = Path(os.environ.get("TRUCO_NCHAN", "/usr/lib/nginx/modules/ngx_nchan_module.so"))
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
SHIPPED = Path(__file__).resolve().parents[1] / "docs" / "hosting" / "nginx.conf"
#: Where the shipped file's push publisher listens (``truco serve --push-publish http://<it>/pub/``).
PUSH_PUBLISHER = "127.0.0.1:8001"
#: The public host name the shipped file serves.
HOST = "truco.example.org"
#: How many pairs of free ports the proxy tries before giving up.
PORT_TRIES = 5


def require() -> None:
    """Skip the test when nginx or openssl is missing; fail it instead under ``CI=true``
    (``.ci/run`` installs them)."""
    import pytest

    missing = [str(p) for p in (NGINX, Path(OPENSSL), NCHAN) if not p.is_file()]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing {', '.join(missing)} (CI installs the nginx, libnginx-mod-nchan and openssl packages)")
        pytest.skip(f"missing {', '.join(missing)}")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_config(folder: Path, upstream_port: int | Sequence[int], http_port: int, https_port: int, push_port: int,
                ping_seconds: int = 20, reuseport: bool = False) -> str:
    """The shipped file with the test machine's ports, certificate, logs and upstream
    (``upstream_port``: one ``truco serve``'s port, or several: a line each;
    ``reuseport``: the https port shared by nginx's workers, :class:`Proxy`).

    :raise AssertionError: a line to replace is no longer in the shipped file as expected.
    """
    text = SHIPPED.read_text(encoding="utf-8")
    ports = [upstream_port] if isinstance(upstream_port, int) else list(upstream_port)
    swaps = {
        "    server 127.0.0.1:8000;": "\n".join(f"    server 127.0.0.1:{port};" for port in ports),
        "    listen 80;": f"    listen 127.0.0.1:{http_port};",
        "    listen [::]:80;\n": "",
        "    listen 443 ssl http2;": f"    listen 127.0.0.1:{https_port} ssl http2{' reuseport' if reuseport else ''};",
        "    listen [::]:443 ssl http2;\n": "",
        f"/etc/letsencrypt/live/{HOST}/fullchain.pem": str(folder / "cert.pem"),
        f"/etc/letsencrypt/live/{HOST}/privkey.pem": str(folder / "key.pem"),
        "/var/log/nginx/truco.access.log": str(folder / "access.log"),
        "/var/log/nginx/truco.error.log": str(folder / "error.log"),
        f"    listen {PUSH_PUBLISHER};": f"    listen 127.0.0.1:{push_port};",
        "nchan_eventsource_ping_interval 20;": f"nchan_eventsource_ping_interval {ping_seconds};",
    }
    for old, new in swaps.items():
        count = text.count(old)
        assert count >= 1, f"{SHIPPED} no longer has {old!r}"
        text = text.replace(old, new)
    return text


class Proxy:
    """nginx running the shipped configuration in front of ``127.0.0.1:upstream_port`` (or of
    each of several ports): ``https_port``, ``http_port``, ``access_log()`` (after ``stop()``), ``stop()``."""

    def __init__(self, upstream_port: int | Sequence[int], timeout: float = 20.0, ping_seconds: int = 20,
                 push_port: int | None = None, connections: int = 512, workers: int = 1) -> None:
        """``push_port``: where the push publisher listens (the one given to ``truco serve
        --push-publish``; None: a free one); ``ping_seconds``: the streams' ping interval;
        ``connections``: nginx's worker_connections (bench/push.py holds thousands);
        ``workers``: nginx's worker processes (more than one: the phones' port is shared with
        ``reuseport``, so the kernel spreads the connections evenly, as bench/push_capacity.py
        needs when each worker may open no more files than this machine's limit)."""
        self.ping_seconds, self.chosen_push_port, self.connections = ping_seconds, push_port, connections
        self.workers = workers
        self.folder = Path(tempfile.mkdtemp(prefix="truco-nginx-"))
        subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={HOST}",
                        "-keyout", str(self.folder / "key.pem"), "-out", str(self.folder / "cert.pem")],
                       check=True, capture_output=True)
        (self.folder / "tmp").mkdir()
        for attempt in range(PORT_TRIES):
            try:
                self._start(upstream_port, timeout)
                return
            except RuntimeError as e:
                # Another process (a parallel test worker) bound a free port first: others.
                if "Address already in use" not in str(e) or attempt == PORT_TRIES - 1:
                    raise

    def _start(self, upstream_port: int | Sequence[int], timeout: float) -> None:
        self.http_port, self.https_port = free_port(), free_port()
        self.push_port = self.chosen_push_port or free_port()
        (self.folder / "truco.conf").write_text(
            site_config(self.folder, upstream_port, self.http_port, self.https_port, self.push_port, self.ping_seconds,
                        reuseport=self.workers > 1),
            encoding="utf-8")
        temp = "\n".join(f"    {kind}_temp_path {self.folder / 'tmp' / kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # As root nginx's workers would run as nobody, who cannot enter the test's folders.
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        (self.folder / "nginx.conf").write_text(
            f"load_module {NCHAN};\n"
            f"daemon off;\nworker_processes {self.workers};\npid {self.folder / 'nginx.pid'};\nerror_log stderr notice;\n{user}\n"
            f"worker_rlimit_nofile {2 * self.connections + 64};\n"
            f"events {{ worker_connections {self.connections}; }}\n"
            f"http {{\n{temp}\n    include {self.folder / 'truco.conf'};\n}}\n", encoding="utf-8")
        self.proc = subprocess.Popen([str(NGINX), "-p", f"{self.folder}/", "-c", str(self.folder / "nginx.conf"),
                                      "-e", "stderr"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._pump = OutputLines(self.proc.stderr)
        self.output = self._pump.lines
        try:
            self._pump.wait_for(lambda line: "start worker process" in line, timeout, "nginx")
        except TimeoutError as e:
            self.proc.kill()
            raise RuntimeError(str(e)) from None
        except EOFError as e:
            self.proc.wait(timeout=10)
            self._pump.join(timeout=10)
            raise RuntimeError(str(e)) from None

    def stop(self) -> None:
        """Quit gracefully (SIGQUIT: the requests in flight finish, the logs are complete)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._pump.join(timeout=10)

    def access_log(self) -> str:
        return (self.folder / "access.log").read_text(encoding="utf-8")

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Phone:
    """An https client of the proxy from its own loopback address (``127.0.0.N``), so nginx
    sees a peer of its own: ``request(method, path, body=None, headers=None, direct_port=None)``."""

    def __init__(self, proxy: Proxy, address: str) -> None:
        self.proxy, self.address = proxy, address
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE

    def request(self, method: str, path: str, body=None, headers=None, direct_port: int | None = None):
        """``(status, json or text, headers)``; ``body`` is sent as JSON (bytes: as they are). ``direct_port``:
        go straight to ``truco serve`` on that port over plain http, skipping the proxy."""
        import json

        if direct_port is None:
            conn = http.client.HTTPSConnection("127.0.0.1", self.proxy.https_port, context=self.context,
                                               source_address=(self.address, 0), timeout=10)
        else:
            conn = http.client.HTTPConnection("127.0.0.1", direct_port, source_address=(self.address, 0), timeout=10)
        headers = {"Host": HOST, **(headers or {})}
        data = None
        if isinstance(body, bytes):  # a form, say: as given, with the caller's Content-Type
            data = body
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
        finally:
            conn.close()
        is_json = r.getheader("Content-Type", "").startswith("application/json")
        return r.status, (json.loads(text) if is_json and text else text), r.headers


def pushed_servers(db: Path | str, count: int = 1, ping_seconds: int = 1, started: list | None = None,
                   connections: int = 512, workers: int = 1, server_args: tuple[str, ...] = ()):
    """``count`` ``truco serve`` processes (granian, the hosted recipe) on the database ``db`` (a path or URL),
    each publishing to the push publisher of one nginx in front of them all (each table's
    requests to one of them, by its id: docs/hosting/nginx.conf), whose streams
    ping every ``ping_seconds`` (docs/hosting.md, "Push"): ``(servers, proxy)``. Each is
    appended to ``started`` as it starts (stop them in reverse: :func:`stop_all`)."""
    from live_server import Server

    started = [] if started is None else started
    push_port = free_port()
    servers = []
    for _ in range(count):
        args = ["--server", "granian", "--public-url", f"https://{HOST}", "--proxy", "127.0.0.1",
                "--push-publish", f"http://127.0.0.1:{push_port}/pub/", "--push-ping-seconds", str(ping_seconds),
                *server_args]
        servers.append(Server(db, args=args))
        started.append(servers[-1])
    proxy = Proxy([server.port for server in servers], ping_seconds=ping_seconds, push_port=push_port, connections=connections,
                  workers=workers)
    started.append(proxy)
    return servers, proxy


def stop_all(started: list) -> None:
    """Stop what :func:`pushed_servers` started, the proxy first."""
    for item in reversed(started):
        if isinstance(item, Proxy):
            item.destroy()
        else:
            item.stop()

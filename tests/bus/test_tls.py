"""The bus over TLS against a real mosquitto with a TLS listener, its certificate from a CA made here
(``hall certs``' code): a client connects over ``mqtts://`` with the CA of ``$CARDTABLE_BROKER_CA`` and messages
go both ways; a certificate from another CA, or not for the host the URL names, is refused at once and in words
(Chinese first, English available); a relay on the wire (audit s37 A1, ``p9_sniff.py``) no longer reads the
passwords it read over plain MQTT."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from bus.broker import Broker, free_port, table_acl
from bus.credentials import broker_url
from bus.mqtt import ENV_CA, Connection, ConnectionRefused, NoConnection
from hall.certs import make

WAIT_S = 30.0
QUICK_S = 5.0  # a refusal comes at the handshake, not after the connect timeout (10 s)


@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    """A broker with the hall's users and ACL, a plain listener and a TLS one whose certificate names localhost."""
    tmp = tmp_path_factory.mktemp("tls")
    make(tmp / "hall", ["localhost"])
    make(tmp / "other", ["localhost"])  # a CA the broker's certificate is not from
    users, acl = table_acl(["t1"])
    broker = Broker.start(tmp / "broker", users, acl, tls=(tmp / "hall" / "server.pem", tmp / "hall" / "server.key"))
    yield {"broker": broker, "ca": str(tmp / "hall" / "ca.pem"), "other": str(tmp / "other" / "ca.pem"), "tmp": tmp}
    broker.stop()


def test_a_client_exchanges_messages_over_mqtts_with_the_ca_of_the_environment(tls, monkeypatch, tmp_path):
    broker = tls["broker"]
    monkeypatch.setenv(ENV_CA, tls["ca"])  # as the units of hall setup give it
    credentials = broker.write_credentials(tmp_path / "credentials", ["console", "table-t1"])
    console = Connection(broker_url(f"mqtts://localhost:{broker.tls_port}", str(credentials), "console", environ={}),
                         clean_start=True)
    table = Connection(broker_url(f"mqtts://localhost:{broker.tls_port}", str(credentials), "table-t1", environ={}),
                       clean_start=True)
    got = {"console": [], "table": []}
    console.subscribe("cardtable/v1/tables/t1/state", lambda t, p: got["console"].append(p))
    table.subscribe("cardtable/v1/tables/t1/commands", lambda t, p: got["table"].append(p))
    with console.connect(), table.connect():
        assert console.address.tls and console.ca == tls["ca"]
        assert console.wait_subscribed(WAIT_S) and table.wait_subscribed(WAIT_S)
        console.publish("cardtable/v1/tables/t1/commands", b'{"v":1,"to":"table"}')
        table.publish("cardtable/v1/tables/t1/state", b'{"v":1,"to":"console"}')
        assert console.flush(WAIT_S) and table.flush(WAIT_S)
        deadline = time.monotonic() + WAIT_S
        while not (got["console"] and got["table"]) and time.monotonic() < deadline:
            time.sleep(0.01)
    assert got == {"console": [b'{"v":1,"to":"console"}'], "table": [b'{"v":1,"to":"table"}']}


def refusal(url: str, ca: str | None) -> ConnectionRefused:
    start = time.monotonic()
    with pytest.raises(ConnectionRefused) as caught:
        Connection(url, clean_start=True, ca=ca).connect()
    assert time.monotonic() - start < QUICK_S  # said at the handshake: waiting would not change it
    return caught.value


def test_a_certificate_from_another_ca_is_refused_in_words(tls):
    url = tls["broker"].url("console", tls_host="localhost")
    wrong = refusal(url, tls["other"])
    assert str(wrong).startswith(f"消息服务器 localhost:{tls['broker'].tls_port} 的证书不是 {tls['other']} 签发的")
    assert "可能有人冒充消息服务器" in str(wrong)
    assert wrong.text("en").startswith(f"the broker localhost:{tls['broker'].tls_port}'s certificate is not signed by")
    system = refusal(url, None)  # no CA given: the system's, which never signed the hall's
    assert "证书不受本机信任" in str(system) and f"${ENV_CA}" in str(system)


def test_a_certificate_for_another_host_is_refused_in_words(tls):
    port = tls["broker"].tls_port
    wrong = refusal(tls["broker"].url("console", tls_host="127.0.0.1"), tls["ca"])  # the certificate names localhost
    assert str(wrong).startswith(f"消息服务器 127.0.0.1:{port} 的证书上没有 127.0.0.1 这个名字")
    assert wrong.text("en").startswith(f"the broker 127.0.0.1:{port}'s certificate does not name 127.0.0.1")


def test_a_ca_file_that_cannot_be_read_is_refused_in_words(tls):
    missing = str(tls["tmp"] / "nowhere.pem")
    with pytest.raises(ConnectionRefused) as caught:
        Connection(tls["broker"].url("console", tls_host="localhost"), ca=missing)
    assert str(caught.value).startswith(f"无法读取消息服务器的 `CA` 文件 {missing}")
    with pytest.raises(ConnectionRefused, match="no certificate|NO_CERTIFICATE|nothing|PEM"):
        Connection(tls["broker"].url("console", tls_host="localhost"), ca=str(tls["tmp"] / "hall" / "server.key"))


def sniffed(port: int, url_of) -> tuple[bytes, str]:
    """What a relay in front of ``port`` sees of a client's connection (``url_of(relay_port)``), client to broker."""
    seen: list[bytes] = []

    def pipe(a: socket.socket, b: socket.socket, keep: bool) -> None:
        while data := a.recv(65536):
            if keep:
                seen.append(data)
            b.sendall(data)

    server = socket.create_server(("127.0.0.1", 0))

    def accept() -> None:
        client, _ = server.accept()
        upstream = socket.create_connection(("127.0.0.1", port))
        threading.Thread(target=pipe, args=(client, upstream, True), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client, False), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    url = url_of(server.getsockname()[1])
    conn = Connection(url, clean_start=True).connect()
    conn.publish("cardtable/v1/tables/t1/commands", b"SECRET-COMMAND")
    assert conn.flush(WAIT_S)
    conn.close()
    server.close()
    return b"".join(seen), url


def test_a_relay_on_the_wire_reads_no_password_over_tls(tls, monkeypatch):
    broker, password = tls["broker"], tls["broker"].users["console"].encode()
    plain, _ = sniffed(broker.port, lambda relay: f"mqtt://console:{broker.users['console']}@127.0.0.1:{relay}")
    assert password in plain and b"SECRET-COMMAND" in plain  # what the audit saw: the console's password in the clear
    monkeypatch.setenv(ENV_CA, tls["ca"])
    secret, _ = sniffed(broker.tls_port, lambda relay: f"mqtts://console:{broker.users['console']}@localhost:{relay}")
    assert len(secret) > len(plain)  # the same exchange, encrypted
    assert password not in secret and b"console" not in secret and b"SECRET-COMMAND" not in secret


def test_a_handshake_cut_short_is_tried_again_until_the_broker_answers(tls):
    """A broker that is (re)starting may take the connection and drop it before the handshake ends: that is no refusal
    of its certificate, and the client tries again until the real broker answers (it was refused at once, for good)."""
    port = tls["broker"].tls_port
    relay = socket.create_server(("127.0.0.1", 0))
    cut = threading.Event()

    def serve() -> None:  # the first connections are dropped at once, the later ones piped to the broker
        while True:
            try:
                client, _ = relay.accept()
            except OSError:
                return
            if not cut.is_set():
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", port))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=lambda a=a, b=b: [b.sendall(d) for d in iter(lambda: a.recv(65536), b"")], daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    threading.Timer(1.5, cut.set).start()
    url = tls["broker"].url("console", tls_host="localhost").replace(f":{port}", f":{relay.getsockname()[1]}")
    try:
        conn = Connection(url, clean_start=True, ca=tls["ca"]).connect(timeout=WAIT_S)
        assert conn.connected
        conn.close()
    finally:
        relay.close()


def test_mqtts_at_a_plain_listener_is_said_in_words(tls):
    """``mqtts://`` given the broker's plain port: mosquitto hangs up on the TLS handshake (it reads the ClientHello as
    a malformed MQTT packet). The client tries again (a broker restarting does the same), and when the wait ends it
    says why in words, not only that nothing answered within the wait."""
    broker = tls["broker"]
    url = broker.url("console", tls_host="localhost").replace(f":{broker.tls_port}", f":{broker.port}")
    with pytest.raises(NoConnection) as caught:
        Connection(url, clean_start=True, ca=tls["ca"]).connect(timeout=3)
    zh, en = str(caught.value), caught.value.text("en")
    assert zh.startswith(f"3 秒内没有连上消息服务器 localhost:{broker.port}（客户端 'console'）：对方中断了 `TLS` 握手"), zh
    assert "这个端口上的消息服务器也许不用 `TLS`" in zh, zh
    assert en.startswith(f"no MQTT connection to localhost:{broker.port} as 'console' within 3 s: the broker hung up on"
                         " the TLS handshake ("), en
    assert "does it speak TLS on that port?" in en, en
    with pytest.raises(NoConnection) as nobody:  # nothing listening: no handshake, nothing more to say
        Connection(tls["broker"].url("console", tls_host="localhost").replace(f":{broker.tls_port}", f":{free_port()}"),
                   clean_start=True, ca=tls["ca"]).connect(timeout=1)
    assert nobody.value.key == "broker.no_connection"

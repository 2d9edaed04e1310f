"""A thin wrapper over paho-mqtt 2.x: one connection that survives the broker going away.

No business logic here: topics and payloads belong to the callers. What it adds to paho:

- ``mqtt://user:password@host:port`` URLs, and ``mqtts://`` (port 8883 unless given): TLS, the broker's
  certificate and host name checked against the CA file of ``$CARDTABLE_BROKER_CA`` (or ``ca=``; the system's CAs
  without one), a certificate not signed by it or not for the URL's host refused in words (``broker.tls_*``); a
  broker that hangs up on the handshake (a plain listener on that port) is tried again, and said so when the wait
  ends (``broker.no_connection_tls``);
- MQTT 5 with a persistent session by default (``clean_start=False`` and a session that does not
  expire), so the broker keeps the subscriptions of a fixed ``client_id`` and queues QoS 1
  messages for it while it is away, also across a broker restart when persistence is on; the
  client id is the user name unless given (the hall's broker makes it the user name anyway, so
  that no user can take over another's session: a user holds one connection at a time); ``resumed``
  says whether a connection found its session kept (the CONNACK's session present), ``close(end_session=True)``
  ends it;
- ``connect()`` that returns once connected, or raises (refused, or nothing within a timeout);
- automatic reconnect with a bounded back-off, and QoS 1 publishing that queues in memory while
  the broker is away and is sent on reconnect (paho keeps unacknowledged QoS > 0 messages, with no
  limit since ``max_queued_messages_set(0)``); ``flush()`` waits until the broker acknowledged them;
- handlers per topic filter, called with ``(topic, payload)`` on paho's network thread; the
  subscriptions are sent again on every (re)connect, with "retained only if the subscription is
  new" so a resumed session gets no duplicate retained messages; a message that arrives before its
  handler exists (the broker delivers a session's queue right after connecting) is kept and given
  to the first matching handler, so subscribe before ``connect()`` when that matters;
- opt-in manual acknowledgements (``manual_ack=True``): handlers are then called with
  ``(topic, payload, delivery)`` (a :class:`Delivery`: the message's mid on this connection, its
  QoS and retain flag) and nothing is acknowledged until the caller calls ``ack(delivery)`` (from
  any thread), e.g. once the message is on disk; a message never acked is delivered again by the
  broker after a reconnect, and an ``ack`` of a message of an earlier connection does nothing;
  ``deliveries=True`` hands handlers the :class:`Delivery` too (whether a message is the broker's retained
  copy), acknowledging as ever;
- per subscription, whether the broker sends the retained message (``retained``: ``"new"``, the
  default, only for a new subscription; ``"always"``; ``"never"``) and whether a message keeps
  the retain flag it was published with (``retain_as_published``);
- a last will, a "birth" message published on every (re)connect, and ``close(send_will=True)``
  (MQTT 5 disconnect reason 4, the broker then publishes the will);
- opt-in ``yields=True``, for a user that must have one sender (a table's camera, its board bridge): a connection
  another client of the same client id took over is not taken back. The broker ends the older of two connections of
  one client id; taking it back by reconnecting ends the newer, for ever, both publishing in between. A yielding
  connection stops when the broker says so (DISCONNECT reason 0x8E, mosquitto 2.0.15 on), or ends it twice in a row
  the second time within ``TAKEN_WITHIN_S`` of the reconnection the first end caused, with no failed try between
  (mosquitto 2.0.11 just closes the connection; a broker restarting refuses a try meanwhile), while the broker kept
  running: right then it answers a CONNECT of no user within ``ANSWER_WITHIN_S`` (a broker restarted twice, back
  each time before the client's next try, answers nothing as it goes down): the newer keeps the session, the older
  does not reconnect, ``taken`` says why (:class:`TakenOver`) and ``publish`` raises it;
- ``heard()``, when the broker last sent the connection anything, and ``probe()``, which asks it for an answer (an MQTT
  PINGREQ), with ``unanswered()``: a link cut silently (a switch or a Wi-Fi dropping packets, no RST: a half-open
  connection) or a broker frozen (SIGSTOP, a machine stuck) looks connected until the keepalive runs out (paho's 1.5 to
  2 keepalives). ``hears()``, called every second or so, says it sooner: it probes a connection that heard nothing for
  ``PROBE_S`` and takes a probe unanswered for ``ANSWER_S`` as the link gone (within ``PROBE_S + ANSWER_S`` and a
  call's period); ``answers()`` asks and waits for the broker's answer now (before sending what must not wait in
  memory). paho ends such a connection once nothing came for a keepalive with a probe waiting, and connects again.

>>> parse_url("mqtt://table-t1:s%3Acret@127.0.0.1:41883")
BrokerAddress(host='127.0.0.1', port=41883, username='table-t1', password='s:cret', tls=False)
>>> parse_url("mqtt://localhost").port, parse_url("mqtts://console.hall").port
(1883, 8883)
>>> from dataclasses import replace
>>> replace(parse_url("mqtts://console.hall"), username="camera-t07", password="p@ss").url
'mqtts://camera-t07:p%40ss@console.hall:8883'
"""

from __future__ import annotations

import collections
import logging
import os
import socket
import ssl
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Callable
from urllib.parse import quote, unquote, urlsplit

from paho.mqtt.client import (
    MQTT_ERR_NO_CONN,
    CallbackAPIVersion,
    Client,
    MQTTMessage,
    MQTTMessageInfo,
    MQTTv5,
    PINGREQ,
    time_func,
    topic_matches_sub,
)
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from referee.catalogue import Refusal

log = logging.getLogger(__name__)

Handler = Callable[..., None]  # (topic, payload), or (topic, payload, delivery) with manual_ack or deliveries
Will = tuple[str, bytes, bool]  # (topic, payload, retain), sent with QoS 1

DEFAULT_PORT = 1883
TLS_PORT = 8883
ENV_CA = "CARDTABLE_BROKER_CA"  # the CA file that signed the broker's certificate (mqtts:// URLs)
_SCHEMES = {"mqtt": False, "tcp": False, "mqtts": True}  # scheme -> TLS
_NOT_FOR_HOST = (62, 64)  # OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH
CONNECT_TIMEOUT_S = 10.0
KEEPALIVE_S = 30
REFUSED_KEPT = 1000  # the broker's refusals of publishes a connection remembers (each is logged)
PROBE_S = 1.0  # a connection that heard nothing from the broker this long is probed (``hears``: an MQTT ping)
ANSWER_S = 2.0  # a probe unanswered this long: the connection is silent, its link cut or its broker frozen
ANSWER_POLL_S = 0.01  # ``answers`` looks for the broker's answer this often
RECONNECT_DELAY_S = (0.1, 5.0)  # first retry, longest wait between retries (doubling in between)
SESSION_NEVER_EXPIRES = 0xFFFFFFFF
SESSION_TAKEN_OVER = 0x8E  # MQTT 5's DISCONNECT reason: another connection of the same client id took the session
TAKEN_WITHIN_S = 3.0  # a yielding connection ended again this soon after reconnecting was taken over
ANSWER_WITHIN_S = 1.0  # ... if the broker answers a CONNECT of its own this soon (a broker going down answers none)
# MQTT 5 CONNECT of no user and no client id, clean start: any broker answers it with a CONNACK (most refuse it)
_ANONYMOUS_CONNECT = bytes([0x10, 13, 0, 4]) + b"MQTT" + bytes([5, 0x02, 0, 0, 0, 0, 0])
_CONNACK = 0x20
TAKEN_OVER_EXIT = 3  # the exit status of a sender taken over (the hall's units: RestartPreventExitStatus, no fight)
UNROUTED_LIMIT = 10_000  # messages kept for handlers not registered yet
_DISCONNECT_WITH_WILL = 4


_RETAINED = {"new": SubscribeOptions.RETAIN_SEND_IF_NEW_SUB, "always": SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE,
             "never": SubscribeOptions.RETAIN_DO_NOT_SEND}


@dataclass(frozen=True, slots=True)
class Delivery:
    """A message received with ``manual_ack`` (to hand back to :meth:`Connection.ack`) or ``deliveries``: its ``mid`` on
    the connection ``generation`` it came on (mids are reused by the next connection), its QoS and
    whether it came with the retain flag."""

    mid: int
    qos: int
    retain: bool
    generation: int


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    username: str | None
    password: str | None
    tls: bool = False

    @property
    def url(self) -> str:
        """The address as a URL again, user and password %-escaped (``mqtts://`` with TLS)."""
        user = "" if self.username is None else quote(self.username, safe="")
        if self.password is not None:
            user += ":" + quote(self.password, safe="")
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{'@' if user else ''}{host}:{self.port}"


class UrlError(Refusal):
    """Not a broker URL (the catalogue's ``broker.*``; a ValueError)."""

    section = "broker"


def parse_url(url: str) -> BrokerAddress:
    """``mqtt://user:password@host:port`` or ``mqtts://`` (user, password and port optional; %-escapes allowed);
    :class:`UrlError` otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in _SCHEMES:
        raise UrlError("not_mqtt", url=url)
    if not parts.hostname:
        raise UrlError("no_host", url=url)
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise UrlError("url_path", url=url)
    try:
        port = parts.port
    except ValueError:  # not a number, or past 65535
        raise UrlError("bad_port", url=url) from None
    tls = _SCHEMES[parts.scheme]
    return BrokerAddress(
        host=parts.hostname,
        port=port or (TLS_PORT if tls else DEFAULT_PORT),
        username=unquote(parts.username) if parts.username is not None else None,
        password=unquote(parts.password) if parts.password is not None else None,
        tls=tls,
    )


class ConnectionRefused(Refusal, ConnectionError):
    """The broker answered the CONNECT with a failure (bad user name or password, not authorised): the catalogue's
    ``broker.refused*``, made by :func:`refused`."""

    section = "broker"


class NoConnection(Refusal, TimeoutError):
    """No answer from the broker within the time given (the catalogue's ``broker.no_connection``)."""

    section = "broker"


class TakenOver(Refusal, ConnectionError):
    """Another client of the same client id took a yielding connection's session (the catalogue's
    ``broker.taken_over``): it does not reconnect, and publishes nothing more."""

    section = "broker"


class _Handshake(ssl.SSLSocket):
    """A TLS socket that keeps on its context why its handshake failed (paho retries and keeps no reason)."""

    def do_handshake(self, block=False):
        try:
            super().do_handshake(block)
        except OSError as exc:  # a certificate refused (ssl.SSLCertVerificationError), or the broker hanging up
            self.context.failure = exc
            raise


def tls_context(ca: str | None) -> ssl.SSLContext:
    """A client's TLS settings: the broker's certificate must be signed by ``ca`` (a PEM file; None: the system's
    CAs) and name the host the URL names; a CA file that cannot be read is refused in words."""
    try:
        context = ssl.create_default_context(cafile=ca)
    except (OSError, ssl.SSLError) as exc:  # missing, unreadable, or no certificate in it
        raise ConnectionRefused("ca_unreadable", path=ca, env=ENV_CA, error=exc) from None
    context.sslsocket_class = _Handshake
    context.failure = None
    return context


def tls_refused(failure: OSError, address: BrokerAddress, ca: str | None) -> ConnectionRefused:
    """Why the TLS handshake with the broker failed, in words: a certificate not for the URL's host, one not signed
    by ``ca``, or no TLS at all (the connection reset or ended in the middle of the handshake: a plain listener)."""
    where = f"{address.host}:{address.port}"
    reason = getattr(failure, "verify_message", None) or getattr(failure, "reason", None)
    if not isinstance(failure, ssl.SSLCertVerificationError):
        return ConnectionRefused("tls_failed", address=where, reason=reason or failure)
    if failure.verify_code in _NOT_FOR_HOST:
        return ConnectionRefused("tls_host", address=where, host=address.host, reason=reason)
    if ca is None:
        return ConnectionRefused("tls_untrusted_system", address=where, env=ENV_CA, reason=reason)
    return ConnectionRefused("tls_untrusted", address=where, ca=ca, reason=reason)


BAD_PASSWORD, NOT_AUTHORISED = 134, 135  # MQTT 5's CONNACK reason codes (3.1.1's 4 and 5 read as these)


def refused(reason: ReasonCode, address: BrokerAddress, client_id: str) -> ConnectionRefused:
    """The broker's refusal of ``client_id``, said in words for a bad password or no authorisation."""
    where, client, user = f"{address.host}:{address.port}", repr(client_id), repr(address.username)
    if reason.value == BAD_PASSWORD:
        error = ConnectionRefused("refused_password", address=where, client=client, user=user)
    elif reason.value == NOT_AUTHORISED:
        error = ConnectionRefused("refused_not_authorised", address=where, client=client, user=user)
    else:
        error = ConnectionRefused("refused", address=where, client=client, user=user, reason=str(reason))
    error.reason = reason
    return error


class _Client(Client):
    """paho's client, noting when the broker last sent it a packet (monotonic; None before the first), and pinging the
    broker from any thread."""

    heard: float | None = None

    def _packet_handle(self):
        self.heard = time.monotonic()
        return super()._packet_handle()

    def ping(self) -> None:
        """Send a PINGREQ from a thread other than paho's, noted as waiting for its answer (``_ping_t``) before it can
        go out. paho's own ``_send_pingreq`` notes it after queueing it: called from another thread, paho's network
        thread may send it and handle the PINGRESP (``_ping_t = 0``) first, and the note stays, waiting for an answer
        given. paho then ends the connection a keepalive later, unless it pinged again meanwhile itself, which it does
        only for a connection quiet one way for a keepalive: a busy one was cut for nothing."""
        self._ping_t = time_func()
        self._send_simple_command(PINGREQ)


class Connection:
    """One MQTT 5 client connection; see the module's docstring."""

    def __init__(
        self,
        url: str,
        client_id: str | None = None,
        *,
        will: Will | None = None,
        clean_start: bool = False,
        birth: Will | None = None,
        session_expiry_s: int = SESSION_NEVER_EXPIRES,
        keepalive_s: int = KEEPALIVE_S,
        reconnect_delay_s: tuple[float, float] = RECONNECT_DELAY_S,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
        manual_ack: bool = False,
        deliveries: bool = False,
        ca: str | None = None,
        yields: bool = False,
    ):
        self.address = parse_url(url)
        self.ca = (ca or os.environ.get(ENV_CA) or None) if self.address.tls else None
        self._tls = tls_context(self.ca) if self.address.tls else None
        self.client_id = client_id or self.address.username or f"cardtable-{uuid.uuid4().hex[:12]}"
        self.clean_start = clean_start
        self.birth = birth
        self.connect_timeout_s = connect_timeout_s
        self._keepalive_s = keepalive_s
        self._session_expiry_s = session_expiry_s
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._sub_pending: set[int] = set()  # SUBSCRIBE mids without a SUBACK yet
        self._sub_early: set[int] = set()  # SUBACKs that came before subscribe() noted their mid
        self._generation = 0  # +1 on every connect and disconnect: mids of an old connection are void
        self._subs: dict[str, tuple[Handler, SubscribeOptions]] = {}
        self.manual_ack = manual_ack
        self._deliveries = manual_ack or deliveries  # handlers called with (topic, payload, delivery)
        self._unacked: set[int] = set()  # manual_ack: QoS > 0 mids received on this connection, not acked
        self._unrouted: deque[tuple[str, bytes, Delivery]] = deque()
        self._connected = threading.Event()
        self._refused: ReasonCode | None = None
        self._tls_refused: ConnectionRefused | None = None  # a certificate the handshake refused, in words
        self._tls_cut: str | None = None  # why the latest try's handshake failed otherwise (the broker hung up)
        self._first = threading.Event()  # the first CONNACK arrived (either way)
        self._started = False
        self._closed = False
        self.connects = 0  # successful (re)connections so far
        self._session: tuple[int, bool] = (0, False)  # the latest connection's generation, the broker's session present
        self.yields = yields
        self.taken: TakenOver | None = None  # yields: why another client took the session over (no reconnect then)
        self._ended = False  # the broker ended the latest connection, and no try failed since
        self._resumed: float | None = None  # when the try that followed such an end began (monotonic)
        # (mid, reason) from v5 PUBACKs, the latest REFUSED_KEPT (a session refused for ever grows nothing without end)
        self.refused_publishes: collections.deque[tuple[int, ReasonCode]] = collections.deque(maxlen=REFUSED_KEPT)

        self._probed: float | None = None  # when probe() last asked the broker for an answer (monotonic)
        c = _Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=MQTTv5, manual_ack=manual_ack)
        if self.address.username is not None:
            c.username_pw_set(self.address.username, self.address.password)
        if will is not None:
            topic, payload, retain = will
            c.will_set(topic, payload, qos=1, retain=retain)
        c.reconnect_delay_set(min_delay=reconnect_delay_s[0], max_delay=reconnect_delay_s[1])
        c.max_queued_messages_set(0)  # no limit: nothing published while away is dropped
        if self._tls is not None:
            c.tls_set_context(self._tls)
        c.on_pre_connect = self._on_pre_connect
        c.on_connect_fail = self._on_connect_fail
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_publish = self._on_publish
        c.on_subscribe = self._on_subscribe
        self._client = c

    # -- life cycle ------------------------------------------------------------------------------

    def connect(self, timeout: float | None = None) -> Connection:
        """Start the network thread and return once connected; raise ``ConnectionRefused`` or
        ``TimeoutError``. After that it reconnects by itself until ``close()``."""
        if self._started:
            raise RuntimeError("connect() was already called")
        self._started = True
        timeout = self.connect_timeout_s if timeout is None else timeout
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = 0 if self.clean_start else self._session_expiry_s
        a = self.address
        self._client.connect_async(a.host, a.port, self._keepalive_s,
                                   clean_start=self.clean_start, properties=props)
        self._client.loop_start()
        deadline = time.monotonic() + timeout
        while not self._connected.is_set():
            if self._refused is not None:
                reason = self._refused
                self._shutdown()
                raise refused(reason, a, self.client_id)
            if self._tls_refused is not None:  # a certificate refused: waiting will not change it
                self._shutdown()
                raise self._tls_refused
            left = deadline - time.monotonic()
            if left <= 0:
                self._shutdown()
                where, client, seconds = f"{a.host}:{a.port}", repr(self.client_id), f"{timeout:g}"
                if self._tls_cut is not None:  # the broker hung up on the latest try's handshake
                    raise NoConnection("no_connection_tls", address=where, client=client, seconds=seconds,
                                       reason=self._tls_cut)
                raise NoConnection("no_connection", address=where, client=client, seconds=seconds)
            self._first.wait(min(left, 0.05))
        return self

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def heard(self) -> float | None:
        """When (monotonic) the broker last sent this connection a packet (an answer to :meth:`probe` too), on this
        connection or an earlier one; None before the first."""
        return self._client.heard

    def probe(self) -> None:
        """Ask the broker for an answer now (an MQTT PINGREQ, answered by a PINGRESP: :meth:`heard`), unless one
        asked already waits for it or the connection is down. From any thread."""
        with self._lock:
            if not self._connected.is_set() or self.unanswered() is not None:
                return
            self._probed = time.monotonic()
        self._client.ping()  # paho's ping: unanswered, paho ends the connection a keepalive after it

    def unanswered(self) -> float | None:
        """How long the latest probe has waited with nothing heard since (seconds); None when it was answered (or
        there was none on this connection)."""
        probed, heard = self._probed, self._client.heard
        if probed is None or (heard is not None and heard >= probed):
            return None
        return time.monotonic() - probed

    def hears(self) -> bool:
        """Whether the broker is heard: connected and not silent (a probe unanswered for :data:`ANSWER_S`: a link cut
        without a word, a broker frozen); probed when it heard nothing for :data:`PROBE_S`. From any thread."""
        heard = self.heard()
        if self.connected and (heard is None or time.monotonic() - heard >= PROBE_S):
            self.probe()
        return self.connected and (self.unanswered() or 0.0) < ANSWER_S

    def answers(self, timeout: float = ANSWER_S) -> bool:
        """Ask the broker for an answer and wait up to ``timeout`` for anything from it: whether it came (the link
        carried both ways a round trip ago), False at once when the connection is down. From any thread but paho's."""
        asked = time.monotonic()
        self.probe()
        while (self.heard() or -1.0) < asked:
            if not self.connected or time.monotonic() - asked >= timeout:
                return False
            time.sleep(ANSWER_POLL_S)
        return self.connected

    def resumed(self, generation: int) -> bool:
        """Whether the connection ``generation`` (a :class:`Delivery`'s) resumed a session the broker kept (its CONNACK's
        session present): the subscriptions, and the QoS 1 messages queued while away, come with it. False for a new
        session (clean start, one expired, one a broker restarted without persistence lost), or a connection not the
        latest."""
        with self._lock:
            return self._session == (generation, True)

    def wait_connected(self, timeout: float) -> bool:
        """Wait for the connection (after the broker went away); False on timeout."""
        return self._connected.wait(timeout)

    def close(self, *, send_will: bool = False, flush_timeout: float = 2.0, end_session: bool = False) -> None:
        """Wait up to ``flush_timeout`` for the broker to acknowledge what was published (when
        connected), then disconnect; ``send_will`` asks the broker to publish the will anyway; ``end_session`` asks it
        to drop the session now (MQTT 5: a session expiry of 0 on DISCONNECT), queueing nothing more for it."""
        if not self._started or self._closed:
            return
        self._closed = True
        if self.connected:
            self.flush(flush_timeout)
        reason = ReasonCode(PacketTypes.DISCONNECT, identifier=_DISCONNECT_WITH_WILL if send_will else 0)
        props = None
        if end_session and not self.clean_start:  # a clean one's session expires with the connection already
            props = Properties(PacketTypes.DISCONNECT)
            props.SessionExpiryInterval = 0
        if self._client.disconnect(reasoncode=reason, properties=props) == 0:
            with self._cond:  # the network thread sends DISCONNECT, then reports the close
                self._cond.wait_for(lambda: not self._connected.is_set(), 1.0)
        self._shutdown()

    def __enter__(self) -> Connection:
        if not self._started:
            self.connect()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- messages --------------------------------------------------------------------------------

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> MQTTMessageInfo:
        """Publish; with QoS 1 (the default) a message published while the broker is away is kept
        and sent on reconnect. Returns paho's info (``.mid``). Do not call
        ``info.wait_for_publish()`` on it: paho raises for a message queued while disconnected
        (rc MQTT_ERR_NO_CONN) although it will send it; use ``flush()``."""
        if self.taken is not None:
            raise self.taken
        if not isinstance(payload, (bytes, bytearray)):
            raise TypeError(f"payload must be bytes, not {type(payload).__name__}")
        info = self._client.publish(topic, bytes(payload), qos=qos, retain=retain)
        if info.rc == MQTT_ERR_NO_CONN:
            if qos == 0:
                log.warning("%s: not connected, QoS 0 message to %s dropped", self.client_id, topic)
            else:
                log.debug("%s: not connected, message to %s queued", self.client_id, topic)
        elif info.rc:
            raise RuntimeError(f"publish to {topic} failed: rc {info.rc}")
        return info

    @staticmethod
    def acknowledged(info: MQTTMessageInfo) -> bool:
        """Whether the broker acknowledged the QoS > 0 message of ``info`` (``publish``'s answer).
        Unlike paho's ``is_published``, which raises for ever for a message published while the
        broker was away, it answers for that one too: True once it was sent on reconnect and
        acknowledged."""
        with info._condition:
            return info._published

    def refused(self) -> list[tuple[int, ReasonCode]]:
        """The broker's latest refusals of this connection's publishes, (mid, reason), oldest first (a copy)."""
        with self._lock:
            return list(self.refused_publishes)

    def pending(self) -> int:
        """QoS > 0 messages published but not yet acknowledged by the broker (queued or in flight)."""
        return len(self._client._out_messages)  # paho drops a message from it on PUBACK

    def flush(self, timeout: float) -> bool:
        """Wait until the broker acknowledged every QoS > 0 message published so far; False on timeout."""
        deadline = time.monotonic() + timeout
        while self.pending():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True

    def subscribe(self, topic_filter: str, handler: Handler, qos: int = 1, *, retained: str = "new",
                  retain_as_published: bool = False) -> None:
        """Call ``handler(topic, payload)`` for every message matching ``topic_filter`` (on paho's
        thread; keep it short). Kept across reconnects; before ``connect()`` it is sent on connect.
        ``retained``: when the broker sends the topic's retained message (see the module's
        docstring); ``retain_as_published``: messages keep their retain flag (a ``Delivery`` shows it)."""
        options = SubscribeOptions(qos=qos, retainHandling=_RETAINED[retained], retainAsPublished=retain_as_published)
        with self._lock:
            self._subs[topic_filter] = (handler, options)
            connected, generation = self._connected.is_set(), self._generation
            early = [m for m in self._unrouted if topic_matches_sub(topic_filter, m[0])]
            if early:  # under the lock, so that newer messages wait for these
                self._unrouted = deque(m for m in self._unrouted if not topic_matches_sub(topic_filter, m[0]))
                for topic, payload, delivery in early:
                    self._call(handler, topic, payload, delivery)
        if connected:
            self._send_subscribe([(topic_filter, options)], generation)

    def ack(self, delivery: Delivery) -> None:
        """``manual_ack``: acknowledge a handler's ``delivery``, from any thread. Nothing for QoS 0,
        nor for a message of a connection that has closed since (the broker delivers it again on the
        next one; acking its old mid there could ack another message)."""
        if not self.manual_ack or delivery.qos == 0:
            return
        with self._lock:
            if delivery.generation != self._generation or delivery.mid not in self._unacked:
                return
            self._unacked.discard(delivery.mid)
        self._client.ack(delivery.mid, delivery.qos)

    def wait_subscribed(self, timeout: float) -> bool:
        """Wait until connected and every SUBSCRIBE sent so far is acknowledged (the broker routes
        to the subscription from then on); False on timeout. Not from a handler."""
        with self._cond:
            return self._cond.wait_for(lambda: self._connected.is_set() and not self._sub_pending, timeout)

    def unsubscribe(self, topic_filter: str) -> None:
        with self._lock:
            self._subs.pop(topic_filter, None)
            connected = self._connected.is_set()
        if connected:
            self._client.unsubscribe(topic_filter)

    # -- paho callbacks (network thread) ---------------------------------------------------------

    def _send_subscribe(self, subs: list[tuple[str, SubscribeOptions]], generation: int) -> None:
        rc, mid = self._client.subscribe(subs)
        if rc or mid is None:
            return  # not connected any more: sent again on connect
        with self._lock:
            if generation != self._generation:
                pass  # the connection changed meanwhile: on_connect sends every subscription again
            elif mid in self._sub_early:
                self._sub_early.discard(mid)
            else:
                self._sub_pending.add(mid)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("%s: broker refused the connection: %s", self.client_id, reason_code)
            self._refused = reason_code
            self._first.set()
            return
        log.info("%s: connected to %s:%s (session present: %s)", self.client_id,
                 self.address.host, self.address.port, flags.session_present)
        sock = client.socket()
        if sock is not None:  # small messages go out at once (Nagle would hold them ~40 ms)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # Every subscription again (a resumed session has them, but maybe not all of them), under
        # the lock so that a concurrent subscribe() is sent either here or by itself, never lost.
        with self._cond:
            self._generation += 1
            self._session = (self._generation, bool(flags.session_present))
            self._probed = None
            self._sub_pending.clear()
            self._sub_early.clear()
            self._unacked.clear()
            subs = [(f, options) for f, (_, options) in self._subs.items()]
            if subs:
                self._send_subscribe(subs, self._generation)
            self._connected.set()
            self._cond.notify_all()
        self.connects += 1
        if self.birth is not None:
            topic, payload, retain = self.birth
            client.publish(topic, payload, qos=1, retain=retain)
        self._first.set()

    def _on_pre_connect(self, client, userdata) -> None:
        # timed from the try, not its CONNACK: a connection ended at once may lose its CONNACK (the broker closes
        # it with our publishes unread: a reset, and the kernel drops what it had received)
        self._resumed, self._ended = (time.monotonic() if self._ended else None), False

    def _on_connect_fail(self, client, userdata) -> None:
        """A try that failed: a certificate refused is final; a handshake the broker cut short (a broker restarting,
        or one that does not speak TLS on that port) is tried again, and said if it is still so when the wait ends."""
        self._tls_cut, self._ended = None, False  # the broker away: not another client's doing
        if self._tls is None or self._tls.failure is None:
            return  # no answer (the broker away): paho tries again after its back-off
        failure, self._tls.failure = self._tls.failure, None
        refusal = tls_refused(failure, self.address, self.ca)  # said at every try: paho tries again
        log.error("%s: %s", self.client_id, refusal.text("en"))
        if isinstance(failure, ssl.SSLCertVerificationError):
            self._tls_refused = refusal
            self._first.set()
        else:
            self._tls_cut = refusal.values["reason"]

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            self._connected.clear()
            self._generation += 1
            self._sub_pending.clear()  # sent again on connect
            self._sub_early.clear()
            self._unacked.clear()  # not acked: the broker sends them again on the next connection
            self._cond.notify_all()
        log.info("%s: disconnected: %s", self.client_id, reason_code)
        if self.yields and not self._closed:
            self._yield(client, flags.is_disconnect_packet_from_server, reason_code)

    def _yield(self, client: Client, said: bool, reason: ReasonCode) -> None:
        """``yields``: stop reconnecting when the end of the connection says another client took it over."""
        closed = not said and reason.value == 0x80  # the socket closed under it (paho's 'Unspecified error')
        again = (closed and self._resumed is not None and time.monotonic() - self._resumed <= TAKEN_WITHIN_S
                 and self._answers())  # a broker restarted closes every connection, then answers nothing a while
        if not (again or said and reason.value == SESSION_TAKEN_OVER):
            self._ended = closed
            return
        where, user, me = f"{self.address.host}:{self.address.port}", repr(self.address.username), repr(self.client_id)
        if said:
            self.taken = TakenOver("taken_over_said", address=where, user=user, client=me)
        else:
            self.taken = TakenOver("taken_over", address=where, user=user, client=me, seconds=f"{TAKEN_WITHIN_S:g}")
        client._reconnect_on_failure = False  # paho's network thread ends here (its constructor's setting)
        log.error("%s: %s", self.client_id, self.taken.text("en"))

    def _answers(self) -> bool:
        """Whether the broker answers a CONNECT of no user within ``ANSWER_WITHIN_S`` (its CONNACK, a refusal too),
        right after it closed this connection: it kept running, and another client took the session. A broker that
        closed it going down (a restart) answers nothing: its port refuses, or the old process never reads it. Called on
        the client's network thread, it holds it up to ``ANSWER_WITHIN_S`` for the connection and as long again for the
        answer (about 2 s at most), once per close that may be a takeover."""
        a = self.address
        try:
            sock = socket.create_connection((a.host, a.port), timeout=ANSWER_WITHIN_S)
            try:
                if a.tls:
                    sock = tls_context(self.ca).wrap_socket(sock, server_hostname=a.host)
                sock.sendall(_ANONYMOUS_CONNECT)
                return sock.recv(1) == bytes([_CONNACK])
            finally:
                sock.close()
        except (OSError, ConnectionRefused):  # refused, reset, no answer in time (socket.timeout), TLS failed
            return False

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        with self._cond:
            if mid in self._sub_pending:
                self._sub_pending.discard(mid)
            else:
                self._sub_early.add(mid)
            self._cond.notify_all()
        for rc in reason_codes:
            if rc.is_failure:
                log.warning("%s: subscription refused: %s", self.client_id, rc)

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("%s: publish %s refused: %s", self.client_id, mid, reason_code)
            with self._lock:
                self.refused_publishes.append((mid, reason_code))

    def _on_message(self, client, userdata, message: MQTTMessage) -> None:
        topic, payload, mid, qos = message.topic, message.payload, message.mid, message.qos
        with self._lock:
            delivery = Delivery(mid, qos, bool(message.retain), self._generation)
            if self.manual_ack and qos > 0:
                self._unacked.add(mid)
            handlers = []
            for f, (h, _) in self._subs.items():
                if h not in handlers and topic_matches_sub(f, topic):
                    handlers.append(h)
            if not handlers:
                if len(self._unrouted) >= UNROUTED_LIMIT:
                    dropped = self._unrouted.popleft()
                    log.warning("%s: no handler, dropped a message on %s", self.client_id, dropped[0])
                    self.ack(dropped[2])  # dropped all the same, as without manual_ack
                self._unrouted.append((topic, payload, delivery))
        for h in handlers:
            self._call(h, topic, payload, delivery)

    def _call(self, handler: Handler, topic: str, payload: bytes, delivery: Delivery) -> None:
        try:
            if self._deliveries:
                handler(topic, payload, delivery)
            else:
                handler(topic, payload)
        except Exception:  # a failing handler must not stop the network thread
            log.exception("%s: handler for %s failed", self.client_id, topic)

    def _shutdown(self) -> None:
        if not self._client.is_connected():
            self._client.disconnect()  # closes a half-open socket; harmless when there is none
        self._client.loop_stop()
        with self._cond:
            self._connected.clear()
            self._cond.notify_all()

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected"
        return f"<Connection {self.client_id!r} to {self.address.host}:{self.address.port} {state}>"

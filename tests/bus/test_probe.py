"""``Connection.probe`` from a thread of the caller's, against a real mosquitto: the broker's answer handled before the
probe's thread goes on (its thread put aside after queueing the ping, as a loaded machine's scheduler may) leaves paho
waiting for no answer, and paho ends a busy connection a keepalive later. The probe notes its ping before the packet
can go out."""

from __future__ import annotations

import threading
import time

from bus.protocol import topic

WAIT_S = 30.0  # the longest a test waits for something that must happen
KEEPALIVE_S = 1  # paho ends a connection whose ping waited this long
BUSY_S = 3.0  # three keepalives of traffic both ways (paho pings only a connection quiet one way for a keepalive)


def test_a_probe_answered_before_its_thread_goes_on_ends_nothing(connect):
    camera = connect("camera-t1", clean_start=True, keepalive_s=KEEPALIVE_S)
    client, queue, prober = camera._client, camera._client._packet_queue, threading.current_thread()

    def queue_then_wait_for_the_answer(command, packet, mid, qos, info=None):
        """paho's, then (the probe's ping) the probe's thread held until the network thread handled the answer."""
        sent = time.monotonic()
        rc = queue(command, packet, mid, qos, info)
        if command == 0xC0 and threading.current_thread() is prober:  # a PINGREQ, not paho's own (its thread's)
            deadline = time.monotonic() + WAIT_S
            while (camera.heard() or -1.0) < sent and time.monotonic() < deadline:
                time.sleep(0.001)
        return rc

    client._packet_queue = queue_then_wait_for_the_answer
    time.sleep(0.1)
    camera.probe()
    assert camera.unanswered() is None, "the broker answered the probe"
    until = time.monotonic() + BUSY_S
    while time.monotonic() < until:  # QoS 1: out goes a PUBLISH, in comes its PUBACK
        camera.publish(topic("t1", "observed"), b'{"v":1}')
        time.sleep(0.1)
    del client._packet_queue  # paho's own again
    assert camera.connected and camera.connects == 1, "paho ended the connection: it waited for an answer given"

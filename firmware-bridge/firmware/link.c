#include "link.h"

#include <string.h>

#include "board.h"
#include "display.h"
#include "frame.h"
#include "uart.h"

struct event {
    uint16_t seq;
    uint8_t seat, button;
    uint32_t pressed_ms, sent_ms;
    uint8_t sent, acked;
    uint8_t round; /* which run of seqs 1..65535 it belongs to: the next run is a new boot */
};

static struct event events[EVENT_SLOTS]; /* a FIFO ring, oldest at head */
static uint8_t head, count;
static uint16_t next_seq = 1;
static uint8_t press_round, boot_round; /* the run of seqs new presses get; the one `boot` names */
static uint16_t board_id, boot;
static uint8_t boot_reset = 1; /* `boot` began at a reset (1), or when the last boot's seqs ran out (0) */
static uint16_t corrupt, unknown, dropped;
static uint8_t rx_buf[FRAME_MAX_ENCODED];
static uint8_t rx_len, rx_overlong;
static uint8_t host_seen, host_seq_valid;
static uint16_t host_seq; /* the last command applied */
static uint32_t host_ms, heartbeat_ms;
static const struct link_handlers *apply;

static void put16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
static uint16_t get16(const uint8_t *p) { return p[0] | (uint16_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }

/* Encode and queue one frame; 0 when the transmit ring has no room for it (try again later). */
static uint8_t send_frame(uint8_t type, uint16_t seq, const uint8_t *body, uint8_t len)
{
    uint8_t raw[FRAME_MAX_RAW], out[FRAME_MAX_ENCODED + 1];
    raw[0] = PROTOCOL_VERSION;
    raw[1] = type;
    put16(raw + 2, seq);
    memcpy(raw + FRAME_HEADER, body, len);
    uint16_t crc = crc16_ccitt_false(raw, FRAME_HEADER + len);
    raw[FRAME_HEADER + len] = crc >> 8;
    raw[FRAME_HEADER + len + 1] = crc;
    uint8_t n = cobs_encode(raw, FRAME_HEADER + len + FRAME_CRC, out);
    out[n++] = 0;
    if (uart_tx_room() < n)
        return 0;
    uart_write(out, n);
    return 1;
}

/* The first press the host will get next: the oldest waiting, else the next one made. */
static uint16_t first_seq(void) { return count ? events[head].seq : next_seq; }

static void send_hello(uint32_t now)
{
    uint8_t body[15];
    put16(body, board_id);
    put16(body + 2, boot);
    body[4] = FW_MAJOR;
    body[5] = FW_MINOR;
    body[6] = FW_PATCH;
    body[7] = count;
    put16(body + 8, first_seq());
    put32(body + 10, now);
    body[14] = boot_reset;
    send_frame(T_HELLO, 0, body, sizeof body);
}

void link_init(uint16_t id, uint16_t boots, const struct link_handlers *handlers, uint32_t now)
{
    board_id = id;
    boot = boots;
    apply = handlers;
    send_hello(now);
}

uint8_t link_up(uint32_t now) { return host_seen && now - host_ms < LINK_TIMEOUT_MS; }

uint8_t link_press(uint8_t seat, uint8_t button, uint32_t now)
{
    if (count == EVENT_SLOTS) {
        dropped++;
        return 0;
    }
    struct event *e = &events[(head + count++) % EVENT_SLOTS];
    if (next_seq == 0) { /* the u16 ran out: seqs never repeat within a boot, so the next press starts one */
        next_seq = 1;
        press_round++;
    }
    e->round = press_round;
    e->seq = next_seq++;
    e->seat = seat;
    e->button = button;
    e->pressed_ms = now;
    e->sent = e->acked = 0;
    return 1;
}

static void acked(uint16_t seq)
{
    for (uint8_t i = 0; i < count; i++) {
        struct event *e = &events[(head + i) % EVENT_SLOTS];
        if (e->seq == seq)
            e->acked = 1;
    }
    while (count && events[head].acked) {
        head = (head + 1) % EVENT_SLOTS;
        count--;
    }
}

static void ack(uint8_t type, uint16_t seq) { send_frame(T_ACK, seq, &type, 1); }

/* A command carries the host's sequence number: applied once, acknowledged every time. */
static uint8_t is_new(uint16_t seq)
{
    uint8_t fresh = !host_seq_valid || seq != host_seq;
    host_seq = seq;
    host_seq_valid = 1;
    return fresh;
}

/* One decoded frame; 0 when it is not a message this board knows (counted as unknown). */
static uint8_t dispatch(const uint8_t *f, uint8_t len, uint32_t now)
{
    if (f[0] != PROTOCOL_VERSION)
        return 0;
    uint8_t type = f[1];
    uint16_t seq = get16(f + 2);
    const uint8_t *b = f + FRAME_HEADER;
    uint8_t n = len - FRAME_HEADER;
    switch (type) {
    case T_SYNC:
        if (n != 0)
            return 0;
        host_seq_valid = 0;
        for (uint8_t i = 0; i < count; i++)
            events[(head + i) % EVENT_SLOTS].sent = 0; /* replay every unacknowledged press now */
        send_hello(now);
        break;
    case T_HOST_BEAT:
        if (n != 0)
            return 0;
        break;
    case T_ACK:
        if (n != 1 || b[0] != T_BUTTON)
            return 0;
        acked(seq);
        break;
    case T_DISPLAY:
        if (n != 7 || b[0] >= SEATS || b[6] > REFEREE_GONE)
            return 0;
        if (is_new(seq))
            apply->display(b[0], get32(b + 1), b[5], b[6]);
        ack(type, seq);
        break;
    case T_LIGHT:
        if (n != 2 || b[0] >= SEATS || b[1] > LIGHT_RED)
            return 0;
        if (is_new(seq))
            apply->light(b[0], b[1]);
        ack(type, seq);
        break;
    case T_BUZZER:
        if (n != 5)
            return 0;
        if (is_new(seq))
            apply->buzzer(b[0], get16(b + 1), get16(b + 3));
        ack(type, seq);
        break;
    default:
        return 0;
    }
    host_seen = 1;
    host_ms = now;
    return 1;
}

static void frame_end(uint32_t now)
{
    if (rx_overlong) {
        corrupt++;
    } else if (rx_len) {
        int16_t n = cobs_decode(rx_buf, rx_len);
        if (n < FRAME_HEADER + FRAME_CRC) {
            corrupt++;
        } else {
            n -= FRAME_CRC;
            uint16_t crc = (uint16_t)rx_buf[n] << 8 | rx_buf[n + 1];
            if (crc != crc16_ccitt_false(rx_buf, n))
                corrupt++;
            else if (!dispatch(rx_buf, n, now))
                unknown++;
        }
    }
    rx_len = rx_overlong = 0;
}

void link_receive(uint32_t now)
{
    int16_t c;
    while ((c = uart_read()) >= 0) {
        if (c == 0)
            frame_end(now);
        else if (rx_len < sizeof rx_buf)
            rx_buf[rx_len++] = c;
        else
            rx_overlong = 1;
    }
}

static void send_heartbeat(uint32_t now)
{
    uint8_t body[16];
    put32(body, now);
    body[4] = count;
    body[5] = link_up(now);
    put16(body + 6, corrupt);
    put16(body + 8, unknown);
    put16(body + 10, dropped);
    put32(body + 12, apply->stuck(now));
    if (send_frame(T_HEARTBEAT, 0, body, sizeof body))
        heartbeat_ms = now;
}

/* The oldest waiting press begins a new run of seqs: the presses of the last boot are all acknowledged, so say
 * a new boot (its ids are new: board{id}-{boot}-{seq}) before sending it. */
static void next_round(uint32_t now)
{
    if (uart_tx_room() < FRAME_MAX_ENCODED + 1)
        return; /* the hello must go first: next time round the loop */
    boot = apply->next_boot();
    boot_round = events[head].round;
    boot_reset = 0;
    send_hello(now);
}

void link_send(uint32_t now)
{
    if (count && events[head].round != boot_round)
        next_round(now);
    for (uint8_t i = 0; i < count; i++) {
        struct event *e = &events[(head + i) % EVENT_SLOTS];
        if (e->round != boot_round)
            break; /* presses of the next boot wait until the last boot's are acknowledged */
        if (e->acked || (e->sent && now - e->sent_ms < RETRY_MS))
            continue;
        uint8_t body[10];
        body[0] = e->seat;
        body[1] = e->button;
        put32(body + 2, e->pressed_ms);
        put32(body + 6, now);
        if (!send_frame(T_BUTTON, e->seq, body, sizeof body))
            return;
        e->sent = 1;
        e->sent_ms = now;
    }
    if (now - heartbeat_ms >= HEARTBEAT_MS)
        send_heartbeat(now);
}

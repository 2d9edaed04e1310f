/* The board's side of the serial protocol (../PROTOCOL.md): frames in and out, presses kept
 * until acknowledged, the host's commands applied once by the handlers the application gives. */
#ifndef LINK_H
#define LINK_H

#include <stdint.h>

/* What the host's commands do, given by the application (main.c) to link_init: link_receive
 * calls one for each new (not repeated) command. */
struct link_handlers {
    void (*display)(uint8_t seat, uint32_t clock_ds, uint8_t cards, uint8_t running);
    void (*light)(uint8_t seat, uint8_t light);
    void (*buzzer)(uint8_t beeps, uint16_t on_ms, uint16_t off_ms);
    uint16_t (*next_boot)(void); /* count one more boot (in EEPROM) and return it: the seqs ran out */
    uint32_t (*stuck)(uint32_t now); /* the keys held down too long (bit seat * 8 + button), for the heartbeat */
};

/* At a reset: the board's id, this boot, and the board's clock now (the hello says when the boot began). */
void link_init(uint16_t board_id, uint16_t boot, const struct link_handlers *handlers, uint32_t now);
/* Read what arrived and act on every valid frame. */
void link_receive(uint32_t now);
/* Queue a press; 0 when the queue is full (the press is counted as dropped). */
uint8_t link_press(uint8_t seat, uint8_t button, uint32_t now);
/* Send what is due: new and unacknowledged presses, the heartbeat. */
void link_send(uint32_t now);
/* A valid frame came from the host within LINK_TIMEOUT_MS. */
uint8_t link_up(uint32_t now);

#endif

/* Frames on the serial line: COBS, CRC-16/CCITT-FALSE, zero delimited (see ../PROTOCOL.md). */
#ifndef FRAME_H
#define FRAME_H

#include <stdint.h>

#define PROTOCOL_VERSION 2 /* 2: firmware 2.0 (a u32 clock, stuck keys, when and how a boot began) */
#define FRAME_HEADER 4 /* version, type, seq (little endian) */
#define FRAME_CRC 2    /* big endian, over header and body */
#define FRAME_MAX_RAW 32
#define FRAME_MAX_ENCODED (FRAME_MAX_RAW + FRAME_MAX_RAW / 254 + 2)

enum frame_type {
    T_HELLO = 0x01,
    T_HEARTBEAT = 0x02,
    T_BUTTON = 0x03,
    T_ACK = 0x04,
    T_SYNC = 0x10,
    T_HOST_BEAT = 0x11,
    T_DISPLAY = 0x20,
    T_LIGHT = 0x21,
    T_BUZZER = 0x22,
};

uint16_t crc16_ccitt_false(const uint8_t *data, uint8_t len);
/* COBS-encode len bytes into out (no delimiter); returns the encoded length. */
uint8_t cobs_encode(const uint8_t *in, uint8_t len, uint8_t *out);
/* Decode in place; returns the decoded length, or -1 for an invalid encoding. */
int16_t cobs_decode(uint8_t *buf, uint8_t len);

#endif

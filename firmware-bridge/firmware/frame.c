#include "frame.h"

uint16_t crc16_ccitt_false(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0xFFFF;
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
    }
    return crc;
}

uint8_t cobs_encode(const uint8_t *in, uint8_t len, uint8_t *out)
{
    uint8_t code_at = 0, n = 1, code = 1;
    for (uint8_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = n++;
            code = 1;
        } else {
            out[n++] = in[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                code_at = n++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return n;
}

int16_t cobs_decode(uint8_t *buf, uint8_t len)
{
    uint8_t in = 0, out = 0;
    while (in < len) {
        uint8_t code = buf[in++];
        if (code == 0 || in + code - 1 > len)
            return -1;
        for (uint8_t i = 1; i < code; i++) {
            if (buf[in] == 0)
                return -1;
            buf[out++] = buf[in++];
        }
        if (code != 0xFF && in < len)
            buf[out++] = 0;
    }
    return out;
}

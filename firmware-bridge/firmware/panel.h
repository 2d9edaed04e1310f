/* The seat panels: 32 buttons read through four chained 74HC165, debounced. */
#ifndef PANEL_H
#define PANEL_H

#include <stdint.h>

void panel_init(void);
/* Scan once (every SCAN_MS); calls pressed(seat, button) for each new press. */
void panel_scan(void (*pressed)(uint8_t seat, uint8_t button));

#endif

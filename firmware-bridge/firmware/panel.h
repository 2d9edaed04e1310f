/* The seat panels: 32 buttons read through four chained 74HC165, debounced. */
#ifndef PANEL_H
#define PANEL_H

#include <stdint.h>

void panel_init(void);
/* Scan once (every SCAN_MS); calls pressed(seat, button) for each new press. */
void panel_scan(uint32_t now, void (*pressed)(uint8_t seat, uint8_t button));
/* The keys held down STUCK_MS or longer: bit seat * 8 + button. */
uint32_t panel_stuck(uint32_t now);

#endif

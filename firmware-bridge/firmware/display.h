/* The seat displays (four chained MAX7219, 8 digits each), the turn lights, the link LED. */
#ifndef DISPLAY_H
#define DISPLAY_H

#include <stdint.h>

#define NO_CLOCK 0xFFFFFFFFUL
#define NO_CARDS 0xFF

enum light { LIGHT_OFF, LIGHT_GREEN, LIGHT_AMBER, LIGHT_RED };

struct seat_view {
    uint32_t clock_ds; /* tenths of a second left, NO_CLOCK when none */
    uint8_t cards;     /* cards in hand, NO_CARDS when not shown */
    uint8_t light;
};

void display_init(void);
/* Write all four displays: clock on the left four digits, cards (or "LoSt", or "StUc" for a seat whose bit is set
 * in stuck, panel_stuck's keys) on the right. */
void display_show(const struct seat_view views[], uint8_t link_up, uint32_t stuck);
void lights_show(const struct seat_view views[], uint8_t link_led);

#endif

/* The seat displays (four chained MAX7219, 8 digits each), the turn lights, the link LED. */
#ifndef DISPLAY_H
#define DISPLAY_H

#include <stdint.h>

#define NO_CLOCK 0xFFFFFFFFUL
#define NO_CARDS 0xFF
#define REFEREE_GONE 2 /* a display's running byte: no clock, no cards, the seat shows "rEF GonE" (firmware 2.2.0) */

enum light { LIGHT_OFF, LIGHT_GREEN, LIGHT_AMBER, LIGHT_RED };

struct seat_view {
    uint32_t clock_ds; /* tenths of a second left, NO_CLOCK when none */
    uint8_t cards;     /* cards in hand, NO_CARDS when not shown */
    uint8_t light;
    uint8_t gone;      /* the host says the table's referee (its table service) is gone: "rEF GonE" */
};

void display_init(void);
/* Write all four displays: clock (or "rEF" while the referee is gone) on the left four digits, cards (or "LoSt", or
 * "StUc" for a seat whose bit is set in stuck, panel_stuck's keys, or "GonE") on the right. */
void display_show(const struct seat_view views[], uint8_t link_up, uint32_t stuck);
void lights_show(const struct seat_view views[], uint8_t link_led);

#endif

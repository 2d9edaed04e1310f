/* The table board: pin map and timing (ATmega328P at 16 MHz). The wiring table is in ../README.md. */
#ifndef BOARD_H
#define BOARD_H

#include <avr/io.h>

/* The release's firmware: bus/firmware.py's FIRMWARE is the same (a test holds them equal): the bridge
   and the console say older boards. A new release adds what it mends to the bridge's MENDED. */
#define FW_MAJOR 2
#define FW_MINOR 2
#define FW_PATCH 0

#define SEATS 4            /* S E N W, in this order everywhere */
#define BUTTONS_PER_SEAT 8 /* ready pass confirm referee bid1 bid2 bid3 declare */

/* Buttons: four 74HC165 (one per seat panel) in a chain, seat S nearest the MCU. */
#define BTN_PORT PORTD
#define BTN_DDR DDRD
#define BTN_PIN PIND
#define BTN_LOAD PD2 /* SH/LD, active low */
#define BTN_CLK PD3
#define BTN_DATA PD4 /* QH of seat S's 74HC165 */

/* Displays: four MAX7219 8-digit modules in a chain, seat S nearest the MCU (bit-banged). */
#define DISP_PORT PORTB
#define DISP_DDR DDRB
#define DISP_LOAD PB2
#define DISP_DIN PB3
#define DISP_CLK PB5

/* Turn lights: one red/green LED per seat (amber = both). */
#define GREEN_PORT PORTC /* PC0..PC3: S E N W */
#define GREEN_DDR DDRC
#define RED_S_E_PORT PORTC /* PC4 S, PC5 E */
#define RED_N_W_PORT PORTD /* PD6 N, PD7 W */

#define LINK_LED_PORT PORTB
#define LINK_LED_DDR DDRB
#define LINK_LED PB0

#define BUZZER_PORT PORTD /* active buzzer through an NPN transistor: high = sound */
#define BUZZER_DDR DDRD
#define BUZZER PD5

#define BAUD 115200UL

/* Timing, in milliseconds of the board's clock. */
#define SCAN_MS 1             /* button scan period */
#define LOCKOUT_MS 20         /* a button's changes are ignored this long after a change (bounce) */
#define RETRY_MS 250          /* an unacknowledged press is sent again after this */
#define HEARTBEAT_MS 500      /* board heartbeat period */
#define LINK_TIMEOUT_MS 1500  /* no valid frame from the host this long: the link is lost */
#define TICK_MS 100           /* clocks count down in tenths of a second */
#define EXPIRY_BEEP_MS 600    /* one long beep when a running clock reaches zero */
#define STUCK_MS 5000         /* a key held down this long is stuck (a press is well under a second) */

/* RAM budget (2048 bytes): 1066 static (make size, firmware 2.2.0: the presses' queue 480, the UART rings 256, the
 * frame buffers), the rest the stack's (about 100 bytes at most: send_frame, display_show). Keep the static part
 * under 1200 (tests/hil/test_board.py checks it). */
#define EVENT_SLOTS 32 /* presses kept until the host acknowledges them */

/* EEPROM: board id (written once per board) and the boot counter. */
#define EE_BOARD_ID ((uint16_t *)0)
#define EE_BOOTS ((uint16_t *)2)

#endif

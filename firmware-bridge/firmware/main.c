/* The table board: buttons to the host, the host's clocks, lights and beeps to the seats.
 * Without the host the last clocks keep counting down and the displays show "LoSt"; a seat with a key stuck shows
 * "StUc" until it is let go; the host's word that the table's referee is gone stops the clocks and shows "rEF GonE". */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>

#include "board.h"
#include "display.h"
#include "link.h"
#include "panel.h"
#include "uart.h"

static volatile uint32_t ticks_ms;
static struct seat_view views[SEATS];
static uint8_t running[SEATS];
static uint8_t beeps_left;
static uint16_t beep_on_ms, beep_off_ms;
static uint32_t beep_until; /* end of the current on or off phase */
static uint8_t beep_sounding;

ISR(TIMER1_COMPA_vect) { ticks_ms++; }

static uint32_t now_ms(void)
{
    uint32_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = ticks_ms; }
    return t;
}

static void timer_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10); /* CTC, clk/64 */
    OCR1A = F_CPU / 64 / 1000 - 1;
    TIMSK1 = _BV(OCIE1A);
}

static void buzzer(uint8_t on)
{
    if (on)
        BUZZER_PORT |= _BV(BUZZER);
    else
        BUZZER_PORT &= ~_BV(BUZZER);
    beep_sounding = on;
}

static void beep(uint8_t count, uint16_t on_ms, uint16_t off_ms, uint32_t now)
{
    beeps_left = count;
    beep_on_ms = on_ms;
    beep_off_ms = off_ms;
    beep_until = now;
    buzzer(0);
}

static void buzzer_step(uint32_t now)
{
    if ((int32_t)(now - beep_until) < 0)
        return;
    if (beep_sounding) {
        buzzer(0);
        beep_until = now + beep_off_ms;
    } else if (beeps_left) {
        beeps_left--;
        buzzer(1);
        beep_until = now + beep_on_ms;
    }
}

/* A seat's clock from now on. A clock counting down that reaches zero (here, or by the host's word) beeps once;
 * one that comes at zero (the same command again, a board/out read late, every display after a reboot) does not. */
static void clock_to(uint8_t seat, uint32_t clock_ds, uint8_t run, uint32_t now)
{
    uint8_t counting = running[seat];
    views[seat].clock_ds = clock_ds;
    running[seat] = run && clock_ds != NO_CLOCK && clock_ds;
    if (counting && !clock_ds)
        beep(1, EXPIRY_BEEP_MS, 0, now);
}

/* The host's commands (link.h): a seat's clock and cards (or the referee gone: no clock runs), its light, the buzzer. */
static void on_display(uint8_t seat, uint32_t clock_ds, uint8_t cards, uint8_t run)
{
    views[seat].gone = run == REFEREE_GONE;
    clock_to(seat, clock_ds, run == 1, now_ms());
    views[seat].cards = cards;
}

static void on_light(uint8_t seat, uint8_t light) { views[seat].light = light; }

static void on_buzzer(uint8_t beeps, uint16_t on_ms, uint16_t off_ms) { beep(beeps, on_ms, off_ms, now_ms()); }

static uint16_t next_boot(void)
{
    uint16_t boots = eeprom_read_word(EE_BOOTS);
    boots = boots == 0xFFFF ? 1 : boots + 1;
    eeprom_update_word(EE_BOOTS, boots);
    return boots;
}

static const struct link_handlers commands = {on_display, on_light, on_buzzer, next_boot, panel_stuck};

static void pressed(uint8_t seat, uint8_t button)
{
    if (!link_press(seat, button, now_ms()))
        beep(3, 50, 50, now_ms()); /* the queue is full: this press is lost */
}

/* Every TICK_MS: running clocks (never at zero) lose a tenth. */
static void count_down(uint32_t now)
{
    for (uint8_t seat = 0; seat < SEATS; seat++)
        if (running[seat])
            clock_to(seat, views[seat].clock_ds - 1, 1, now);
}

int main(void)
{
    MCUSR = 0;
    wdt_enable(WDTO_250MS);
    for (uint8_t seat = 0; seat < SEATS; seat++) {
        views[seat].clock_ds = NO_CLOCK;
        views[seat].cards = NO_CARDS;
    }
    BUZZER_DDR |= _BV(BUZZER);
    panel_init();
    display_init();
    uart_init();
    timer_init();
    sei();
    link_init(eeprom_read_word(EE_BOARD_ID), next_boot(), &commands, now_ms());
    uint32_t scanned = 0, ticked = 0;
    for (;;) {
        wdt_reset();
        uint32_t now = now_ms();
        link_receive(now);
        if (now != scanned) {
            scanned = now;
            panel_scan(now, pressed);
            buzzer_step(now);
        }
        link_send(now);
        if (now - ticked >= TICK_MS) {
            ticked += TICK_MS;
            count_down(now);
            uint8_t up = link_up(now);
            display_show(views, up, panel_stuck(now));
            lights_show(views, up || (now / 500) % 2); /* blinks while the link is lost */
        }
        set_sleep_mode(SLEEP_MODE_IDLE);
        cli();
        if (now == now_ms()) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}

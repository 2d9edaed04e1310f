#include "display.h"

#include "board.h"

/* MAX7219 registers; digit registers 1..8, register 8 is the leftmost digit of a module. */
#define REG_DECODE 0x09
#define REG_INTENSITY 0x0A
#define REG_SCAN_LIMIT 0x0B
#define REG_SHUTDOWN 0x0C
#define REG_TEST 0x0F

/* No-decode segment bits: DP A B C D E F G. */
#define SEG_DP 0x80
static const uint8_t DIGITS[10] = {0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, 0x7F, 0x7B};
static const uint8_t LOST[4] = {0x0E, 0x1D, 0x5B, 0x0F};  /* L o S t */
static const uint8_t STUCK[4] = {0x5B, 0x0F, 0x3E, 0x0D}; /* S t U c */
static const uint8_t REF[4] = {0x05, 0x4F, 0x47, 0x00};   /* r E F */
static const uint8_t GONE[4] = {0x5E, 0x1D, 0x15, 0x4F};  /* G o n E */

static void shift16(uint16_t word)
{
    for (uint8_t i = 0; i < 16; i++) {
        if (word & 0x8000)
            DISP_PORT |= _BV(DISP_DIN);
        else
            DISP_PORT &= ~_BV(DISP_DIN);
        DISP_PORT |= _BV(DISP_CLK);
        DISP_PORT &= ~_BV(DISP_CLK);
        word <<= 1;
    }
}

/* One register of each module; the first word shifted ends in the last module (seat W). */
static void write_all(uint8_t reg, const uint8_t values[SEATS])
{
    DISP_PORT &= ~_BV(DISP_LOAD);
    for (int8_t seat = SEATS - 1; seat >= 0; seat--)
        shift16((uint16_t)reg << 8 | values[seat]);
    DISP_PORT |= _BV(DISP_LOAD);
}

static void write_same(uint8_t reg, uint8_t value)
{
    uint8_t values[SEATS] = {value, value, value, value};
    write_all(reg, values);
}

void display_init(void)
{
    DISP_DDR |= _BV(DISP_LOAD) | _BV(DISP_DIN) | _BV(DISP_CLK);
    DISP_PORT |= _BV(DISP_LOAD);
    GREEN_DDR |= 0x3F;                 /* PC0..PC5: green S E N W, red S E */
    DDRD |= _BV(PD6) | _BV(PD7);       /* red N W */
    LINK_LED_DDR |= _BV(LINK_LED);
    write_same(REG_TEST, 0);
    write_same(REG_DECODE, 0);
    write_same(REG_SCAN_LIMIT, 7);
    write_same(REG_INTENSITY, 8);
    write_same(REG_SHUTDOWN, 1);
}

/* A clock of t tenths on the left four digits: under 100 s seconds and tenths (" 8.5"), under 10,000 s whole
 * seconds ("5400"), then hours and minutes with the point after the hours (" 2.46", "24.00"; 99.59 at most). */
static void render_clock(uint32_t t, uint8_t out[4])
{
    if (t < 1000) {
        out[3] = DIGITS[t % 10];
        out[2] = DIGITS[t / 10 % 10] | SEG_DP;
        if (t >= 100)
            out[1] = DIGITS[t / 100];
        return;
    }
    uint32_t minutes = t / 600, hours = minutes / 60 > 99 ? 99 : minutes / 60;
    uint16_t n = t < 100000 ? t / 10 : hours * 100 + minutes % 60;
    for (int8_t i = 3; i >= 0 && n; i--, n /= 10)
        out[i] = DIGITS[n % 10];
    if (t >= 100000)
        out[1] |= SEG_DP;
}

static void word(const uint8_t letters[4], uint8_t out[4])
{
    for (uint8_t i = 0; i < 4; i++)
        out[i] = letters[i];
}

/* The 8 digits of a seat, leftmost first: its clock, and its cards, or LoSt while the link is lost, or StUc while
 * one of its keys is stuck (held down STUCK_MS or more: no press of it comes until it is let go); "rEF GonE" while the
 * host says the table's referee is gone (no clock counts then: a shot clock nobody rules must not run out). */
static void render(const struct seat_view *v, uint8_t link_up, uint8_t stuck, uint8_t out[8])
{
    for (uint8_t i = 0; i < 8; i++)
        out[i] = 0;
    if (v->gone)
        word(REF, out);
    else if (v->clock_ds != NO_CLOCK)
        render_clock(v->clock_ds, out);
    if (!link_up) {
        word(LOST, out + 4);
    } else if (stuck) {
        word(STUCK, out + 4);
    } else if (v->gone) {
        word(GONE, out + 4);
    } else if (v->cards != NO_CARDS) {
        uint8_t c = v->cards;
        for (int8_t i = 7; i >= 4; i--) {
            out[i] = DIGITS[c % 10];
            c /= 10;
            if (!c)
                break;
        }
    }
}

void display_show(const struct seat_view views[], uint8_t link_up, uint32_t stuck)
{
    uint8_t digits[SEATS][8];
    for (uint8_t seat = 0; seat < SEATS; seat++)
        render(&views[seat], link_up, stuck >> (seat * BUTTONS_PER_SEAT) & 0xFF, digits[seat]);
    for (uint8_t pos = 0; pos < 8; pos++) {
        uint8_t values[SEATS];
        for (uint8_t seat = 0; seat < SEATS; seat++)
            values[seat] = digits[seat][pos];
        write_all(8 - pos, values); /* register 8 is position 0 (leftmost) */
    }
}

static void set(volatile uint8_t *port, uint8_t bit, uint8_t on)
{
    if (on)
        *port |= _BV(bit);
    else
        *port &= ~_BV(bit);
}

void lights_show(const struct seat_view views[], uint8_t link_led)
{
    static const uint8_t red_bits[SEATS] = {PC4, PC5, PD6, PD7};
    for (uint8_t seat = 0; seat < SEATS; seat++) {
        uint8_t l = views[seat].light;
        set(&GREEN_PORT, seat, l == LIGHT_GREEN || l == LIGHT_AMBER);
        set(seat < 2 ? &RED_S_E_PORT : &RED_N_W_PORT, red_bits[seat], l == LIGHT_RED || l == LIGHT_AMBER);
    }
    set(&LINK_LED_PORT, LINK_LED, link_led);
}

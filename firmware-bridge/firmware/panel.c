#include "panel.h"

#include "board.h"

#define KEYS (SEATS * BUTTONS_PER_SEAT)

static uint32_t stable;      /* debounced state, bit k = key k pressed */
static uint32_t last_sample; /* the previous raw sample */
static uint32_t locked;      /* keys in their lockout time */
static uint8_t lockout[KEYS];
static uint32_t down_ms[KEYS]; /* when each key pressed now was pressed */

/* Key k is read k-th: seat k / 8; in a seat, input H (declare) comes first, A (ready) last. */
static uint32_t sample(void)
{
    uint32_t pressed = 0, bit = 1;
    BTN_PORT &= ~_BV(BTN_LOAD);
    BTN_PORT |= _BV(BTN_LOAD);
    for (uint8_t k = 0; k < KEYS; k++, bit <<= 1) {
        if (!(BTN_PIN & _BV(BTN_DATA))) /* buttons pull their input low */
            pressed |= bit;
        BTN_PORT &= ~_BV(BTN_CLK);
        BTN_PORT |= _BV(BTN_CLK);
    }
    return pressed;
}

void panel_init(void)
{
    BTN_DDR |= _BV(BTN_LOAD) | _BV(BTN_CLK);
    BTN_DDR &= ~_BV(BTN_DATA);
    /* LOAD and CLK idle high (CLK shifts on its rising edge; and a low PD3, INT1, would make simavr
     * poll its low-level interrupt every cycle). QH is a push-pull output: no pull-up. */
    BTN_PORT |= _BV(BTN_LOAD) | _BV(BTN_CLK);
    stable = last_sample = sample(); /* a key down at boot (held through a reset) is no press: once let go, it is */
}

/* A change counts when two samples in a row agree; then that key is ignored for LOCKOUT_MS
 * (contact bounce), so a press is reported 1-2 ms after the contact closes. */
void panel_scan(uint32_t at, void (*pressed)(uint8_t seat, uint8_t button))
{
    uint32_t now = sample();
    uint32_t changed = ~(now ^ last_sample) & (now ^ stable);
    last_sample = now;
    if (!changed && !locked)
        return; /* the usual case: nothing to do */
    uint32_t bit = 1;
    for (uint8_t k = 0; k < KEYS; k++, bit <<= 1) {
        if (locked & bit) {
            if (--lockout[k] == 0)
                locked &= ~bit;
        } else if (changed & bit) {
            stable ^= bit;
            lockout[k] = LOCKOUT_MS / SCAN_MS;
            locked |= bit;
            if (now & bit) {
                down_ms[k] = at;
                pressed(k / BUTTONS_PER_SEAT, BUTTONS_PER_SEAT - 1 - k % BUTTONS_PER_SEAT);
            }
        }
    }
}

uint32_t panel_stuck(uint32_t now)
{
    uint32_t stuck = 0, bit = 1;
    for (uint8_t k = 0; k < KEYS; k++, bit <<= 1)
        if ((stable & bit) && now - down_ms[k] >= STUCK_MS)
            stuck |= 1UL << (k / BUTTONS_PER_SEAT * BUTTONS_PER_SEAT + BUTTONS_PER_SEAT - 1 - k % BUTTONS_PER_SEAT);
    return stuck;
}

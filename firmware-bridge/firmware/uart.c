#include "uart.h"

#include <avr/interrupt.h>

#include "board.h"

#define RING 128 /* a power of two */

static volatile uint8_t rx[RING], tx[RING];
static volatile uint8_t rx_head, rx_tail, tx_head, tx_tail;

void uart_init(void)
{
    UCSR0A = _BV(U2X0);
    UBRR0 = (uint16_t)((F_CPU / 8 + BAUD / 2) / BAUD - 1);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (rx_head + 1) & (RING - 1);
    if (next == rx_tail)
        return; /* full: the frame it belongs to fails its CRC and is counted */
    rx[rx_head] = byte;
    rx_head = next;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= ~_BV(UDRIE0);
        return;
    }
    UDR0 = tx[tx_tail];
    tx_tail = (tx_tail + 1) & (RING - 1);
}

int16_t uart_read(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t byte = rx[rx_tail];
    rx_tail = (rx_tail + 1) & (RING - 1);
    return byte;
}

uint8_t uart_tx_room(void)
{
    return (uint8_t)(RING - 1 - ((tx_head - tx_tail) & (RING - 1)));
}

void uart_write(const uint8_t *data, uint8_t len)
{
    while (len--) {
        tx[tx_head] = *data++;
        tx_head = (tx_head + 1) & (RING - 1);
    }
    UCSR0B |= _BV(UDRIE0);
}

/* Interrupt-driven USART0 with ring buffers. */
#ifndef UART_H
#define UART_H

#include <stdint.h>

void uart_init(void);
/* The next received byte, or -1 when none is waiting. */
int16_t uart_read(void);
/* Free room in the transmit ring. */
uint8_t uart_tx_room(void);
/* Queue bytes for sending; the caller checks uart_tx_room first. */
void uart_write(const uint8_t *data, uint8_t len);

#endif

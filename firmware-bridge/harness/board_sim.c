/* board_sim: the table board's real firmware in simavr, at real time, for tests and the bench.
 *
 *   board_sim FIRMWARE.elf --link PATH [--board-id N]
 *
 * The ATmega328P's UART is bridged to a pseudo-terminal; PATH is a symlink to it (like
 * /dev/ttyUSB0). The seat panels (four 74HC165) and the displays (four MAX7219) are modelled at
 * their pins. Control on stdin, one command a line, one answer line on stdout each:
 *   press K | release K   key K = seat * 8 + button (seats S E N W, buttons as in PROTOCOL.md);
 *                         answers "ok NS", NS = CLOCK_MONOTONIC nanoseconds when it took effect
 *   bounce K N US         a bouncing contact: key K changes N times, US microseconds apart in
 *                         simulated time, the first change now; answers "ok NS" like press
 *   state                 a JSON line: sim ms, display digits (segment bytes, leftmost first),
 *                         port B/C/D output latches, buzzer level, beeps, bytes in/out
 *   unplug | plug         pull the cable (the pty closes, PATH goes) / plug it back (a new pty)
 *   deaf on | deaf off    the board's receive line broken / mended: the host's bytes are lost, the board's still go
 *   reset                 the reset button (or a power dip): the MCU starts again, its EEPROM kept
 *   poke ADDR V           write the u16 V (little-endian) at RAM address ADDR (avr-nm's address
 *                         less 0x800000), between two instructions: to reach a state quickly
 *   quit
 * The first line printed is "ready PTY", once the firmware has run past its boot (and "reset" answers once
 * it has). Errors go to stderr; a bad command answers "error ...". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_eeprom.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_cycle_timers.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>
#include <simavr/sim_time.h>

#define MCU "atmega328p"
#define FREQUENCY 16000000
#define KEYS 32
#define SEATS 4
#define SLICE_NS 100000 /* simulated time between looks at the wall clock and the I/O */
#define USB_FLUSH_NS 1000000
#define BOOT_NS 5000000 /* simulated time run at a start or reset before answering: the firmware is past its boot */

static avr_t *avr;
static const char *link_path;
static int master = -1, slave = -1;
static char pty_name[128];

/* 74HC165 chain: pins PD2 SH/LD, PD3 CLK, PD4 QH (seat S first, input H first in a seat). */
static int keys[KEYS]; /* 1 = pressed, by key number seat * 8 + button */
static int latched[KEYS], shift_pos, load_low;
static avr_irq_t *qh;

/* MAX7219 chain: PB3 DIN, PB5 CLK, PB2 LOAD (seat S nearest the MCU). */
static int din;
static uint64_t shift_reg;
static uint8_t digits[SEATS][8];
static uint8_t shutdown_reg[SEATS];

/* Active buzzer on PD5. */
static int buzzer_level;
static unsigned long beeps;
static unsigned long bytes_in, bytes_out;

/* UART input waiting for the firmware's receive FIFO. */
static uint8_t inbuf[65536];
static size_t in_head, in_len;
static int xoff, deaf;
static avr_irq_t *uart_in;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "board_sim: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* ---------------------------------------------------------------- the seat panels */

static int key_at(int pos) /* read position -> key number */
{
    int seat = pos / 8, input = 7 - pos % 8; /* H (button 7) comes out first */
    return seat * 8 + input;
}

static void drive_qh(void)
{
    int level = shift_pos < KEYS ? !latched[shift_pos] : 1; /* pressed pulls low; SER tied high */
    avr_raise_irq(qh, level);
}

static void on_load(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    load_low = !value;
    if (load_low) {
        for (int pos = 0; pos < KEYS; pos++)
            latched[pos] = keys[key_at(pos)];
        shift_pos = 0;
        drive_qh();
    }
}

static void on_btn_clk(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    if (value && !load_low) {
        shift_pos++;
        drive_qh();
    }
}

static int bounce_key, bounce_left;
static uint32_t bounce_us;

static avr_cycle_count_t bounce_step(avr_t *a, avr_cycle_count_t when, void *p)
{
    (void)p;
    keys[bounce_key] = !keys[bounce_key];
    return --bounce_left > 0 ? when + avr_usec_to_cycles(a, bounce_us) : 0;
}

/* ---------------------------------------------------------------- the displays */

static void on_din(avr_irq_t *irq, uint32_t value, void *p) { (void)irq, (void)p, din = value != 0; }

static void on_disp_clk(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    if (value)
        shift_reg = shift_reg << 1 | (uint64_t)din;
}

static void on_disp_load(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    if (!value)
        return;
    for (int seat = 0; seat < SEATS; seat++) { /* the last word shifted is in the first module */
        uint16_t word = shift_reg >> (16 * seat);
        int reg = (word >> 8) & 0x0F;
        if (reg >= 1 && reg <= 8)
            digits[seat][8 - reg] = word & 0xFF;
        else if (reg == 0x0C)
            shutdown_reg[seat] = word & 1;
    }
}

static void on_buzzer(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    if (value && !buzzer_level)
        beeps++;
    buzzer_level = value != 0;
}

/* ---------------------------------------------------------------- the serial line */

/* Bytes from the firmware go to the pty like a USB-serial adapter sends them: at the end of a
 * frame (a zero byte) or USB_FLUSH_NS after the first byte waiting, whichever comes first. */
static uint8_t outbuf[4096];
static size_t out_len;
static uint64_t out_since; /* sim time of the first byte waiting */

static void flush_out(void)
{
    if (master >= 0 && out_len) {
        ssize_t n = write(master, outbuf, out_len); /* unplugged or nobody reading: the bytes are lost */
        if (n > 0)
            bytes_out += n;
    }
    out_len = 0;
}

static void on_uart_out(avr_irq_t *irq, uint32_t value, void *p)
{
    (void)irq, (void)p;
    if (!out_len)
        out_since = avr_cycles_to_nsec(avr, avr->cycle);
    outbuf[out_len++] = value;
    if (value == 0 || out_len == sizeof outbuf)
        flush_out();
}

static void on_xon(avr_irq_t *irq, uint32_t value, void *p) { (void)irq, (void)value, (void)p, xoff = 0; }
static void on_xoff(avr_irq_t *irq, uint32_t value, void *p) { (void)irq, (void)value, (void)p, xoff = 1; }

static void feed_uart(void)
{
    while (in_len && !xoff) {
        uint8_t byte = inbuf[in_head];
        in_head = (in_head + 1) % sizeof inbuf;
        in_len--;
        bytes_in++;
        avr_raise_irq(uart_in, byte);
    }
}

static void read_pty(void)
{
    uint8_t buf[4096];
    ssize_t n = read(master, buf, sizeof buf);
    for (ssize_t i = 0; i < n && in_len < sizeof inbuf && !deaf; i++, in_len++)
        inbuf[(in_head + in_len) % sizeof inbuf] = buf[i];
}

static void plug(void)
{
    master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (master < 0 || grantpt(master) || unlockpt(master) || ptsname_r(master, pty_name, sizeof pty_name))
        die("pty");
    slave = open(pty_name, O_RDWR | O_NOCTTY); /* held open: the master never sees a hangup */
    if (slave < 0)
        die(pty_name);
    struct termios t;
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    tcsetattr(slave, TCSANOW, &t);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.new", link_path);
    unlink(tmp);
    if (symlink(pty_name, tmp) || rename(tmp, link_path))
        die(link_path);
}

static void unplug(void)
{
    out_len = 0;
    unlink(link_path);
    close(slave);
    close(master);
    master = slave = -1;
    in_len = 0;
}

/* ---------------------------------------------------------------- control */

static void print_state(void)
{
    uint8_t b = avr->data[0x25], c = avr->data[0x28], d = avr->data[0x2B]; /* PORTB PORTC PORTD */
    printf("{\"ms\": %llu, \"digits\": [",
           (unsigned long long)(avr_cycles_to_nsec(avr, avr->cycle) / 1000000));
    for (int seat = 0; seat < SEATS; seat++) {
        printf("%s[", seat ? ", " : "");
        for (int i = 0; i < 8; i++)
            printf("%s%u", i ? ", " : "", digits[seat][i]);
        printf("]");
    }
    printf("], \"lit\": [%u, %u, %u, %u], \"port\": {\"B\": %u, \"C\": %u, \"D\": %u}, \"buzzer\": %d,"
           " \"beeps\": %lu, \"rx\": %lu, \"tx\": %lu, \"plugged\": %s}\n",
           shutdown_reg[0], shutdown_reg[1], shutdown_reg[2], shutdown_reg[3], b, c, d, buzzer_level,
           beeps, bytes_in, bytes_out, master >= 0 ? "true" : "false");
}

/* Run the firmware BOOT_NS from a start or a reset before the control channel says so: a key pressed the
 * moment after "ready" is then pressed on a running board, never taken for a key held down at boot (which the
 * firmware rightly ignores until let go) because this process had not yet been given the CPU. */
static void boot(void)
{
    avr_cycle_count_t until = avr->cycle + avr_usec_to_cycles(avr, BOOT_NS / 1000);
    while (avr->cycle < until) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "board_sim: the firmware stopped at its boot (state %d)\n", state);
            exit(1);
        }
    }
}

static int command(char *line)
{
    int key;
    char word[16];
    if (sscanf(line, "%15s", word) != 1)
        return printf("error empty command\n"), 1;
    if (!strcmp(word, "press") || !strcmp(word, "release")) {
        if (sscanf(line, "%*s %d", &key) != 1 || key < 0 || key >= KEYS)
            return printf("error key must be 0..%d\n", KEYS - 1), 1;
        keys[key] = word[0] == 'p';
        printf("ok %llu\n", (unsigned long long)mono_ns());
    } else if (!strcmp(word, "bounce")) {
        int changes, us;
        if (sscanf(line, "%*s %d %d %d", &key, &changes, &us) != 3 || key < 0 || key >= KEYS || changes < 1 || us < 1)
            return printf("error bounce K N US: key 0..%d, N and US at least 1\n", KEYS - 1), 1;
        bounce_key = key;
        bounce_left = changes;
        bounce_us = us;
        avr_cycle_timer_register(avr, 1, bounce_step, NULL);
        printf("ok %llu\n", (unsigned long long)mono_ns());
    } else if (!strcmp(word, "poke")) { /* set a u16 of the firmware's RAM, as a debugger would */
        unsigned addr, value;
        if (sscanf(line, "%*s %u %u", &addr, &value) != 2 || addr < 0x100 || addr + 1 > avr->ramend || value > 0xFFFF)
            return printf("error poke ADDR VALUE: a RAM address 256..%u and a u16\n", avr->ramend - 1), 1;
        avr->data[addr] = value & 0xFF;
        avr->data[addr + 1] = value >> 8;
        printf("ok\n");
    } else if (!strcmp(word, "state")) {
        print_state();
    } else if (!strcmp(word, "unplug")) {
        if (master >= 0)
            unplug();
        printf("ok\n");
    } else if (!strcmp(word, "plug")) {
        if (master < 0)
            plug();
        printf("ok %s\n", pty_name);
    } else if (!strcmp(word, "deaf")) {
        char how[4];
        if (sscanf(line, "%*s %3s", how) != 1 || (strcmp(how, "on") && strcmp(how, "off")))
            return printf("error deaf on|off\n"), 1;
        deaf = !strcmp(how, "on");
        printf("ok\n");
    } else if (!strcmp(word, "reset")) {
        avr_reset(avr);
        load_low = 0, shift_pos = KEYS; /* the pins' latches are cleared: drive QH again as the chain drives it */
        avr_raise_irq(qh, 0);
        avr_raise_irq(qh, 1);
        boot();
        printf("ok %llu\n", (unsigned long long)mono_ns());
    } else if (!strcmp(word, "quit")) {
        return 0;
    } else {
        printf("error unknown command %s\n", word);
    }
    return 1;
}

static char ctl[4096];
static size_t ctl_len;

static int read_control(void)
{
    ssize_t n = read(0, ctl + ctl_len, sizeof ctl - 1 - ctl_len);
    if (n <= 0)
        return 0; /* stdin closed: the test is gone */
    ctl_len += n;
    char *nl;
    while ((nl = memchr(ctl, '\n', ctl_len))) {
        *nl = 0;
        int go_on = command(ctl);
        fflush(stdout);
        ctl_len -= nl + 1 - ctl;
        memmove(ctl, nl + 1, ctl_len);
        if (!go_on)
            return 0;
    }
    if (ctl_len == sizeof ctl - 1)
        ctl_len = 0;
    return 1;
}

/* ---------------------------------------------------------------- setup and the loop */

static void log_to_stderr(avr_t *a, const int level, const char *format, va_list ap)
{
    (void)a;
    if (level <= LOG_WARNING)
        vfprintf(stderr, format, ap);
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long) { (void)a, (void)how_long; } /* we pace */

static void notify(char port, int pin, avr_irq_notify_t fn)
{
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), pin), fn, NULL);
}

static void setup(const char *elf, int board_id)
{
    avr_global_logger_set(log_to_stderr); /* stdout is the control channel */
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw)) {
        fprintf(stderr, "board_sim: cannot read %s\n", elf);
        exit(2);
    }
    strcpy(fw.mmcu, MCU);
    fw.frequency = FREQUENCY;
    avr = avr_make_mcu_by_name(MCU);
    if (!avr) {
        fprintf(stderr, "board_sim: simavr does not know %s\n", MCU);
        exit(2);
    }
    avr_init(avr);
    avr_load_firmware(avr, &fw);
    avr->sleep = no_sleep;
    uint8_t id[2] = {board_id & 0xFF, board_id >> 8};
    avr_eeprom_desc_t ee = {.ee = id, .offset = 0, .size = 2};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &ee);

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), on_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_xoff, NULL);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);

    qh = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 4);
    notify('D', 2, on_load);
    notify('D', 3, on_btn_clk);
    notify('D', 5, on_buzzer);
    notify('B', 3, on_din);
    notify('B', 5, on_disp_clk);
    notify('B', 2, on_disp_load);
    avr_raise_irq(qh, 1);
}

int main(int argc, char **argv)
{
    const char *elf = NULL;
    int board_id = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link_path = argv[++i];
        else if (!strcmp(argv[i], "--board-id") && i + 1 < argc)
            board_id = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !elf)
            elf = argv[i];
        else
            elf = NULL, i = argc;
    }
    if (!elf || !link_path) {
        fprintf(stderr, "usage: board_sim FIRMWARE.elf --link PATH [--board-id N]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    setup(elf, board_id);
    plug();
    boot();
    printf("ready %s\n", pty_name);
    fflush(stdout);

    uint64_t start = mono_ns() - avr_cycles_to_nsec(avr, avr->cycle);
    for (;;) {
        avr_cycle_count_t until = avr->cycle + avr_usec_to_cycles(avr, SLICE_NS / 1000);
        while (avr->cycle < until) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "board_sim: the firmware stopped (state %d)\n", state);
                return 1;
            }
        }
        int64_t ahead = (int64_t)avr_cycles_to_nsec(avr, avr->cycle) - (int64_t)(mono_ns() - start);
        struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = master, .events = POLLIN}};
        struct timespec wait = {.tv_sec = ahead > 0 ? ahead / 1000000000 : 0,
                                .tv_nsec = ahead > 0 ? ahead % 1000000000 : 0};
        if (ppoll(fds, master >= 0 ? 2 : 1, &wait, NULL) < 0 && errno != EINTR)
            die("poll");
        if (fds[0].revents && !read_control())
            break;
        if (master >= 0 && (fds[1].revents & POLLIN))
            read_pty();
        feed_uart();
        if (out_len && avr_cycles_to_nsec(avr, avr->cycle) - out_since >= USB_FLUSH_NS)
            flush_out();
    }
    if (master >= 0)
        unplug();
    return 0;
}

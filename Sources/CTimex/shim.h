#ifndef CLICKWHEEL_CTIMEX_SHIM_H
#define CLICKWHEEL_CTIMEX_SHIM_H
#include <sys/timex.h>

// Glibc's Swift module does not export sys/timex.h (adjtimex, STA_UNSYNC, TIME_ERROR).
// 1: the kernel says the clock is synchronised (adjtimex reads, modes 0, and neither returns
// TIME_ERROR nor has STA_UNSYNC in status); 0: it says it is not; -1: adjtimex failed (errno).
static inline int cw_clock_synchronised(void) {
    struct timex t = {0};
    int state = adjtimex(&t);
    if (state == -1) return -1;
    return state != TIME_ERROR && !(t.status & STA_UNSYNC);
}
#endif

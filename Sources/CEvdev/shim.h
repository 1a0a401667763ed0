#ifndef CLICKWHEEL_CEVDEV_SHIM_H
#define CLICKWHEEL_CEVDEV_SHIM_H
#include <stdint.h>
#include <linux/input.h>
#include <libevdev/libevdev.h>

// input_event's time is `time.tv_sec` on 64-bit but `__sec` on 32-bit with 64-bit time_t; the
// input_event_sec/usec macros pick the field, and Swift cannot import those macros.
static inline int64_t cw_input_event_sec(const struct input_event *event) {
    return (int64_t)event->input_event_sec;
}

static inline int64_t cw_input_event_usec(const struct input_event *event) {
    return (int64_t)event->input_event_usec;
}
#endif

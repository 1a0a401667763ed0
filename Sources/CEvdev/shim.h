#ifndef CLICKWHEEL_CEVDEV_SHIM_H
#define CLICKWHEEL_CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#endif

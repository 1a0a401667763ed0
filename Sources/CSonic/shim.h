#ifndef CLICKWHEEL_CSONIC_SHIM_H
#define CLICKWHEEL_CSONIC_SHIM_H
/* libsonic (Debian's libsonic-dev, no pkg-config file): Swift imports sonic.h as it is. */
#include <sonic.h>
#endif

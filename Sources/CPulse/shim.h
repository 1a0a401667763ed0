#ifndef CLICKWHEEL_CPULSE_SHIM_H
#define CLICKWHEEL_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#endif

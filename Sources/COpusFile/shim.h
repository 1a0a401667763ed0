#ifndef CLICKWHEEL_COPUSFILE_SHIM_H
#define CLICKWHEEL_COPUSFILE_SHIM_H
/* libopusfile (its .pc adds -I/usr/include/opus, where opusfile.h finds opus_multistream.h). */
#include <opusfile.h>
#endif

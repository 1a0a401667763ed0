#ifndef CLICKWHEEL_CFLAC_SHIM_H
#define CLICKWHEEL_CFLAC_SHIM_H
/* libFLAC's stream decoder; nothing here needs a shim (its API has no macros Swift must call). */
#include <FLAC/stream_decoder.h>
#endif

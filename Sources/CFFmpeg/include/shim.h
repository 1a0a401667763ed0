#ifndef CLICKWHEEL_CFFMPEG_SHIM_H
#define CLICKWHEEL_CFFMPEG_SHIM_H
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/dict.h>
#include <libavutil/samplefmt.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are function-like macros (FFERRTAG, MKTAG): Swift cannot import them. */
static inline int cw_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int cw_averror_eof(void) { return AVERROR_EOF; }
/* AV_NOPTS_VALUE is a cast expression Swift does not import. */
static inline int64_t cw_av_nopts_value(void) { return AV_NOPTS_VALUE; }
#endif

#ifndef CLICKWHEEL_COPUSFILE_SHIM_H
#define CLICKWHEEL_COPUSFILE_SHIM_H
/* libopusfile (its .pc adds -I/usr/include/opus, where opusfile.h finds opus_multistream.h). */
#include <opusfile.h>

/* Decoding a link of one Opus stream (mono, or stereo in the plain order: every file opusenc makes
   of one or two channels) with `opus_decode_float` on libopusfile's own decoder's stream 0, in place
   of libopusfile's `opus_multistream_decode_float`.

   Why: the multistream wrapper of libopus 1.3.1 asks `opus_decoder_get_size` for its layout on every
   packet (twice in its `OPUS_GET_SAMPLE_RATE` ctl, twice more itself), and where libopus is built
   with custom modes (Debian's is) each of those runs `opus_custom_mode_create` and with it the
   CPU-feature probe, two `cpuid`s: four probes per packet. `opus_decode_float` on the stream runs
   none. It is the same decode: the multistream wrapper of a single stream calls the same
   `opus_decode_native` with the same arguments and copies the channels out in the same order, so the
   output is identical to the sample. The stream's state stays libopusfile's: its resets on a seek or
   a new link (`OPUS_RESET_STATE`) and the header gain (`OPUS_SET_GAIN`) reach it through the wrapper.

   Any other layout (several streams: surround; a mapping that swaps or repeats channels) is left to
   libopusfile (`OP_DEC_USE_DEFAULT`). `stream` is found once per decoder and link (the ctl that finds
   it costs the same probes) and forgotten on a seek (`cw_opus_direct_forget`): libopusfile may have
   made a new decoder for another link, and a new one can sit at the old one's address. */
typedef struct {
    const OggOpusFile *file;
    OpusMSDecoder *multistream; /* the decoder `stream` is stream 0 of, NULL: look it up again */
    int link;                   /* the link it was looked up for */
    OpusDecoder *stream;
    long long direct;           /* packets decoded here */
    long long multistreamed;    /* packets left to libopusfile */
} cw_opus_direct;

static inline int cw_opus_direct_decode(
    void *context, OpusMSDecoder *decoder, void *pcm, const ogg_packet *packet, int samples, int channels,
    int format, int link) {
    cw_opus_direct *d = (cw_opus_direct *)context;
    const OpusHead *head = op_head(d->file, link);
    int single = head != NULL && head->stream_count == 1 && head->channel_count == channels
        && ((channels == 1 && head->coupled_count == 0 && head->mapping[0] == 0)
            || (channels == 2 && head->coupled_count == 1 && head->mapping[0] == 0 && head->mapping[1] == 1));
    if (single && (decoder != d->multistream || link != d->link || d->stream == NULL)) {
        OpusDecoder *stream = NULL;
        d->multistream = NULL;
        if (opus_multistream_decoder_ctl(decoder, OPUS_MULTISTREAM_GET_DECODER_STATE(0, &stream)) == OPUS_OK
            && stream != NULL) {
            d->multistream = decoder;
            d->link = link;
            d->stream = stream;
        }
    }
    if (!single || d->multistream == NULL) {
        d->multistreamed += 1;
        return OP_DEC_USE_DEFAULT;
    }
    int n = format == OP_DEC_FORMAT_FLOAT
        ? opus_decode_float(d->stream, packet->packet, (opus_int32)packet->bytes, (float *)pcm, samples, 0)
        : opus_decode(d->stream, packet->packet, (opus_int32)packet->bytes, (opus_int16 *)pcm, samples, 0);
    if (n < 0) return n;
    d->direct += 1;
    /* libopusfile asks for the packet's own sample count; any other count is a bad packet. */
    return n == samples ? 0 : OPUS_INVALID_PACKET;
}

/* Decodes `file`'s single-stream links through `d` (which must outlive `file`'s decoding). */
static inline void cw_opus_direct_start(OggOpusFile *file, cw_opus_direct *d) {
    d->file = file;
    d->multistream = NULL;
    d->link = -1;
    d->stream = NULL;
    d->direct = 0;
    d->multistreamed = 0;
    op_set_decode_callback(file, cw_opus_direct_decode, d);
}

/* Before a seek: the decoder is looked up again on the next packet. */
static inline void cw_opus_direct_forget(cw_opus_direct *d) { d->multistream = NULL; d->stream = NULL; }
#endif

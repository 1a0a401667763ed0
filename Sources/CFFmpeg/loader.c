/* FFmpeg's libraries, opened with dlopen on the first call into them.
 *
 * Debian's libavformat and libavcodec pull in about 130 shared libraries (x264, x265, libbluray, gnutls,
 * X11...). Linked to the binary, every start of the service maps and relocates all of them and they stay
 * resident, while only MP4 files (AAC, ALAC) are ever decoded with FFmpeg. So nothing here is linked: each
 * function the FFmpeg module calls is defined below with FFmpeg's own prototype (the headers check it),
 * and forwards to the library's symbol, resolved once, on the first call of any of them.
 *
 * Should the libraries be missing, every call fails the way FFmpeg fails (an AVERROR code, NULL, nothing
 * done), and av_strerror gives dlerror's text: the track fails with one clear error, the rest plays on.
 * The Debian package still depends on the libraries (contrib/package/build-deb.sh names them to
 * dpkg-shlibdeps).
 *
 * The definitions are hidden: were the binary to export them, the libraries' own calls between each other
 * could bind to these forwarders instead of to themselves. */
#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CW_STR2(x) #x
#define CW_STR(x) CW_STR2(x)
#define CW_SONAME(lib, major) "lib" lib ".so." CW_STR(major)

/* Every symbol used, as (library index, name): one pointer each in `cw_ffmpeg`. */
#define CW_FFMPEG_SYMBOLS(X)                                                                                 \
    X(0, avformat_open_input)                                                                                \
    X(0, avformat_find_stream_info)                                                                          \
    X(0, avformat_close_input)                                                                               \
    X(0, av_find_best_stream)                                                                                \
    X(0, av_read_frame)                                                                                      \
    X(0, av_seek_frame)                                                                                      \
    X(1, avcodec_find_decoder)                                                                               \
    X(1, avcodec_alloc_context3)                                                                             \
    X(1, avcodec_free_context)                                                                               \
    X(1, avcodec_parameters_to_context)                                                                      \
    X(1, avcodec_open2)                                                                                      \
    X(1, avcodec_send_packet)                                                                                \
    X(1, avcodec_receive_frame)                                                                              \
    X(1, avcodec_flush_buffers)                                                                              \
    X(1, avcodec_get_name)                                                                                   \
    X(1, av_packet_alloc)                                                                                    \
    X(1, av_packet_free)                                                                                     \
    X(1, av_packet_unref)                                                                                    \
    X(2, av_frame_alloc)                                                                                     \
    X(2, av_frame_free)                                                                                      \
    X(2, av_frame_unref)                                                                                     \
    X(2, av_dict_get)                                                                                        \
    X(2, av_dict_set)                                                                                        \
    X(2, av_dict_free)                                                                                       \
    X(2, av_log_set_level)                                                                                   \
    X(2, av_strerror)

#ifdef CW_FFMPEG_LINK_STUB
/* contrib/package/build-deb.sh builds this file as a program linked to every symbol above, for
 * dpkg-shlibdeps to name the libraries (and the versions having those symbols) in the package's Depends. */
int main(void) {
#define CW_USE(lib, name) (const void *)&name,
    static const void *const volatile used[] = {CW_FFMPEG_SYMBOLS(CW_USE)};
#undef CW_USE
    return used[0] == NULL;
}
#else

static struct {
#define CW_FIELD(lib, name) __typeof__(&name) name;
    CW_FFMPEG_SYMBOLS(CW_FIELD)
#undef CW_FIELD
} cw_ffmpeg;

static pthread_once_t cw_ffmpeg_once = PTHREAD_ONCE_INIT;
static int cw_ffmpeg_loaded;
static char cw_ffmpeg_failure[256];

static void cw_ffmpeg_load(void) {
    /* Dependencies first: libavcodec needs libavutil, libavformat both. */
    static const char *const sonames[3] = {
        CW_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
        CW_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        CW_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    };
    void *handles[3] = {NULL, NULL, NULL};
    for (int i = 2; i >= 0; i--) {
        handles[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (handles[i] == NULL) {
            const char *why = dlerror();
            snprintf(cw_ffmpeg_failure, sizeof cw_ffmpeg_failure, "FFmpeg is not available (%s)",
                     why ? why : sonames[i]);
            return;
        }
    }
#define CW_RESOLVE(lib, name)                                                                                \
    cw_ffmpeg.name = (__typeof__(&name))dlsym(handles[lib], #name);                                          \
    if (cw_ffmpeg.name == NULL) {                                                                            \
        snprintf(cw_ffmpeg_failure, sizeof cw_ffmpeg_failure, "FFmpeg is not available (%s lacks %s)",       \
                 sonames[lib], #name);                                                                       \
        return;                                                                                              \
    }
    CW_FFMPEG_SYMBOLS(CW_RESOLVE)
#undef CW_RESOLVE
    /* The handles stay open for the life of the process. */
    cw_ffmpeg_loaded = 1;
}

/* True once every symbol is resolved (loading on the first call). */
static int cw_ffmpeg_ready(void) {
    pthread_once(&cw_ffmpeg_once, cw_ffmpeg_load);
    return cw_ffmpeg_loaded;
}

#define CW_HIDDEN __attribute__((visibility("hidden")))
/* A forwarder returning `failed` when the libraries cannot be loaded. */
#define CW_FORWARD(ret, name, params, args, failed)                                                          \
    CW_HIDDEN ret name params {                                                                              \
        if (!cw_ffmpeg_ready()) return failed;                                                               \
        return cw_ffmpeg.name args;                                                                          \
    }
#define CW_FORWARD_VOID(name, params, args)                                                                  \
    CW_HIDDEN void name params {                                                                             \
        if (cw_ffmpeg_ready()) cw_ffmpeg.name args;                                                          \
    }
#define CW_UNAVAILABLE AVERROR(ENOSYS)

CW_FORWARD(int, avformat_open_input,
           (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
           (ps, url, fmt, options), CW_UNAVAILABLE)
CW_FORWARD(int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options),
           CW_UNAVAILABLE)
CW_FORWARD_VOID(avformat_close_input, (AVFormatContext **s), (s))
CW_FORWARD(int, av_find_best_stream,
           (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
            const AVCodec **decoder_ret, int flags),
           (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags), CW_UNAVAILABLE)
CW_FORWARD(int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt), CW_UNAVAILABLE)
CW_FORWARD(int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags),
           (s, stream_index, timestamp, flags), CW_UNAVAILABLE)

CW_FORWARD(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id), NULL)
CW_FORWARD(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec), NULL)
CW_FORWARD_VOID(avcodec_free_context, (AVCodecContext **avctx), (avctx))
CW_FORWARD(int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par),
           (codec, par), CW_UNAVAILABLE)
CW_FORWARD(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),
           (avctx, codec, options), CW_UNAVAILABLE)
CW_FORWARD(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt),
           CW_UNAVAILABLE)
CW_FORWARD(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame),
           CW_UNAVAILABLE)
CW_FORWARD_VOID(avcodec_flush_buffers, (AVCodecContext *avctx), (avctx))
CW_FORWARD(const char *, avcodec_get_name, (enum AVCodecID id), (id), "unknown")
CW_FORWARD(AVPacket *, av_packet_alloc, (void), (), NULL)
CW_FORWARD_VOID(av_packet_free, (AVPacket **pkt), (pkt))
CW_FORWARD_VOID(av_packet_unref, (AVPacket *pkt), (pkt))

CW_FORWARD(AVFrame *, av_frame_alloc, (void), (), NULL)
CW_FORWARD_VOID(av_frame_free, (AVFrame **frame), (frame))
CW_FORWARD_VOID(av_frame_unref, (AVFrame *frame), (frame))
CW_FORWARD(AVDictionaryEntry *, av_dict_get,
           (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags),
           (m, key, prev, flags), NULL)
CW_FORWARD(int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags),
           (pm, key, value, flags), CW_UNAVAILABLE)
CW_FORWARD_VOID(av_dict_free, (AVDictionary **m), (m))
CW_FORWARD_VOID(av_log_set_level, (int level), (level))

/* Also the reason the libraries could not be loaded, for the code the other forwarders return then. */
CW_HIDDEN int av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
    if (!cw_ffmpeg_ready()) {
        snprintf(errbuf, errbuf_size, "%s", cw_ffmpeg_failure);
        return 0;
    }
    return cw_ffmpeg.av_strerror(errnum, errbuf, errbuf_size);
}
#endif

#ifndef CLICKWHEEL_CMPG123_SHIM_H
#define CLICKWHEEL_CMPG123_SHIM_H
#include <stdint.h>
#include <mpg123.h>

/* The off_t functions below are macros that pick a _64 variant on 32-bit systems with
   _FILE_OFFSET_BITS=64 (armhf Pi OS); Swift cannot see macros, so these wrappers resolve them in C. */
static inline int cw_mpg123_open_fd(mpg123_handle *mh, int fd) { return mpg123_open_fd(mh, fd); }
static inline int64_t cw_mpg123_length(mpg123_handle *mh) { return (int64_t)mpg123_length(mh); }
static inline int64_t cw_mpg123_framelength(mpg123_handle *mh) { return (int64_t)mpg123_framelength(mh); }
static inline int64_t cw_mpg123_seek(mpg123_handle *mh, int64_t sample, int whence) {
    return (int64_t)mpg123_seek(mh, (off_t)sample, whence);
}
static inline int64_t cw_mpg123_tell(mpg123_handle *mh) { return (int64_t)mpg123_tell(mh); }
static inline int64_t cw_mpg123_framepos(mpg123_handle *mh) { return (int64_t)mpg123_framepos(mh); }
static inline int cw_mpg123_set_filesize(mpg123_handle *mh, int64_t size) {
    return mpg123_set_filesize(mh, (off_t)size);
}

/* Reading a file through a window that starts at `base`: libmpg123 then sees the stream begin there.
   Used for files whose ID3v2 header claims more bytes than the file has (libmpg123 would skip to EOF). */
#include <unistd.h>
typedef struct { int fd; int64_t base; } cw_mpg123_window;
static inline mpg123_ssize_t cw_mpg123_window_read(void *h, void *buf, size_t n) {
    cw_mpg123_window *w = (cw_mpg123_window *)h;
    return read(w->fd, buf, n);
}
static inline off_t cw_mpg123_window_lseek(void *h, off_t offset, int whence) {
    cw_mpg123_window *w = (cw_mpg123_window *)h;
    if (whence == SEEK_SET) offset += (off_t)w->base;
    off_t r = lseek(w->fd, offset, whence);
    return r < 0 ? r : r - (off_t)w->base;
}
/* Reading from memory (a mapped file): mpg123_scan reads every frame with two read() calls per
   frame through the fd reader; from memory it costs no system call at all. */
#include <string.h>
typedef struct { const unsigned char *data; int64_t size; int64_t pos; } cw_mpg123_memory;
static inline mpg123_ssize_t cw_mpg123_memory_read(void *h, void *buf, size_t n) {
    cw_mpg123_memory *m = (cw_mpg123_memory *)h;
    int64_t left = m->size - m->pos;
    if (left <= 0) return 0;
    if ((int64_t)n > left) n = (size_t)left;
    memcpy(buf, m->data + m->pos, n);
    m->pos += (int64_t)n;
    return (mpg123_ssize_t)n;
}
static inline off_t cw_mpg123_memory_lseek(void *h, off_t offset, int whence) {
    cw_mpg123_memory *m = (cw_mpg123_memory *)h;
    int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->pos : m->size;
    int64_t target = base + (int64_t)offset;
    if (target < 0) return -1;
    m->pos = target;
    return (off_t)target;
}
static inline int cw_mpg123_open_memory(mpg123_handle *mh, cw_mpg123_memory *m) {
    int r = mpg123_replace_reader_handle(mh, cw_mpg123_memory_read, cw_mpg123_memory_lseek, NULL);
    if (r != MPG123_OK) return r;
    return mpg123_open_handle(mh, m);
}
static inline int cw_mpg123_restore_reader(mpg123_handle *mh) { return mpg123_replace_reader(mh, NULL, NULL); }
static inline int cw_mpg123_open_window(mpg123_handle *mh, cw_mpg123_window *w) {
    int r = mpg123_replace_reader_handle(mh, cw_mpg123_window_read, cw_mpg123_window_lseek, NULL);
    if (r != MPG123_OK) return r;
    if (lseek(w->fd, (off_t)w->base, SEEK_SET) < 0) return MPG123_LSEEK_FAILED;
    return mpg123_open_handle(mh, w);
}

/* Reading a file as libmpg123 needs it while indexing (the scanner's cold-read path, issue 23):
   positioned reads (pread) of exactly the bytes asked for, so no read-ahead pulls in what is not;
   ranges the caller knows libmpg123 never looks at (APIC picture payloads, which it skips by the
   frame's size unless MPG123_PICTURE is set) read as zeros without touching the disk; and from
   `stream_from` on, reads served from a large buffer refilled by one pread each, for the files
   whose every frame must be read (mpg123_scan): one system call per buffer, not two per frame.
   The stream libmpg123 sees starts at `base` (a file whose ID3v2 header claims more bytes than the
   file has is opened at its audio) and is exactly as long as the file: same offsets, same size. */
#include <errno.h>
#define CW_MPG123_HOLES 16
typedef struct {
    int fd;
    int64_t base, size, pos;                    /* file offsets; pos is the stream's position + base */
    int64_t hole_start[CW_MPG123_HOLES], hole_end[CW_MPG123_HOLES];   /* sorted, disjoint */
    int holes;
    int64_t stream_from;                        /* buffered from here on (INT64_MAX: never) */
    unsigned char *buffer; int64_t capacity, buffer_at, buffer_fill;
    int error;                                  /* errno of a failed pread, 0 if none */
} cw_mpg123_source;

static inline int64_t cw_pread_full(cw_mpg123_source *s, unsigned char *out, int64_t n, int64_t at) {
    int64_t done = 0;
    while (done < n) {
        ssize_t r = pread(s->fd, out + done, (size_t)(n - done), (off_t)(at + done));
        if (r < 0) { if (errno == EINTR) continue; s->error = errno; return -1; }
        if (r == 0) break;
        done += r;
    }
    return done;
}

/* Exact reads of [at, at+n) with the holes read as zeros. */
static inline int64_t cw_mpg123_source_exact(cw_mpg123_source *s, unsigned char *out, int64_t n, int64_t at) {
    int64_t done = 0;
    while (done < n) {
        int64_t p = at + done, stop = at + n;
        int in_hole = 0;
        for (int i = 0; i < s->holes; ++i) {
            if (p >= s->hole_start[i] && p < s->hole_end[i]) { in_hole = 1; if (s->hole_end[i] < stop) stop = s->hole_end[i]; break; }
            if (s->hole_start[i] > p && s->hole_start[i] < stop) stop = s->hole_start[i];
        }
        if (in_hole) { memset(out + done, 0, (size_t)(stop - p)); done += stop - p; continue; }
        int64_t r = cw_pread_full(s, out + done, stop - p, p);
        if (r < 0) return -1;
        done += r;
        if (r < stop - p) break;                /* end of file */
    }
    return done;
}

static inline mpg123_ssize_t cw_mpg123_source_read(void *h, void *buf, size_t n) {
    cw_mpg123_source *s = (cw_mpg123_source *)h;
    unsigned char *out = (unsigned char *)buf;
    int64_t left = s->size - s->pos;
    if (left <= 0) return 0;
    int64_t want = (int64_t)n < left ? (int64_t)n : left, done = 0;
    while (done < want) {
        int64_t p = s->pos + done;
        if (p < s->stream_from || s->buffer == NULL) {
            int64_t part = want - done;
            if (s->buffer != NULL && p + part > s->stream_from) part = s->stream_from - p;
            int64_t r = cw_mpg123_source_exact(s, out + done, part, p);
            if (r < 0) return -1;
            done += r;
            if (r < part) break;
            continue;
        }
        if (p < s->buffer_at || p >= s->buffer_at + s->buffer_fill) {
            int64_t r = cw_pread_full(s, s->buffer, s->capacity, p);
            if (r < 0) return -1;
            s->buffer_at = p; s->buffer_fill = r;
            if (r == 0) break;
        }
        int64_t have = s->buffer_at + s->buffer_fill - p, part = want - done < have ? want - done : have;
        memcpy(out + done, s->buffer + (p - s->buffer_at), (size_t)part);
        done += part;
    }
    s->pos += done;
    return (mpg123_ssize_t)done;
}

static inline off_t cw_mpg123_source_lseek(void *h, off_t offset, int whence) {
    cw_mpg123_source *s = (cw_mpg123_source *)h;
    int64_t from = whence == SEEK_SET ? s->base : whence == SEEK_CUR ? s->pos : s->size;
    int64_t target = from + (int64_t)offset;
    if (target < s->base) { errno = EINVAL; return -1; }
    s->pos = target;
    return (off_t)(target - s->base);
}

static inline int cw_mpg123_open_source(mpg123_handle *mh, cw_mpg123_source *s) {
    int r = mpg123_replace_reader_handle(mh, cw_mpg123_source_read, cw_mpg123_source_lseek, NULL);
    if (r != MPG123_OK) return r;
    s->pos = s->base;
    return mpg123_open_handle(mh, s);
}
#endif

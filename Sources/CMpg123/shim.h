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
#endif

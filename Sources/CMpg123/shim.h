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
#endif

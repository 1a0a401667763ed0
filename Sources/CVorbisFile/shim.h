#ifndef CLICKWHEEL_CVORBISFILE_SHIM_H
#define CLICKWHEEL_CVORBISFILE_SHIM_H
/* vorbisfile.h defines static callback tables (OV_CALLBACKS_DEFAULT, …) that every includer would get a
   copy of, and warns when they go unused; they are not needed here (files open by name: ov_fopen). */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
#endif

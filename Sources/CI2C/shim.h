#ifndef CLICKWHEEL_CI2C_SHIM_H
#define CLICKWHEEL_CI2C_SHIM_H
#include <sys/ioctl.h>
#include <linux/i2c-dev.h>

// ioctl is variadic and I2C_SLAVE comes from linux/i2c-dev.h, which Glibc's module does not export.
static inline int cw_i2c_set_slave(int fd, long address) {
    return ioctl(fd, I2C_SLAVE, address);
}
#endif

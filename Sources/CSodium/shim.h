#ifndef CONCORD_CSODIUM_SHIM_H
#define CONCORD_CSODIUM_SHIM_H
#include <sodium.h>
#endif

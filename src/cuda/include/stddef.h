/* autosync stand-in: the C library subset lives in __autosync_libc.h. */
#include "__autosync_libc.h"

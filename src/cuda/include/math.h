/* autosync stand-in: math lives in __autosync_math.h (included by cuda_runtime.h). */
#include "__autosync_math.h"
#include "__autosync_std.h"

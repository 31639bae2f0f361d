/* autosync stand-in. */
#include "reduce.h"

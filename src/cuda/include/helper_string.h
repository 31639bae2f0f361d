/* autosync stand-in. */
#include "helper_functions.h"

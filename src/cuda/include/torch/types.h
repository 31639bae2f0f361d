// autosync stand-in.
#include "extension.h"

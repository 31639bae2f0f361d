// autosync stand-in.
#include "../../torch/extension.h"

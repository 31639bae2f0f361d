/* autosync stand-in. */
#include "cuda_pipeline.h"

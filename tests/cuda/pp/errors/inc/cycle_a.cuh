// the cycle: a -> b -> a, no include guards
#include "cycle_b.cuh"

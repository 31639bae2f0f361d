#include "cycle_a.cuh"

// An umbrella header of the library (tests/cuda/messages/header_kernel_nested.cu): the kernels
// are one include further down.
#pragma once
#include "../tile_kernels.cuh"

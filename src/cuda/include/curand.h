/* autosync stand-in for curand.h: the host generator API. */
#ifndef __AUTOSYNC_CURAND_H
#define __AUTOSYNC_CURAND_H
#include "cuda_runtime.h"
typedef struct curandGenerator_st *curandGenerator_t;
typedef enum curandStatus { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;
typedef enum curandRngType { CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101 } curandRngType_t;
extern "C" {
curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num);
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean, float stddev);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
}
#endif

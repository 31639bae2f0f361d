// Shared parameters of the pp tests (found through -I).
#ifndef PARAMS_CUH
#define PARAMS_CUH
#define TILE 16
#define AT(row, col) ((row) * TILE + (col))
typedef unsigned int index_t;
#endif

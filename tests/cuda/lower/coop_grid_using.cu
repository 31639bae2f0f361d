#include <cooperative_groups.h>
using namespace cooperative_groups;

// `using namespace`: unqualified names; `sync(g)` on the grid.
__global__ void grid_using(float *x, int n) {
    grid_group g = this_grid();
    unsigned i = g.thread_rank();
    if (i < n)
        x[i] = 0.0f;
    sync(g);
    if (i == 0)
        x[n - 1] = 1.0f;
}

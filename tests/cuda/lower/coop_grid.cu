#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The grid group through an alias: a variable, its members, its sync, and `this_grid().sync()`.
__global__ void grid_alias(int *data, int *out) {
    cg::grid_group grid = cg::this_grid();
    unsigned r = grid.thread_rank();
    data[r] = (int)grid.size();
    grid.sync();
    out[grid.block_rank()] = data[(r + 1) % grid.size()];
    cg::this_grid().sync();
    out[grid.block_index().x + grid.dim_blocks().y] = (int)grid.num_blocks();
    cg::sync(grid);
}

// `auto` and a device function taking the grid by reference.
__device__ void phase_barrier(const cg::grid_group &g) {
    g.sync();
}

__global__ void grid_auto(int *data) {
    auto grid = cg::this_grid();
    data[blockIdx.x] = 1;
    phase_barrier(grid);
    data[0] += (int)grid.num_threads();
}

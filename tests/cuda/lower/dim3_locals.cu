// `dim3` locals: three unsigned fields; the constructor's missing fields are 1 (also for
// `dim3 d;`, brace lists and `dim3 q(w);`, which the parser reads as a function declaration);
// a launch built-in copies whole, also into a `uint3`.
#define TILE 16

__device__ unsigned linear(dim3 at, dim3 extent) { return at.y * extent.x + at.x; }

__global__ void tiles(float *out, const float *in, int w, int h) {
    dim3 t = threadIdx;
    uint3 b = blockIdx;
    dim3 tile(TILE, TILE);
    dim3 one;
    dim3 wide{2, 3};
    dim3 cols(w);
    dim3 extent = dim3(w, h);
    dim3 at(b.x * tile.x + t.x, b.y * tile.y + t.y);
    at.x += one.z - 1;
    if (at.x < extent.x && at.y < extent.y && wide.z == 1 && cols.y == 1) {
        out[linear(at, extent)] = in[at.y * w + at.x];
    }
}

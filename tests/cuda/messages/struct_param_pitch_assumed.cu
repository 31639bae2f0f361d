// The image of struct_param_pitch.cu checked with the guarantee its report asks for, written as
// the source names the fields: `--assume img.pitch>=img.width`.
#include <cuda_runtime.h>
#include <cstdlib>

struct Image {
    int width;
    int height;
    int pitch;
};

__global__ void brighten(float *pixels, Image img, float gain)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < img.width && y < img.height)
        pixels[y * img.pitch + x] *= gain;
}

int main(int argc, char **argv)
{
    Image img;
    img.width = atoi(argv[1]);
    img.height = atoi(argv[2]);
    img.pitch = (img.width + 31) / 32 * 32;
    float *pixels;
    cudaMalloc(&pixels, (size_t)img.pitch * img.height * sizeof(float));
    dim3 block(32, 8);
    dim3 grid((img.width + 31) / 32, (img.height + 7) / 8);
    brighten<<<grid, block>>>(pixels, img, 1.5f);
    cudaDeviceSynchronize();
    return 0;
}

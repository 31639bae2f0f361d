// Runs the non-warp-synchronous SDK-style kernels on the host (cuda_exec.h: one std::thread per
// CUDA thread, std::barrier for __syncthreads) and compares every output with a CPU reference
// written independently of the kernel. A missing barrier shows up as a wrong result only by
// chance, so this checks the algorithms and launch geometry; barrier necessity is for the oracle.
// Build and run with run_host.sh (it prepares the kernel copies). Exit status: failed kernels.
#include "cuda_exec.h"
#include <cstdio>
#include <random>

namespace k_reduce0 {
#include "sdk_kernels/reduce0.cu"
}
namespace k_reduce1 {
#include "sdk_kernels/reduce1.cu"
}
namespace k_reduce2 {
#include "sdk_kernels/reduce2.cu"
}
namespace k_reduce3 {
#include "sdk_kernels/reduce3.cu"
}
namespace k_convRows {
#include "sdk_kernels/convolutionRows.cu"
}
#undef KERNEL_RADIUS
#undef KERNEL_LENGTH
#undef IMAGE_W
#undef IMAGE_H
namespace k_convCols {
#include "sdk_kernels/convolutionColumns.cu"
}
#undef IMAGE_W
#undef IMAGE_H
namespace k_transpose {
#include "sdk_kernels/transpose.cu"
}
namespace k_nlm {
#include "sdk_kernels/imageDenoisingNLM.cu"
}
#undef IMAGE_W
#undef IMAGE_H
namespace k_matmul {
#include "sdk_kernels/matrixMul.cu"
}
namespace k_merge256 {
#include "sdk_kernels/mergeHistogram256.cu"
}
#undef MERGE_THREADBLOCK_SIZE
namespace k_merge64 {
#include "sdk_kernels/mergeHistogram64.cu"
}
namespace k_sobol {
#include "sdk_kernels/sobol.cu"
}
namespace k_sum0 {
#include "sdk_kernels/sum0.cu"
}
#undef BLOCK_SIZE
namespace k_sum1 {
#include "sdk_kernels/sum1.cu"
}
namespace k_uniformUpdate {
#include "sdk_kernels/uniformUpdate.cu"
}
namespace k_uniformAdd {
#include "sdk_kernels/uniformAdd.cu"
}
namespace k_hillis {
#include "sdk_kernels/scan_hillis_steele.cu"
}
namespace k_blelloch {
#include "sdk_kernels/scan_blelloch.cu"
}
#undef SORT_SIZE
namespace k_bitonic {
#include "sdk_kernels/bitonic_sort.cu"
}
#undef SORT_SIZE
namespace k_oddeven {
#include "sdk_kernels/odd_even_merge_sort.cu"
}
#undef BLOCK_SIZE
namespace k_stencil1d {
#include "sdk_kernels/stencil1d.cu"
}
#undef N
#undef IMAGE_W
#undef IMAGE_H
namespace k_stencil2d {
#include "sdk_kernels/stencil2d.cu"
}
namespace k_fft {
#include "sdk_kernels/fft_butterfly.cu"
}
#undef IMAGE_W
#undef IMAGE_H
namespace k_conv2d {
#include "sdk_kernels/tiled_conv2d.cu"
}
#undef THREADBLOCK_SIZE
namespace k_hist {
#include "sdk_kernels/histogram_atomic.cu"
}
#undef BLOCK_SIZE
namespace k_rounds {
#include "sdk_kernels/uniform_bound_loop.cu"
}

static std::mt19937 rng(12345);
static int failures = 0;

static std::vector<float> randomFloats(size_t n, bool integral)
{
    std::uniform_int_distribution<int> d(-8, 8);
    std::vector<float> v(n);
    for (auto &x : v) x = integral ? (float)d(rng) : (float)d(rng) / 8.0f;
    return v;
}

static std::vector<unsigned> randomUints(size_t n, unsigned bound)
{
    std::uniform_int_distribution<unsigned> d(0, bound - 1);
    std::vector<unsigned> v(n);
    for (auto &x : v) x = d(rng);
    return v;
}

template <class T>
static void expect(const char *name, const std::vector<T> &got, const std::vector<T> &want, double tol)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < want.size(); i++)
        if (!(std::fabs((double)got[i] - (double)want[i]) <= tol * (1.0 + std::fabs((double)want[i]))))
            if (bad++ == 0) first = i;
    if (bad == 0) {
        std::printf("ok   %s (%zu values)\n", name, want.size());
    } else {
        std::printf("FAIL %s: %zu of %zu differ, first at %zu: got %g want %g\n", name, bad, want.size(),
                    first, (double)got[first], (double)want[first]);
        failures++;
    }
}

template <class K>
static void testBlockReduce(const char *name, K kernel, unsigned perThread)
{
    const unsigned grid = 64, block = 256, n = grid * block * perThread - 100;
    auto in = randomFloats(n, true);
    std::vector<float> out(grid), want(grid, 0.0f);
    launch(dim3(grid), dim3(block), kernel, in.data(), out.data(), n);
    for (unsigned i = 0; i < n; i++) want[i / (block * perThread)] += in[i];
    expect(name, out, want, 0);
}

int main()
{
    testBlockReduce("reduce0", k_reduce0::reduce0<float>, 1);
    testBlockReduce("reduce1", k_reduce1::reduce1<float>, 1);
    testBlockReduce("reduce2", k_reduce2::reduce2<float>, 1);
    testBlockReduce("reduce3", k_reduce3::reduce3<float>, 2);

    { // separable convolution, row then column pass, zero outside the image
        const int W = 256, H = 256, R = 8;
        auto img = randomFloats(W * H, false), ker = randomFloats(2 * R + 1, false);
        std::memcpy(k_convRows::c_Kernel, ker.data(), sizeof(float) * ker.size());
        std::vector<float> out(W * H), want(W * H, 0.0f);
        launch(dim3(4, 64), dim3(16, 4), k_convRows::convolutionRowsKernel, out.data(), (const float *)img.data());
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int k = -R; k <= R; k++)
                    if (x + k >= 0 && x + k < W) want[y * W + x] += ker[R - k] * img[y * W + x + k];
        expect("convolutionRows", out, want, 1e-5);
    }
    {
        const int W = 128, H = 256, R = 8;
        auto img = randomFloats(W * H, false), ker = randomFloats(2 * R + 1, false);
        std::memcpy(k_convCols::c_Kernel, ker.data(), sizeof(float) * ker.size());
        std::vector<float> out(W * H), want(W * H, 0.0f);
        launch(dim3(8, 8), dim3(16, 8), k_convCols::convolutionColumnsKernel, out.data(), (const float *)img.data());
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int k = -R; k <= R; k++)
                    if (y + k >= 0 && y + k < H) want[y * W + x] += ker[R - k] * img[(y + k) * W + x];
        expect("convolutionColumns", out, want, 1e-5);
    }
    {
        const int W = 128, H = 128;
        auto in = randomFloats(W * H, false);
        std::vector<float> out(W * H), want(W * H);
        launch(dim3(8, 8), dim3(16, 16), k_transpose::transpose, out.data(), (const float *)in.data());
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) want[x * H + y] = in[y * W + x];
        expect("transpose", out, want, 0);
    }
    { // NLM: weights of each 8x8 block from its centre pixel's 3x3 patch, then 7x7 weighted average
        const int W = 128, H = 128;
        const float noise = 0.5f, lerpC = 0.2f;
        auto src = randomFloats(W * H, false);
        auto at = [&](int x, int y) { return src[std::clamp(y, 0, H - 1) * W + std::clamp(x, 0, W - 1)]; };
        std::vector<float> out(W * H), want(W * H);
        launch(dim3(16, 16), dim3(8, 8), k_nlm::NLM2, out.data(), (const float *)src.data(), noise, lerpC);
        for (int by = 0; by < 16; by++)
            for (int bx = 0; bx < 16; bx++) {
                const int cx = bx * 8 + 3, cy = by * 8 + 3;
                float w[7][7];
                for (int oy = -3; oy <= 3; oy++)
                    for (int ox = -3; ox <= 3; ox++) {
                        float d = 0;
                        for (int n = -1; n <= 1; n++)
                            for (int m = -1; m <= 1; m++) {
                                const float e = at(cx + ox + m, cy + oy + n) - at(cx + m, cy + n);
                                d += e * e;
                            }
                        w[oy + 3][ox + 3] = std::exp(-(d * noise + (ox * ox + oy * oy) / 49.0f));
                    }
                for (int py = 0; py < 8; py++)
                    for (int px = 0; px < 8; px++) {
                        const int x = bx * 8 + px, y = by * 8 + py;
                        float s = 0, ws = 0, cnt = 0;
                        for (int i = -3; i <= 3; i++)
                            for (int j = -3; j <= 3; j++) {
                                s += w[i + 3][j + 3] * at(x + j, y + i);
                                ws += w[i + 3][j + 3];
                                cnt += w[i + 3][j + 3] > 0.1f ? 1.0f / 49.0f : 0.0f;
                            }
                        const float q = cnt > 0.1f ? lerpC : 1.0f - lerpC;
                        want[y * W + x] = s / ws + (at(x, y) - s / ws) * q;
                    }
            }
        expect("imageDenoisingNLM", out, want, 1e-4);
    }
    {
        const int wA = 64, hA = 128, wB = 128;
        auto A = randomFloats(hA * wA, false), B = randomFloats(wA * wB, false);
        std::vector<float> C(hA * wB), want(hA * wB, 0.0f);
        launch(dim3(8, 8), dim3(16, 16), k_matmul::matrixMul<16>, C.data(), (const float *)A.data(), (const float *)B.data(), wA);
        for (int i = 0; i < hA; i++)
            for (int j = 0; j < wB; j++)
                for (int k = 0; k < wA; k++) want[i * wB + j] += A[i * wA + k] * B[k * wB + j];
        expect("matrixMul", C, want, 1e-5);
    }
    for (unsigned bins : {256u, 64u}) {
        const unsigned count = 300;
        auto partial = randomUints(count * bins, 1000);
        std::vector<unsigned> out(bins), want(bins, 0);
        if (bins == 256)
            launch(dim3(256), dim3(256), k_merge256::mergeHistogram256Kernel, out.data(), (const unsigned *)partial.data(), count);
        else
            launch(dim3(64), dim3(128), k_merge64::mergeHistogram64Kernel, out.data(), (const unsigned *)partial.data(), count);
        for (unsigned i = 0; i < count * bins; i++) want[i % bins] += partial[i];
        expect(bins == 256 ? "mergeHistogram256" : "mergeHistogram64", out, want, 0);
    }
    { // Sobol: reference by the incremental Gray-code recurrence x_i = x_{i-1} ^ v[ctz(i)]
        const unsigned n = 65536, dims = 4;
        auto dirs = randomUints(32 * dims, 0xffffffffu);
        std::vector<float> out(n * dims), want(n * dims);
        launch(dim3(16, dims), dim3(64), k_sobol::sobolGPU_kernel, out.data(), (const unsigned *)dirs.data());
        for (unsigned d = 0; d < dims; d++) {
            unsigned x = 0;
            want[d * n] = 0.0f;
            for (unsigned i = 1; i < n; i++) {
                x ^= dirs[d * 32 + __builtin_ctz(i)];
                want[d * n + i] = (float)x * 2.3283064365386963e-10f;
            }
        }
        expect("sobol", out, want, 0);
    }
    {
        auto in = randomFloats(64 * 256, true);
        std::vector<float> out(in.size()), want(in.size());
        launch(dim3(64), dim3(256), k_sum0::sum0, out.data(), (const float *)in.data());
        for (int b = 0; b < 64; b++) {
            float s = 0;
            for (int t = 0; t < 256; t++) s += in[b * 256 + t];
            for (int t = 0; t < 256; t++) want[b * 256 + t] = in[b * 256 + t] - s / 256.0f;
        }
        expect("sum0", out, want, 1e-6);
    }
    {
        const int rows = 100, cols = 300;
        auto M = randomFloats(rows * cols, true);
        std::vector<float> out(rows), want(rows, 0.0f);
        launch(dim3(32), dim3(128), k_sum1::sum1<128>, out.data(), (const float *)M.data(), rows, cols);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) want[r] += M[r * cols + c];
        expect("sum1", out, want, 0);
    }
    {
        const unsigned count4 = 64 * 256 - 10;
        auto buf = randomUints(64, 1000);
        auto raw = randomUints(64 * 256 * 4, 1000);
        std::vector<uint4> data(64 * 256);
        std::memcpy(data.data(), raw.data(), raw.size() * 4);
        launch(dim3(64), dim3(256), k_uniformUpdate::uniformUpdate, data.data(), (const unsigned *)buf.data(), count4);
        std::vector<unsigned> got(raw.size()), want(raw);
        std::memcpy(got.data(), data.data(), raw.size() * 4);
        for (unsigned i = 0; i < count4 * 4; i++) want[i] += buf[i / 1024];
        expect("uniformUpdate", got, want, 0);
    }
    {
        const unsigned n = 64 * 256 - 50, blockOffset = 3, base = 0;
        auto data = randomFloats(64 * 256, true), uni = randomFloats(70, true);
        auto want = data;
        launch(dim3(64), dim3(128), k_uniformAdd::uniformAdd, data.data(), (const float *)uni.data(), n, blockOffset, base);
        for (unsigned i = 0; i < n; i++) want[i] += uni[i / 256 + blockOffset];
        expect("uniformAdd", data, want, 0);
    }
    {
        auto in = randomFloats(32 * 256, true);
        std::vector<float> out(in.size()), want(in.size());
        launch(dim3(32), dim3(256), k_hillis::scanHillisSteele<256>, out.data(), (const float *)in.data());
        for (int i = 0; i < 32 * 256; i++) want[i] = in[i] + (i % 256 ? want[i - 1] : 0.0f);
        expect("scan_hillis_steele", out, want, 0);
    }
    {
        auto in = randomFloats(32 * 256, true);
        std::vector<float> out(in.size()), want(in.size()), sums(32), wantSums(32);
        launch(dim3(32), dim3(128), k_blelloch::scanBlelloch, out.data(), (const float *)in.data(), sums.data());
        for (int i = 0; i < 32 * 256; i++) want[i] = i % 256 ? want[i - 1] + in[i - 1] : 0.0f;
        for (int b = 0; b < 32; b++) wantSums[b] = want[b * 256 + 255] + in[b * 256 + 255];
        expect("scan_blelloch", out, want, 0);
        expect("scan_blelloch (block sums)", sums, wantSums, 0);
    }
    for (int which = 0; which < 2; which++) {
        auto keys = randomUints(16 * 256, 1u << 20);
        auto want = keys;
        for (int b = 0; b < 16; b++) std::sort(want.begin() + b * 256, want.begin() + b * 256 + 256);
        if (which == 0)
            launch(dim3(16), dim3(256), k_bitonic::bitonicSortShared, keys.data());
        else
            launch(dim3(16), dim3(256), k_oddeven::oddEvenMergeSortShared, keys.data());
        expect(which == 0 ? "bitonic_sort" : "odd_even_merge_sort", keys, want, 0);
    }
    {
        const int n = 64 * 256, R = 3;
        auto in = randomFloats(n + 2 * R, false), w = randomFloats(2 * R + 1, false);
        std::memcpy(k_stencil1d::c_weights, w.data(), sizeof(float) * w.size());
        std::vector<float> out(n), want(n, 0.0f);
        launch(dim3(64), dim3(256), k_stencil1d::stencil1d, out.data(), (const float *)in.data());
        for (int i = 0; i < n; i++)
            for (int o = -R; o <= R; o++) want[i] += w[o + R] * in[i + R + o];
        expect("stencil1d", out, want, 1e-5);
    }
    { // Jacobi on each 16x16 tile with a fixed, clamped one-pixel halo
        const int W = 128, H = 128, iters = 3;
        auto in = randomFloats(W * H, false);
        auto at = [&](int x, int y) { return in[std::clamp(y, 0, H - 1) * W + std::clamp(x, 0, W - 1)]; };
        std::vector<float> out(W * H), want(W * H);
        launch(dim3(8, 8), dim3(16, 16), k_stencil2d::jacobi2d, out.data(), (const float *)in.data(), iters);
        for (int by = 0; by < 8; by++)
            for (int bx = 0; bx < 8; bx++) {
                float t[18][18] = {};
                for (int y = -1; y <= 16; y++)
                    for (int x = -1; x <= 16; x++) t[y + 1][x + 1] = at(bx * 16 + x, by * 16 + y);
                for (int it = 0; it < iters; it++) {
                    float nt[18][18];
                    std::memcpy(nt, t, sizeof t);
                    for (int y = 1; y <= 16; y++)
                        for (int x = 1; x <= 16; x++)
                            nt[y][x] = 0.25f * (t[y][x - 1] + t[y][x + 1] + t[y - 1][x] + t[y + 1][x]);
                    std::memcpy(t, nt, sizeof t);
                }
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 16; x++) want[(by * 16 + y) * W + bx * 16 + x] = t[y + 1][x + 1];
            }
        expect("stencil2d", out, want, 1e-5);
    }
    { // FFT against a direct DFT
        const int N = 256, blocks = 4;
        auto re = randomFloats(N * blocks, false), im = randomFloats(N * blocks, false);
        std::vector<float2> data(N * blocks);
        for (int i = 0; i < N * blocks; i++) data[i] = float2{re[i], im[i]};
        launch(dim3(blocks), dim3(128), k_fft::fftRadix2, data.data());
        std::vector<float> got(2 * N * blocks), want(2 * N * blocks);
        for (int b = 0; b < blocks; b++)
            for (int k = 0; k < N; k++) {
                double sr = 0, si = 0;
                for (int n = 0; n < N; n++) {
                    const double a = -2.0 * M_PI * k * n / N;
                    sr += re[b * N + n] * std::cos(a) - im[b * N + n] * std::sin(a);
                    si += re[b * N + n] * std::sin(a) + im[b * N + n] * std::cos(a);
                }
                want[2 * (b * N + k)] = (float)sr;
                want[2 * (b * N + k) + 1] = (float)si;
                got[2 * (b * N + k)] = data[b * N + k].x;
                got[2 * (b * N + k) + 1] = data[b * N + k].y;
            }
        expect("fft_butterfly", got, want, 1e-3);
    }
    {
        const int W = 128, H = 128, R = 2;
        auto in = randomFloats(W * H, false), mask = randomFloats(25, false);
        std::memcpy(k_conv2d::c_Mask, mask.data(), sizeof(float) * mask.size());
        auto at = [&](int x, int y) { return in[std::clamp(y, 0, H - 1) * W + std::clamp(x, 0, W - 1)]; };
        std::vector<float> out(W * H), want(W * H, 0.0f);
        launch(dim3(8, 8), dim3(16, 16), k_conv2d::convolution2D, out.data(), (const float *)in.data());
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int my = 0; my < 5; my++)
                    for (int mx = 0; mx < 5; mx++) want[y * W + x] += mask[my * 5 + mx] * at(x + mx - R, y + my - R);
        expect("tiled_conv2d", out, want, 1e-5);
    }
    {
        const unsigned count = 100000;
        auto raw = randomUints(count, 256);
        std::vector<unsigned char> data(raw.begin(), raw.end());
        std::vector<unsigned> hist(256, 0), want(256, 0);
        launch(dim3(32), dim3(256), k_hist::histogramShared, hist.data(), (const unsigned char *)data.data(), count);
        for (auto v : raw) want[v]++;
        expect("histogram_atomic", hist, want, 0);
    }
    {
        const int B = 16, T = 128;
        auto data = randomFloats(B * T, false);
        std::vector<int> rounds(B);
        for (int b = 0; b < B; b++) rounds[b] = b % 11; // 8..10 are clamped to 8
        auto want = data;
        launch(dim3(B), dim3(T), k_rounds::smoothRounds, data.data(), (const int *)rounds.data());
        for (int b = 0; b < B; b++)
            for (int r = 0; r < std::min(rounds[b], 8); r++) {
                std::vector<float> v(want.begin() + b * T, want.begin() + b * T + T);
                for (int t = 0; t < T; t++)
                    want[b * T + t] = 0.25f * (v[(t + T - 1) % T] + 2.0f * v[t] + v[(t + 1) % T]);
            }
        expect("uniform_bound_loop", data, want, 1e-5);
    }
    std::printf("%d failure(s)\n", failures);
    return failures;
}

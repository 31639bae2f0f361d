#pragma once
// Found next to the including file.
#define SCALE(a, i) a[i] = a[i] * 2.0f

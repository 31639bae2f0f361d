// a header with a broken condition
#define X 1
#if X +
#endif

// autosync stand-in for the C++ standard library subset CUDA application host code uses:
// containers, algorithms, streams, strings, numeric_limits, chrono, smart pointers. Parsing the
// real headers costs far more than the kernels themselves; these are declarations only.
#ifndef __AUTOSYNC_STD_H
#define __AUTOSYNC_STD_H
#include "__autosync_libc.h"
#include "__autosync_math.h"
namespace std {
typedef ::size_t size_t;
typedef ::ptrdiff_t ptrdiff_t;
typedef decltype(nullptr) nullptr_t;
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::intptr_t; using ::uintptr_t;
using ::printf; using ::fprintf; using ::sprintf; using ::snprintf; using ::puts; using ::FILE;
using ::fopen; using ::fclose; using ::fread; using ::fwrite; using ::fflush;
using ::malloc; using ::calloc; using ::realloc; using ::free; using ::exit; using ::abort;
using ::atoi; using ::atof; using ::rand; using ::srand; using ::getenv; using ::qsort;
using ::memcpy; using ::memset; using ::memcmp; using ::strlen; using ::strcmp; using ::strcpy;
using ::sqrt; using ::sqrtf; using ::exp; using ::expf; using ::log; using ::logf; using ::pow;
using ::powf; using ::fabs; using ::fabsf; using ::floor; using ::ceil; using ::round;
using ::sin; using ::cos; using ::tan; using ::tanh; using ::atan2; using ::fmax; using ::fmin;
using ::fmod; using ::abs; using ::isnan; using ::isinf; using ::isfinite; using ::erf;
using ::log2; using ::exp2; using ::hypot; using ::trunc; using ::fma; using ::cbrt;

template <class E> class initializer_list {
  const E *__begin_;
  size_t __size_;
  constexpr initializer_list(const E *b, size_t s) : __begin_(b), __size_(s) {}

public:
  constexpr initializer_list() : __begin_(0), __size_(0) {}
  constexpr size_t size() const { return __size_; }
  constexpr const E *begin() const { return __begin_; }
  constexpr const E *end() const { return __begin_ + __size_; }
};

template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> struct remove_reference<T &&> { typedef T type; };
template <class T> constexpr typename remove_reference<T>::type &&move(T &&t) noexcept;
template <class T> constexpr T &&forward(typename remove_reference<T>::type &t) noexcept;
template <class T> __host__ __device__ void swap(T &a, T &b);
template <class A, class B> struct pair {
  A first;
  B second;
  pair();
  pair(const A &a, const B &b);
};
template <class A, class B> pair<A, B> make_pair(A a, B b);
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <class A, class B> struct is_same { static constexpr bool value = false; };
template <class A> struct is_same<A, A> { static constexpr bool value = true; };

template <class T> __host__ __device__ constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <class T> __host__ __device__ constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
template <class T> T min(initializer_list<T> l);
template <class T> T max(initializer_list<T> l);
template <class It> void sort(It first, It last);
template <class It, class C> void sort(It first, It last, C comp);
template <class It, class T> void fill(It first, It last, const T &v);
template <class It, class N, class T> It fill_n(It first, N n, const T &v);
template <class It, class Out> Out copy(It first, It last, Out out);
template <class It> It max_element(It first, It last);
template <class It> It min_element(It first, It last);
template <class It, class T> It find(It first, It last, const T &v);
template <class It, class F> F for_each(It first, It last, F f);
template <class It, class Out, class F> Out transform(It first, It last, Out out, F f);
template <class It> void reverse(It first, It last);
template <class It, class T> T accumulate(It first, It last, T init);
template <class It, class T, class Op> T accumulate(It first, It last, T init, Op op);
template <class It, class T> void iota(It first, It last, T v);
template <class T> constexpr const T &clamp(const T &v, const T &lo, const T &hi);

template <class T> class allocator {};
template <class T, class A = allocator<T>> class vector {
public:
  typedef T value_type;
  typedef T *iterator;
  typedef const T *const_iterator;
  typedef size_t size_type;
  vector();
  explicit vector(size_t n);
  vector(size_t n, const T &v);
  vector(initializer_list<T> l);
  template <class It> vector(It first, It last);
  vector(const vector &o);
  vector &operator=(const vector &o);
  ~vector();
  T &operator[](size_t i);
  const T &operator[](size_t i) const;
  T &at(size_t i);
  T *data();
  const T *data() const;
  size_t size() const;
  bool empty() const;
  void push_back(const T &v);
  template <class... Args> T &emplace_back(Args &&...args);
  void pop_back();
  void resize(size_t n);
  void resize(size_t n, const T &v);
  void reserve(size_t n);
  void clear();
  void assign(size_t n, const T &v);
  T &front();
  T &back();
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  iterator insert(const_iterator pos, const T &v);
  iterator erase(const_iterator pos);
};
template <class T, size_t N> struct array {
  T __elems[N];
  __host__ __device__ T &operator[](size_t i);
  __host__ __device__ const T &operator[](size_t i) const;
  __host__ __device__ constexpr size_t size() const { return N; }
  __host__ __device__ T *data();
  T *begin();
  T *end();
  void fill(const T &v);
};

class string {
public:
  static const size_t npos = static_cast<size_t>(-1);
  string();
  string(const char *s);
  string(const char *s, size_t n);
  string(size_t n, char c);
  string(const string &o);
  string &operator=(const string &o);
  string &operator=(const char *s);
  ~string();
  const char *c_str() const;
  const char *data() const;
  size_t size() const;
  size_t length() const;
  bool empty() const;
  char &operator[](size_t i);
  string &operator+=(const string &o);
  string &operator+=(const char *s);
  string &operator+=(char c);
  string substr(size_t pos, size_t n = npos) const;
  size_t find(const string &s, size_t pos = 0) const;
  size_t find(char c, size_t pos = 0) const;
  int compare(const string &o) const;
};
string operator+(const string &a, const string &b);
string operator+(const string &a, const char *b);
string operator+(const char *a, const string &b);
bool operator==(const string &a, const string &b);
bool operator==(const string &a, const char *b);
bool operator!=(const string &a, const string &b);
bool operator<(const string &a, const string &b);
string to_string(int v);
string to_string(long v);
string to_string(long long v);
string to_string(unsigned v);
string to_string(unsigned long v);
string to_string(unsigned long long v);
string to_string(float v);
string to_string(double v);
int stoi(const string &s);
long stol(const string &s);
float stof(const string &s);
double stod(const string &s);

class ios_base {
public:
  typedef unsigned fmtflags;
  static const fmtflags fixed = 4;
  static const fmtflags scientific = 8;
  typedef unsigned openmode;
  static const openmode in = 1;
  static const openmode out = 2;
  static const openmode binary = 4;
};
class ostream : public ios_base {
public:
  ostream &operator<<(const char *s);
  ostream &operator<<(const string &s);
  ostream &operator<<(char c);
  ostream &operator<<(bool v);
  ostream &operator<<(int v);
  ostream &operator<<(unsigned v);
  ostream &operator<<(long v);
  ostream &operator<<(unsigned long v);
  ostream &operator<<(long long v);
  ostream &operator<<(unsigned long long v);
  ostream &operator<<(float v);
  ostream &operator<<(double v);
  ostream &operator<<(const void *p);
  ostream &operator<<(ostream &(*manip)(ostream &));
  ostream &flush();
  ostream &write(const char *s, size_t n);
  void precision(int p);
};
class istream : public ios_base {
public:
  istream &operator>>(int &v);
  istream &operator>>(float &v);
  istream &operator>>(double &v);
  istream &operator>>(string &s);
  istream &read(char *s, size_t n);
};
class iostream : public ostream, public istream {};
extern ostream cout;
extern ostream cerr;
extern ostream clog;
extern istream cin;
ostream &endl(ostream &os);
ostream &flush(ostream &os);
ostream &fixed(ostream &os);
ostream &scientific(ostream &os);
struct __autosync_manip {};
__autosync_manip setprecision(int n);
__autosync_manip setw(int n);
__autosync_manip setfill(char c);
ostream &operator<<(ostream &os, __autosync_manip m);
class ofstream : public ostream {
public:
  ofstream();
  ofstream(const char *path, openmode mode = out);
  ofstream(const string &path, openmode mode = out);
  bool is_open() const;
  void close();
};
class ifstream : public istream {
public:
  ifstream();
  ifstream(const char *path, openmode mode = in);
  ifstream(const string &path, openmode mode = in);
  bool is_open() const;
  void close();
};
class stringstream : public iostream {
public:
  stringstream();
  string str() const;
};
class ostringstream : public ostream {
public:
  ostringstream();
  string str() const;
};
bool getline(istream &in, string &s);

template <class T> class numeric_limits {
public:
  static constexpr bool is_specialized = false;
};
#define __AS_LIMITS(T, MIN, MAX, LOWEST, EPS, INF, INTEGER, SIGNED)                           \
  template <> class numeric_limits<T> {                                                       \
  public:                                                                                     \
    static constexpr bool is_specialized = true;                                              \
    static constexpr bool is_integer = INTEGER;                                               \
    static constexpr bool is_signed = SIGNED;                                                 \
    __host__ __device__ static constexpr T min() noexcept { return MIN; }                     \
    __host__ __device__ static constexpr T max() noexcept { return MAX; }                     \
    __host__ __device__ static constexpr T lowest() noexcept { return LOWEST; }               \
    __host__ __device__ static constexpr T epsilon() noexcept { return EPS; }                 \
    __host__ __device__ static constexpr T infinity() noexcept { return INF; }                \
    __host__ __device__ static constexpr T quiet_NaN() noexcept { return INF; }               \
  };
__AS_LIMITS(float, FLT_MIN, FLT_MAX, -FLT_MAX, FLT_EPSILON, __builtin_inff(), false, true)
__AS_LIMITS(double, DBL_MIN, DBL_MAX, -DBL_MAX, DBL_EPSILON, __builtin_inf(), false, true)
__AS_LIMITS(int, INT_MIN, INT_MAX, INT_MIN, 0, 0, true, true)
__AS_LIMITS(unsigned int, 0, UINT_MAX, 0, 0, 0, true, false)
__AS_LIMITS(long, LONG_MIN, LONG_MAX, LONG_MIN, 0, 0, true, true)
__AS_LIMITS(unsigned long, 0, ULONG_MAX, 0, 0, 0, true, false)
__AS_LIMITS(long long, LLONG_MIN, LLONG_MAX, LLONG_MIN, 0, 0, true, true)
__AS_LIMITS(unsigned long long, 0, ULLONG_MAX, 0, 0, 0, true, false)
__AS_LIMITS(short, SHRT_MIN, SHRT_MAX, SHRT_MIN, 0, 0, true, true)
__AS_LIMITS(unsigned short, 0, USHRT_MAX, 0, 0, 0, true, false)
__AS_LIMITS(char, SCHAR_MIN, SCHAR_MAX, SCHAR_MIN, 0, 0, true, true)
__AS_LIMITS(unsigned char, 0, UCHAR_MAX, 0, 0, 0, true, false)
#undef __AS_LIMITS

template <class T> class unique_ptr {
public:
  unique_ptr();
  explicit unique_ptr(T *p);
  unique_ptr(unique_ptr &&o);
  ~unique_ptr();
  T *get() const;
  T *operator->() const;
  T &operator*() const;
  T *release();
  void reset(T *p = nullptr);
};
template <class T> class unique_ptr<T[]> {
public:
  unique_ptr();
  explicit unique_ptr(T *p);
  unique_ptr(unique_ptr &&o);
  ~unique_ptr();
  T *get() const;
  T &operator[](size_t i) const;
};
template <class T> class shared_ptr {
public:
  shared_ptr();
  explicit shared_ptr(T *p);
  T *get() const;
  T *operator->() const;
  T &operator*() const;
};
template <class T, class... Args> unique_ptr<T> make_unique(Args &&...args);
template <class T, class... Args> shared_ptr<T> make_shared(Args &&...args);

template <class T> class function;
template <class R, class... Args> class function<R(Args...)> {
public:
  function();
  template <class F> function(F f);
  R operator()(Args... args) const;
};

namespace chrono {
template <class Num, class Den = void> struct ratio_tag {};
typedef ratio_tag<void> __seconds_tag;
template <class Rep, class Period = __seconds_tag> class duration {
public:
  duration();
  template <class R2> duration(const R2 &r);
  template <class R2, class P2> duration(const duration<R2, P2> &d);
  Rep count() const;
};
typedef duration<long long, ratio_tag<int, char>> nanoseconds;
typedef duration<long long, ratio_tag<int, short>> microseconds;
typedef duration<long long, ratio_tag<int, int>> milliseconds;
typedef duration<long long> seconds;
template <class Clock, class Dur = nanoseconds> class time_point {
public:
  Dur time_since_epoch() const;
};
template <class C, class D> nanoseconds operator-(const time_point<C, D> &a, const time_point<C, D> &b);
template <class To, class R, class P> To duration_cast(const duration<R, P> &d);
struct steady_clock {
  typedef nanoseconds duration;
  typedef chrono::time_point<steady_clock> time_point;
  static time_point now();
};
struct system_clock {
  typedef nanoseconds duration;
  typedef chrono::time_point<system_clock> time_point;
  static time_point now();
};
typedef steady_clock high_resolution_clock;
} // namespace chrono
typedef chrono::ratio_tag<int, int> milli;
typedef chrono::ratio_tag<int, short> micro;
typedef chrono::ratio_tag<int, char> nano;

class exception {
public:
  virtual const char *what() const noexcept;
};
class runtime_error : public exception {
public:
  explicit runtime_error(const char *what);
  explicit runtime_error(const string &what);
};
class invalid_argument : public exception {
public:
  explicit invalid_argument(const char *what);
  explicit invalid_argument(const string &what);
};
class mt19937 {
public:
  explicit mt19937(unsigned seed = 5489u);
  unsigned operator()();
};
class random_device {
public:
  unsigned operator()();
};
template <class T = double> class uniform_real_distribution {
public:
  uniform_real_distribution(T a = 0, T b = 1);
  template <class G> T operator()(G &g);
};
template <class T = int> class uniform_int_distribution {
public:
  uniform_int_distribution(T a = 0, T b = 0x7fffffff);
  template <class G> T operator()(G &g);
};
template <class T = double> class normal_distribution {
public:
  normal_distribution(T mean = 0, T stddev = 1);
  template <class G> T operator()(G &g);
};
} // namespace std
#endif

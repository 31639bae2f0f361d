//! CUDA's math functions and integer/float intrinsics as data: how each one's arguments are
//! converted and what its result is. Calls found here lower to opaque KPL calls (uninterpreted
//! functions: equal arguments give equal results, nothing else is known), or to an arbitrary
//! per-thread value where the result is not a function of the arguments (`clock()`, lane masks).
//! None of them touches memory. The exact ones (`min`, `max`, `abs`, `__mul24`, `__brev`,
//! `__ldg`, …) and the memory-touching ones are lowered in `calls.rs` / `builtins.rs`.

use super::*;

/// How a call's arguments are converted before the call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Args {
    /// Each argument converted to a floating value (C's conversion to `float`/`double`).
    Float,
    /// Each argument as it is (integer intrinsics, bit reinterpretations).
    Keep,
}

/// What a call yields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Yields {
    /// An opaque pure function of the arguments, of this type.
    Pure(Ty),
    /// An opaque pure function whose type is the arguments' common type (`__hadd` is an integer
    /// average on integers and a half addition on halves).
    PureCommon,
    /// An arbitrary per-thread value of this type, new at every call (not a function of the
    /// arguments: clocks, lane masks).
    Havoc(Ty),
    /// No value and no effect on memory (`__nanosleep`, `__trap`: running on after a trap only
    /// adds executions).
    Nothing,
}

use Args::{Float as F, Keep as K};
use Yields::{Havoc, Nothing, Pure, PureCommon};

const FLOAT: Ty = Ty::Float;
const INT: Ty = Ty::Int;
const UINT: Ty = Ty::UInt;

/// Float functions of float arguments (single and double precision, fast-math intrinsics, half
/// and bfloat16 conversions: halves are one word like every value here).
const FLOAT_FNS: &[&str] = &[
    "sqrtf",
    "sqrt",
    "rsqrtf",
    "rsqrt",
    "cbrtf",
    "cbrt",
    "rcbrtf",
    "rcbrt",
    "expf",
    "exp",
    "__expf",
    "exp2f",
    "exp2",
    "exp10f",
    "exp10",
    "__exp10f",
    "expm1f",
    "expm1",
    "logf",
    "log",
    "__logf",
    "log2f",
    "log2",
    "__log2f",
    "log10f",
    "log10",
    "__log10f",
    "log1pf",
    "log1p",
    "logbf",
    "logb",
    "fabsf",
    "fabs",
    "sinf",
    "sin",
    "cosf",
    "cos",
    "__sinf",
    "__cosf",
    "tanf",
    "tan",
    "__tanf",
    "sinpif",
    "sinpi",
    "cospif",
    "cospi",
    "asinf",
    "asin",
    "acosf",
    "acos",
    "atanf",
    "atan",
    "atan2f",
    "atan2",
    "sinhf",
    "sinh",
    "coshf",
    "cosh",
    "tanhf",
    "tanh",
    "asinhf",
    "asinh",
    "acoshf",
    "acosh",
    "atanhf",
    "atanh",
    "powf",
    "pow",
    "__powf",
    "hypotf",
    "hypot",
    "rhypotf",
    "rhypot",
    "norm3df",
    "rnorm3df",
    "norm4df",
    "rnorm4df",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "truncf",
    "trunc",
    "roundf",
    "round",
    "rintf",
    "rint",
    "nearbyintf",
    "nearbyint",
    "fminf",
    "fmaxf",
    "fmin",
    "fmax",
    "fdimf",
    "fdim",
    "fmodf",
    "fmod",
    "remainderf",
    "remainder",
    "copysignf",
    "copysign",
    "nextafterf",
    "nextafter",
    "ldexpf",
    "ldexp",
    "scalbnf",
    "scalbn",
    "scalblnf",
    "erff",
    "erf",
    "erfcf",
    "erfc",
    "erfinvf",
    "erfinv",
    "erfcinvf",
    "erfcinv",
    "erfcxf",
    "normcdff",
    "normcdf",
    "normcdfinvf",
    "normcdfinv",
    "lgammaf",
    "lgamma",
    "tgammaf",
    "tgamma",
    "j0f",
    "j1f",
    "y0f",
    "y1f",
    "fmaf",
    "fma",
    "fdividef",
    "__fdividef",
    "__fdiv_rn",
    "__fdiv_rz",
    "__fdiv_ru",
    "__fdiv_rd",
    "__fadd_rn",
    "__fadd_rz",
    "__fadd_ru",
    "__fadd_rd",
    "__fsub_rn",
    "__fsub_rz",
    "__fsub_ru",
    "__fsub_rd",
    "__fmul_rn",
    "__fmul_rz",
    "__fmul_ru",
    "__fmul_rd",
    "__fmaf_rn",
    "__fmaf_rz",
    "__fmaf_ru",
    "__fmaf_rd",
    "__fmaf_ieee_rn",
    "__frcp_rn",
    "__frcp_rz",
    "__frcp_ru",
    "__frcp_rd",
    "__frsqrt_rn",
    "__fsqrt_rn",
    "__fsqrt_rz",
    "__fsqrt_ru",
    "__fsqrt_rd",
    "__saturatef",
    "__dadd_rn",
    "__dsub_rn",
    "__dmul_rn",
    "__ddiv_rn",
    "__fma_rn",
    "__drcp_rn",
    "__dsqrt_rn",
    "__double2float_rn",
    "__double2float_rz",
    "__double2float_ru",
    "__double2float_rd",
    "__float2half",
    "__float2half_rn",
    "__float2half_rz",
    "__float2half_ru",
    "__float2half_rd",
    "__half2float",
    "__float2bfloat16",
    "__float2bfloat16_rn",
    "__bfloat162float",
    "__hmul",
    "__hsub",
    "__hdiv",
    "__hfma",
    "__hneg",
    "__habs",
    "__hmax",
    "__hmin",
    "hsqrt",
    "hrsqrt",
    "hrcp",
    "hexp",
    "hexp2",
    "hlog",
    "hlog2",
    "hsin",
    "hcos",
    "hfloor",
    "hceil",
    "htrunc",
    "hrint",
];

/// Float arguments, signed integer result (conversions, classification, half comparisons).
const FLOAT_TO_INT: &[&str] = &[
    "__float2int_rn",
    "__float2int_rz",
    "__float2int_ru",
    "__float2int_rd",
    "__float_as_int",
    "__float2ll_rn",
    "__float2ll_rz",
    "__float2ll_ru",
    "__float2ll_rd",
    "__double2int_rn",
    "__double2int_rz",
    "__double2int_ru",
    "__double2int_rd",
    "__double2ll_rn",
    "__double2ll_rz",
    "__double2ll_ru",
    "__double2ll_rd",
    "__double_as_longlong",
    "__double2hiint",
    "__double2loint",
    "lrintf",
    "lrint",
    "lroundf",
    "lround",
    "llrintf",
    "llrint",
    "llroundf",
    "llround",
    "ilogbf",
    "ilogb",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "__isnanf",
    "__isinff",
    "__finitef",
    "__signbitf",
    "__isnan",
    "__isinf",
    "__finite",
    "__signbit",
    "__half2int_rn",
    "__half2int_rz",
    "__half2int_rd",
    "__half2int_ru",
    "__half2short_rn",
    "__half2short_rz",
    "__half_as_short",
    "__hlt",
    "__hle",
    "__hgt",
    "__hge",
    "__heq",
    "__hne",
    "__hisnan",
    "__hisinf",
];

/// Float arguments, unsigned integer result.
const FLOAT_TO_UINT: &[&str] = &[
    "__float2uint_rn",
    "__float2uint_rz",
    "__float2uint_ru",
    "__float2uint_rd",
    "__float_as_uint",
    "__float2ull_rn",
    "__float2ull_rz",
    "__float2ull_ru",
    "__float2ull_rd",
    "__double2uint_rn",
    "__double2uint_rz",
    "__double2uint_ru",
    "__double2uint_rd",
    "__double2ull_rn",
    "__double2ull_rz",
    "__double2ull_ru",
    "__double2ull_rd",
    "__half2uint_rn",
    "__half2uint_rz",
    "__half2uint_rd",
    "__half2uint_ru",
    "__half2ushort_rn",
    "__half2ushort_rz",
    "__half_as_ushort",
];

/// Integer arguments as they are, floating result (conversions and bit reinterpretations).
const INT_TO_FLOAT: &[&str] = &[
    "__int2float_rn",
    "__int2float_rz",
    "__int2float_ru",
    "__int2float_rd",
    "__uint2float_rn",
    "__uint2float_rz",
    "__uint2float_ru",
    "__uint2float_rd",
    "__ll2float_rn",
    "__ll2float_rz",
    "__ll2float_ru",
    "__ll2float_rd",
    "__ull2float_rn",
    "__ull2float_rz",
    "__ull2float_ru",
    "__ull2float_rd",
    "__int2double_rn",
    "__uint2double_rn",
    "__ll2double_rn",
    "__ll2double_rz",
    "__ull2double_rn",
    "__ull2double_rz",
    "__int_as_float",
    "__uint_as_float",
    "__longlong_as_double",
    "__hiloint2double",
    "__int2half_rn",
    "__int2half_rz",
    "__uint2half_rn",
    "__uint2half_rz",
    "__short2half_rn",
    "__ushort2half_rn",
    "__short_as_half",
    "__ushort_as_half",
];

/// Integer arguments as they are, signed result.
const INT_TO_INT: &[&str] = &[
    "__popc",
    "__popcll",
    "__clz",
    "__clzll",
    "__ffs",
    "__ffsll",
    "__mulhi",
    "__mul64hi",
    "__rhadd",
    "__dp4a",
    "__dp2a_lo",
    "__dp2a_hi",
    "__vabsss2",
    "__vabsss4",
    "__vnegss2",
    "__vnegss4",
];

/// Integer arguments as they are, unsigned result.
const INT_TO_UINT: &[&str] = &[
    "__umulhi",
    "__umul64hi",
    "__uhadd",
    "__urhadd",
    "__sad",
    "__usad",
    "__byte_perm",
    "__funnelshift_l",
    "__funnelshift_lc",
    "__funnelshift_r",
    "__funnelshift_rc",
    "__brevll",
    "__fns",
    "__vabs2",
    "__vabs4",
    "__vadd2",
    "__vadd4",
    "__vaddss2",
    "__vaddss4",
    "__vaddus2",
    "__vaddus4",
    "__vsub2",
    "__vsub4",
    "__vsubss2",
    "__vsubss4",
    "__vsubus2",
    "__vsubus4",
    "__vavgs2",
    "__vavgs4",
    "__vavgu2",
    "__vavgu4",
    "__vhaddu2",
    "__vhaddu4",
    "__vmaxs2",
    "__vmaxs4",
    "__vmaxu2",
    "__vmaxu4",
    "__vmins2",
    "__vmins4",
    "__vminu2",
    "__vminu4",
    "__vabsdiffs2",
    "__vabsdiffs4",
    "__vabsdiffu2",
    "__vabsdiffu4",
    "__vsads2",
    "__vsads4",
    "__vsadu2",
    "__vsadu4",
    "__vcmpeq2",
    "__vcmpeq4",
    "__vcmpne2",
    "__vcmpne4",
    "__vcmpges2",
    "__vcmpges4",
    "__vcmpgeu2",
    "__vcmpgeu4",
    "__vcmpgts2",
    "__vcmpgts4",
    "__vcmpgtu2",
    "__vcmpgtu4",
    "__vcmples2",
    "__vcmples4",
    "__vcmpleu2",
    "__vcmpleu4",
    "__vcmplts2",
    "__vcmplts4",
    "__vcmpltu2",
    "__vcmpltu4",
    "__vseteq2",
    "__vseteq4",
    "__vsetne2",
    "__vsetne4",
    "__vsetgeu2",
    "__vsetgeu4",
    "__vsetgtu2",
    "__vsetgtu4",
    "__vsetleu2",
    "__vsetleu4",
    "__vsetltu2",
    "__vsetltu4",
];

/// Integer average on integers, half addition on halves: typed by the arguments.
const COMMON: &[&str] = &["__hadd"];

/// Not functions of their arguments: an arbitrary value per thread and call.
const HAVOC: &[(&str, Ty)] = &[
    ("clock", INT),
    ("clock64", INT),
    ("__clock", INT),
    ("__clock64", INT),
    ("__globaltimer", UINT),
    ("__activemask", UINT),
    ("__lanemask_lt", UINT),
    ("__lanemask_le", UINT),
    ("__lanemask_eq", UINT),
    ("__lanemask_ge", UINT),
    ("__lanemask_gt", UINT),
    ("__laneid", UINT),
    ("__smid", UINT),
];

/// No value, no memory effect.
const NOTHING: &[&str] = &["__nanosleep", "__trap", "__brkpt", "__prof_trigger"];

/// How the call of `name` is lowered, if it is a math function or value intrinsic.
pub(super) fn lookup(name: &str) -> Option<(Args, Yields)> {
    let tables: [(&[&str], Args, Yields); 7] = [
        (FLOAT_FNS, F, Pure(FLOAT)),
        (FLOAT_TO_INT, F, Pure(INT)),
        (FLOAT_TO_UINT, F, Pure(UINT)),
        (INT_TO_FLOAT, K, Pure(FLOAT)),
        (INT_TO_INT, K, Pure(INT)),
        (INT_TO_UINT, K, Pure(UINT)),
        (COMMON, K, PureCommon),
    ];
    for (names, args, result) in tables {
        if names.contains(&name) {
            return Some((args, result));
        }
    }
    if let Some((_, t)) = HAVOC.iter().find(|(n, _)| *n == name) {
        return Some((K, Havoc(*t)));
    }
    NOTHING.contains(&name).then_some((K, Nothing))
}

/// Whether a call of `name` lowers to an expression with no statement (an opaque pure call or an
/// exact integer expression).
pub(super) fn is_pure(name: &str) -> bool {
    matches!(lookup(name), Some((_, Pure(_) | PureCommon)))
        || matches!(name, "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax")
        || matches!(name, "abs" | "labs" | "llabs" | "__mul24" | "__umul24")
}

/// The result type of a call of `name` with arguments of types `args`, judged without lowering.
pub(super) fn result_type(name: &str, args: &[Ty]) -> Option<Ty> {
    match lookup(name)? {
        (_, Pure(t) | Havoc(t)) => Some(t),
        (_, PureCommon) => Some(args.iter().copied().fold(Ty::Int, common)),
        (_, Nothing) => None,
    }
}

impl<'t> Lx<'_, 't> {
    /// Lowers a call of a table intrinsic (`None`: `fname` is not one).
    pub(super) fn table_intrinsic(
        &mut self,
        fname: &str,
        args: &[Node],
        used: bool,
    ) -> Option<R<Option<(Expr, Ty)>>> {
        let (conv, result) = lookup(fname)?;
        Some((|| {
            let mut vals = Vec::new();
            let mut tys = Vec::new();
            for a in args {
                let (e, t) = self.expr(*a)?;
                vals.push(if conv == F { convert(e, t, Ty::Float) } else { e });
                tys.push(if conv == F { Ty::Float } else { t });
            }
            Ok(match result {
                Pure(t) => Some((Expr::Call(fname.to_string(), vals), t)),
                PureCommon => {
                    let t = tys.iter().copied().fold(Ty::Int, common);
                    Some((Expr::Call(fname.to_string(), vals), t))
                }
                Havoc(t) if used => Some((Expr::Var(self.temp(None)), t)),
                Havoc(_) | Nothing => None,
            })
        })())
    }
}

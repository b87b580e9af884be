/* Bit helpers of the search (ddsolver/search).  A holding is a 16-bit mask, bit r set for
 * rank r (2..14).
 *
 * The instruction sets the compiler is told about choose the code: with BMI2 (the fast
 * build's -mbmi2) pext and pdep are single instructions, without it (the portable build)
 * loops over the mask's bits; gcc and clang turn the popcount / clz / ctz builtins into one
 * instruction each with -mpopcnt / -mlzcnt / -mbmi, and into a library call or a
 * bsr / bsf sequence without them.  MSVC (which builds only the portable search) gets
 * plain C for popcount and its bit-scan intrinsics.
 */
#ifndef DDSOLVER_SEARCH_BITS_H
#define DDSOLVER_SEARCH_BITS_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define DD_INLINE static __inline
DD_INLINE int dd_popcount(unsigned int x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
DD_INLINE int dd_popcount64(unsigned long long x) {
    return dd_popcount((unsigned int)x) + dd_popcount((unsigned int)(x >> 32));
}
DD_INLINE int dd_highest(unsigned int x) {
    unsigned long i;
    _BitScanReverse(&i, x);
    return (int)i;
}
DD_INLINE int dd_lowest(unsigned int x) {
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
}
#if defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>
DD_INLINE void dd_prefetch(const void* p) { _mm_prefetch((const char*)p, _MM_HINT_T0); }
#else
DD_INLINE void dd_prefetch(const void* p) { (void)p; }
#endif
#else
#define DD_INLINE static inline
static inline int dd_popcount(unsigned int x) { return __builtin_popcount(x); }
static inline int dd_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
static inline int dd_highest(unsigned int x) { return 31 - __builtin_clz(x); }
static inline int dd_lowest(unsigned int x) { return __builtin_ctz(x); }
static inline void dd_prefetch(const void* p) { __builtin_prefetch(p); }
#endif

/* dd_top_bits(x, k): the k highest set bits of x (k <= popcount(x)).
   dd_pext(x, m): the bits of x at the places of m's set bits, packed low.
   dd_pdep(x, m): the low bits of x spread to the places of m's set bits. */
#ifdef __BMI2__
#include <immintrin.h>
static inline unsigned int dd_top_bits(unsigned int x, int k) {
    return _pdep_u32(((1u << k) - 1) << (__builtin_popcount(x) - k), x);
}
static inline unsigned int dd_pext(unsigned int x, unsigned int m) { return _pext_u32(x, m); }
static inline unsigned int dd_pdep(unsigned int x, unsigned int m) { return _pdep_u32(x, m); }
#else
DD_INLINE unsigned int dd_pext(unsigned int x, unsigned int m) {
    unsigned int r = 0, bit = 1;
    while (m) {
        unsigned int low = m & (0u - m);
        if (x & low) r |= bit;
        bit <<= 1;
        m ^= low;
    }
    return r;
}
DD_INLINE unsigned int dd_pdep(unsigned int x, unsigned int m) {
    unsigned int r = 0, bit = 1;
    while (m) {
        unsigned int low = m & (0u - m);
        if (x & bit) r |= low;
        bit <<= 1;
        m ^= low;
    }
    return r;
}
DD_INLINE unsigned int dd_top_bits(unsigned int x, int k) {
    unsigned int r = 0;
    while (k-- > 0) {
        unsigned int b = 1u << dd_highest(x);
        r |= b;
        x ^= b;
    }
    return r;
}
#endif

#endif

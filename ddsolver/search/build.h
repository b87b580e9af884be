/* What this build of the search is (set by setup.py), and whether the CPU running it can
 * run the fast build.
 *
 *   DD_FAST     0: the portable build (the target architecture's baseline instructions);
 *               1: the fast build (x86-64 with POPCNT, BMI1, BMI2, LZCNT and AVX2).
 *               setup.py builds both from the same sources and ddsolver._search picks one
 *               at import.  DD_VARIANT is its name.
 *   DD_STATS    1: the detailed statistics counters of Engine.stats are kept (a stats or
 *               debug build); 0: only the cheap ones (nodes, the table's sizes).
 *   DD_DEBUG    1: a debug build (-O0 -g, Cython's checks on).
 */
#ifndef DDSOLVER_SEARCH_BUILD_H
#define DDSOLVER_SEARCH_BUILD_H

#ifndef DD_FAST
#define DD_FAST 0
#endif
#if DD_FAST
#define DD_VARIANT "fast"
#else
#define DD_VARIANT "portable"
#endif
#ifndef DD_STATS
#define DD_STATS 0
#endif
#ifndef DD_DEBUG
#define DD_DEBUG 0
#endif

/* The instruction sets beyond the baseline that the compiler was allowed to use here. */
static const char* dd_isa(void) {
    return ""
#if defined(__POPCNT__)
        " popcnt"
#endif
#if defined(__BMI__)
        " bmi"
#endif
#if defined(__BMI2__)
        " bmi2"
#endif
#if defined(__LZCNT__)
        " lzcnt"
#endif
#if defined(__AVX2__)
        " avx2"
#endif
        ;
}

/* 1 when the CPU running this code has every instruction set the fast build is compiled
   with (POPCNT, BMI1, BMI2, LZCNT, AVX2) and the operating system saves the AVX registers
   (else AVX instructions fault even on a CPU that has them).  Asked with cpuid and xgetbv
   (Intel SDM vol. 2A, CPUID: leaf 1 ECX bits 23 POPCNT, 27 OSXSAVE, 28 AVX; leaf 7 EBX
   bits 3 BMI1, 5 AVX2, 8 BMI2; leaf 0x80000001 ECX bit 5 LZCNT; XCR0 bits 1-2 SSE and AVX
   state).  This file is compiled into the portable build too, so the test itself uses
   no instruction beyond the baseline.  0 on other architectures and compilers. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
static int dd_cpu_runs_fast(void) {
    unsigned int a, b, c, d, xcr0_lo, xcr0_hi;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (!((c >> 23) & 1) || !((c >> 27) & 1) || !((c >> 28) & 1))
        return 0;
    /* xgetbv with ecx = 0, as bytes: assemblers too old to know the mnemonic accept them */
    __asm__ __volatile__(".byte 0x0f, 0x01, 0xd0" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
    if ((xcr0_lo & 6u) != 6u)
        return 0;
    if (__get_cpuid_max(0, 0) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if (!((b >> 3) & 1) || !((b >> 5) & 1) || !((b >> 8) & 1))
        return 0;
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d) || !((c >> 5) & 1))
        return 0;
    return 1;
}
#else
static int dd_cpu_runs_fast(void) { return 0; }
#endif

#endif

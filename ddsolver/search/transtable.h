/* C helpers of the transposition table (ddsolver/search/transtable.pxi): its memory, and the
 * probe of one block of entries. */
#ifndef DDSOLVER_SEARCH_TRANSTABLE_H
#define DDSOLVER_SEARCH_TRANSTABLE_H

#include <stdint.h>
#include <stdlib.h>

/* A large table array on 2 MiB boundaries, marked for transparent huge pages where
   the kernel offers them on request (Linux "madvise" mode): the table is probed at
   random, and 4 KiB pages miss the TLB on most probes of a large table.  The size is
   not rounded up (the last partial 2 MiB keeps small pages), memory is still only
   committed as it is touched, and free() releases it. */
#if defined(__linux__)
#include <sys/mman.h>
#endif
static inline void* dd_alloc_table(size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t align = (size_t)2 << 20;
    void* p = NULL;
    if (n >= align) {
        if (posix_memalign(&p, align, n) != 0)
            return NULL;
        madvise(p, n & ~(align - 1), MADV_HUGEPAGE);    /* advice only: errors ignored */
        return p;
    }
#endif
    return malloc(n);
}

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif
/* Bit j set when entry j (< n) of a table block (8 entries, laid out by field) has
   the owners d0 / d1 on the cards it keeps and bounds that decide whether N-S reach
   need.  Without a branch per entry: entries of one key differ in unpredictable ways.
   The masks of the cards kept (2 k low bits of each suit's 32) come from kk0 / kk1.
   AVX2 (the fast build) compares four entries at once, SSE2 (every x86-64 CPU) the
   eight bounds at once; elsewhere plain C. */
static inline uint64_t dd_pair_mask(const uint8_t* kk) {
    return (((uint64_t)1 << kk[0]) - 1) | ((((uint64_t)1 << kk[1]) - 1) << 32);
}
static inline unsigned int dd_block_hits(const uint64_t* pat0, const uint64_t* pat1,
        const uint8_t* kk0, const uint8_t* kk1, const int8_t* lo, const int8_t* hi,
        int n, uint64_t d0, uint64_t d1, int need) {
    unsigned int m = 0;
    int j;
#if defined(__AVX2__)
    __m256i D0 = _mm256_set1_epi64x((long long)d0), D1 = _mm256_set1_epi64x((long long)d1);
    __m256i one = _mm256_set1_epi32(1);
    for (j = 0; j < 8; j += 4) {
        __m256i m0 = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(
            _mm_loadl_epi64((const __m128i*)(kk0 + 2 * j)))), one);
        __m256i m1 = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_cvtepu8_epi32(
            _mm_loadl_epi64((const __m128i*)(kk1 + 2 * j)))), one);
        __m256i x = _mm256_or_si256(
            _mm256_xor_si256(_mm256_and_si256(D0, m0),
                             _mm256_loadu_si256((const __m256i*)(pat0 + j))),
            _mm256_xor_si256(_mm256_and_si256(D1, m1),
                             _mm256_loadu_si256((const __m256i*)(pat1 + j))));
        x = _mm256_cmpeq_epi64(x, _mm256_setzero_si256());
        m |= (unsigned int)_mm256_movemask_pd(_mm256_castsi256_pd(x)) << j;
    }
#else
    for (j = 0; j < 8; j++)
        m |= (unsigned int)((((d0 & dd_pair_mask(kk0 + 2 * j)) ^ pat0[j])
                             | ((d1 & dd_pair_mask(kk1 + 2 * j)) ^ pat1[j])) == 0) << j;
#endif
#if defined(__SSE2__)
    {
        __m128i L = _mm_loadl_epi64((const __m128i*)lo), H = _mm_loadl_epi64((const __m128i*)hi);
        __m128i ok = _mm_or_si128(_mm_cmpgt_epi8(L, _mm_set1_epi8((char)(need - 1))),
                                  _mm_cmpgt_epi8(_mm_set1_epi8((char)need), H));
        m &= (unsigned int)_mm_movemask_epi8(ok);
    }
#else
    {
        unsigned int b = 0;
        for (j = 0; j < 8; j++)
            b |= (unsigned int)((lo[j] >= need) | (hi[j] < need)) << j;
        m &= b;
    }
#endif
    return m & ((1u << n) - 1u);
}

#endif

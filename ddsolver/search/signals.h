/* Leaving a search for a signal (ddsolver/search/signals.pxi).  Included after Python.h
 * (Cython's module code comes first). */
#ifndef DDSOLVER_SEARCH_SIGNALS_H
#define DDSOLVER_SEARCH_SIGNALS_H

#include <setjmp.h>

#if defined(_MSC_VER) && !defined(__clang__)
#define DD_COLD __declspec(noinline)
#define DD_COLD_NORETURN __declspec(noinline) __declspec(noreturn)
#else
#define DD_COLD __attribute__((noinline, cold))
#define DD_COLD_NORETURN __attribute__((noinline, cold, noreturn))
#endif

/* Run pending signal handlers; 1 if one raised (the exception stays set).  Out of
   line: the search's hot path carries only the node-counter test. */
DD_COLD static int dd_signal_raised(void) {
    PyGILState_STATE st = PyGILState_Ensure();
    int r = PyErr_CheckSignals();
    PyGILState_Release(st);
    return r != 0;
}
DD_COLD_NORETURN static void dd_leave(void* jump) {
    longjmp(*(jmp_buf*)jump, 1);
}
/* Run f(c, pos, guess) with a return point in *jump_slot; *aborted = 1 when the search
   left through dd_leave. */
static int dd_run_search(void* c, void** jump_slot, int (*f)(void*, int, int),
                         int pos, int guess, int* aborted) {
    jmp_buf env;
    int v;
    *aborted = 0;
    *jump_slot = &env;
    if (setjmp(env)) {
        *jump_slot = NULL;
        *aborted = 1;
        return 0;
    }
    v = f(c, pos, guess);
    *jump_slot = NULL;
    return v;
}

#endif

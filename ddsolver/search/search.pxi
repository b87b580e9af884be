# The double-dummy search, one unit per concern (as DDS keeps ABsearch, Moves, TransTable,
# QuickTricks and LaterTricks apart), compiled as ONE extension module.
#
# Why ``include``: Cython turns one .pyx into one C file, and the C compiler inlines a
# function only into callers of the same C file; a call from one extension module to
# another goes through a function pointer.  The hot path (ab -> gen_moves, cut_key,
# tt_lookup, quick_tricks, dd_* bit helpers) relies on inlining, so the units are
# ``include``d here, textually, into the module's .pyx, and come out as one C file.  Each
# unit cimports the declarations it uses from the .pxd files beside it (types, constants,
# C helpers of the .h files): those are compile-time only and import nothing at run time.
# Compiler directives and C flags are set in one place, setup.py.
#
#   unit                      code              declarations         C
#   bit helpers               -                 bits.pxd             bits.h
#   build, CPU check          -                 build.pxd            build.h
#   signals and cancels       signals.pxi       signals.pxd          signals.h
#   search state              -                 context.pxd          -
#   transposition table, keys transtable.pxi    transtable.pxd       transtable.h
#   quick tricks (side on     quicktricks.pxi   -                    -
#     lead, second hand)
#   later tricks (other side) latertricks.pxi   -                    -
#   moves, ordering,          moves.pxi         moves.pxd            -
#     cut-off cache
#   alpha-beta and driver     absearch.pxi      -                    -
#   Engine (Python-facing)    engine.pxi        -                    -

include "signals.pxi"
include "transtable.pxi"
include "quicktricks.pxi"
include "latertricks.pxi"
include "moves.pxi"
include "absearch.pxi"
include "engine.pxi"

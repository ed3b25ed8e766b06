/* mat.c - placeholder; the engine helper replaces it. */
#include "mat.h"

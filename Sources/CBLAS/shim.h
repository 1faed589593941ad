// CBLAS: the C API of OpenBLAS (Debian package libopenblas-dev). The engine needs OpenBLAS
// itself, not any CBLAS: it calls openblas_set_num_threads, and netlib's reference CBLAS
// (libblas-dev) is ~10–50× slower.
#if __has_include(<cblas.h>)
#include <cblas.h>
#else
#error "ScreenLab needs cblas.h from the Debian package libopenblas-dev: run 'sudo apt-get install -y libopenblas-dev' (or Scripts/install-and-run)."
#endif
#if !__has_include(<openblas_config.h>) || !defined(OPENBLAS_VERSION)
#error "ScreenLab found a cblas.h that is not OpenBLAS's (netlib's reference CBLAS from libblas-dev?): run 'sudo apt-get install -y libopenblas-dev' and make sure pkg-config finds openblas ('pkg-config --cflags openblas')."
#endif

// DYNAMIC_ARCH builds of OpenBLAS (Debian's) choose their kernels from the CPU model once, at
// load time. A CPU newer than the library (Emerald Rapids under OpenBLAS 0.3.21, say) is not in
// its table and falls back to the SSE3 "Prescott" kernels, ~5x slower than the AVX-512 ones the
// CPU runs. These two exported functions re-run that choice (honouring OPENBLAS_CORETYPE); they
// are declared weak because a non-dynamic OpenBLAS build does not have them.
extern void gotoblas_dynamic_init(void) __attribute__((weak));
extern void gotoblas_dynamic_quit(void) __attribute__((weak));
static inline int screenlab_openblas_can_reselect_kernels(void) {
    return gotoblas_dynamic_init != 0 && gotoblas_dynamic_quit != 0;
}
static inline void screenlab_openblas_reselect_kernels(void) {
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
}

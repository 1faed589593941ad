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

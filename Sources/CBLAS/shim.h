// CBLAS: the C API of the Debian package libopenblas-dev.
#if __has_include(<cblas.h>)
#include <cblas.h>
#else
#error "ScreenLab needs cblas.h from the Debian package libopenblas-dev: run 'sudo apt-get install -y libopenblas-dev' (or Scripts/install-and-run)."
#endif

// CPNG: the C API of the Debian package libpng-dev.
#if __has_include(<png.h>)
#include <png.h>
#else
#error "ScreenLab needs png.h from the Debian package libpng-dev: run 'sudo apt-get install -y libpng-dev' (or Scripts/install-and-run)."
#endif

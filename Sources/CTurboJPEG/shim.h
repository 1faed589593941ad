// CTurboJPEG: the C API of the Debian package libturbojpeg0-dev.
#if __has_include(<turbojpeg.h>)
#include <turbojpeg.h>
#else
#error "ScreenLab needs turbojpeg.h from the Debian package libturbojpeg0-dev: run 'sudo apt-get install -y libturbojpeg0-dev' (or Scripts/install-and-run)."
#endif

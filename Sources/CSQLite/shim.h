// CSQLite: the C API of the Debian package libsqlite3-dev.
#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
#error "ScreenLab needs sqlite3.h from the Debian package libsqlite3-dev: run 'sudo apt-get install -y libsqlite3-dev' (or Scripts/install-and-run)."
#endif

// CFreeType: the C API of the Debian package libfreetype-dev (include path from pkg-config freetype2).
#if __has_include(<ft2build.h>)
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#else
#error "ScreenLab needs ft2build.h from the Debian package libfreetype-dev: run 'sudo apt-get install -y libfreetype-dev' (or Scripts/install-dependencies)."
#endif

// Function-like macros do not reach Swift: the load flags the glyph cache uses, as constants.
// Light hinting snaps outlines vertically only, so advances keep their design widths;
// embedded bitmaps are skipped so every size is drawn from the outlines.
static const FT_Int32 CFreeTypeLoadFlags = FT_LOAD_NO_BITMAP | FT_LOAD_TARGET_LIGHT;
static const FT_Render_Mode CFreeTypeRenderMode = FT_RENDER_MODE_LIGHT;

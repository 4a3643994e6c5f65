#include <lcms2.h>

// The pixel formats vprinter converts between; lcms2 builds them with function-like macros Swift does not import.
static const cmsUInt32Number vprinter_lcms_cmyk_8 = TYPE_CMYK_8;
static const cmsUInt32Number vprinter_lcms_rgb_8 = TYPE_RGB_8;

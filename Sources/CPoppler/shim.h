#include <poppler.h>

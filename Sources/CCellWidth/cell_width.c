#define _XOPEN_SOURCE 700
#include <locale.h>
#include <pthread.h>
#include <wchar.h>
#include "cell_width.h"

static locale_t utf8_locale = (locale_t)0;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void make_utf8_locale(void) {
  utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

int concord_cell_width(uint32_t scalar) {
  pthread_once(&utf8_once, make_utf8_locale);
  // wcwidth reads the thread's locale: a UTF-8 one only for this call, so that the process's
  // own locale (perhaps "C", where wcwidth knows only ASCII) is left as it is.
  locale_t previous = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
  int width = wcwidth((wchar_t)scalar);
  if (utf8_locale) uselocale(previous);
  return width;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-error.h"

G_DEFINE_QUARK (tm-error-quark, tm_error)

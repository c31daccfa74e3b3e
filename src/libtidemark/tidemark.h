/* SPDX-License-Identifier: GPL-3.0-or-later
 * libtidemark: everything that is not GTK. */
#pragma once

#include "tm-error.h"
#include "tm-trace.h"
#include "tm-trace-builder.h"
#include "tm-trace-writer.h"
#include "tm-load-options.h"
#include "tm-trace-loader.h"
#include "tm-document.h"
#include "tm-heap-graph.h"
#include "tm-hprof.h"
#include "tm-format-util.h"

/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmProgress: a worker's progress delivered to the thread that started
 * the work, coalesced (as Sysprof's document loader does).  Workers call
 * tm_progress_update() from any thread, as often as they like; at most
 * one low-priority idle is queued on the starting thread's main context,
 * and it reports the latest fraction (and the latest offered payload, e.g.
 * a partial result) when it runs.  Nothing is reported once the
 * cancellable is cancelled or tm_progress_stop() was called, so a
 * callback never sees a superseded or finished job.
 */
#pragma once

#include <gio/gio.h>
#include "tm-trace-loader.h"

G_BEGIN_DECLS

typedef struct _TmProgress TmProgress;

/* Receives the latest payload offered (the callee takes nothing: it is
 * freed after the call). */
typedef void (*TmProgressPayloadFunc) (gpointer payload, gpointer user_data);

/* Captures the thread-default main context.  Either function may be NULL. */
TmProgress *tm_progress_new         (TmProgressFunc         func,
                                     TmProgressPayloadFunc  payload_func,
                                     gpointer               user_data,
                                     GCancellable          *cancellable);
TmProgress *tm_progress_ref         (TmProgress *progress);
void        tm_progress_unref       (TmProgress *progress);

/* A TmProgressFunc for workers: `progress` is the TmProgress. */
void        tm_progress_update      (double                 fraction,
                                     gpointer               progress);
/* Delivers nothing from now on (called when the work's result arrives,
 * so progress never follows it). */
void        tm_progress_stop        (TmProgress            *progress);
/* Offers a payload (ownership taken), replacing one not delivered yet. */
void        tm_progress_offer       (TmProgress            *progress,
                                     gpointer               payload,
                                     GDestroyNotify         payload_free);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmProgress, tm_progress_unref)

G_END_DECLS

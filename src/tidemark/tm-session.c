/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-session.h"

#include <math.h>

struct _TmSession
{
  GObject          parent_instance;
  TmDocument      *document;
  TmTimelineModel *model;           /* the document's, or partial */
  TmTimelineModel *partial;         /* owned: a trace still loading */
  TmTrace         *trace;
  double           whole_start, whole_end;
  double           visible_start, visible_end;
  gboolean         has_selection;
  double           selection_start, selection_end;
  guint            first_gc, last_gc;
  int              selected_window;
  guint            hover_gc;
  GPtrArray       *windows;
  TmChartBand     *bands;
  guint            n_bands;
  double           overhead_threshold;
};

G_DEFINE_FINAL_TYPE (TmSession, tm_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_WHOLE_START,
  PROP_WHOLE_END,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_HAS_SELECTION,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_SELECTED_FIRST_GC,
  PROP_SELECTED_LAST_GC,
  PROP_SELECTED_WINDOW,
  PROP_HOVER_GC,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The smallest visible span: a tenth of the shortest meaningful interval,
 * so zooming can reach single GCs but never a zero-width range. */
#define MIN_SPAN_NS 1000.0

static void
emit_changed (TmSession *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
tm_session_finalize (GObject *object)
{
  TmSession *self = TM_SESSION (object);

  g_clear_object (&self->document);
  g_clear_pointer (&self->partial, tm_timeline_model_unref);
  g_clear_pointer (&self->windows, g_ptr_array_unref);
  g_clear_pointer (&self->bands, g_free);
  G_OBJECT_CLASS (tm_session_parent_class)->finalize (object);
}

static void
tm_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TmSession *self = TM_SESSION (object);

  switch (prop_id)
    {
    case PROP_WHOLE_START:       g_value_set_double (value, self->whole_start); break;
    case PROP_WHOLE_END:         g_value_set_double (value, self->whole_end); break;
    case PROP_VISIBLE_START:     g_value_set_double (value, self->visible_start); break;
    case PROP_VISIBLE_END:       g_value_set_double (value, self->visible_end); break;
    case PROP_HAS_SELECTION:     g_value_set_boolean (value, self->has_selection); break;
    case PROP_SELECTION_START:   g_value_set_double (value, self->selection_start); break;
    case PROP_SELECTION_END:     g_value_set_double (value, self->selection_end); break;
    case PROP_SELECTED_FIRST_GC: g_value_set_uint (value, self->first_gc); break;
    case PROP_SELECTED_LAST_GC:  g_value_set_uint (value, self->last_gc); break;
    case PROP_SELECTED_WINDOW:   g_value_set_int (value, self->selected_window); break;
    case PROP_HOVER_GC:          g_value_set_uint (value, self->hover_gc); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TmSession *self = TM_SESSION (object);

  switch (prop_id)
    {
    case PROP_SELECTED_WINDOW:
      tm_session_set_selected_window (self, g_value_get_int (value));
      break;
    case PROP_HOVER_GC:
      tm_session_set_hover_gc (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_session_class_init (TmSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = tm_session_finalize;
  object_class->get_property = tm_session_get_property;
  object_class->set_property = tm_session_set_property;

  properties[PROP_WHOLE_START] = g_param_spec_double ("whole-start", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_WHOLE_END] = g_param_spec_double ("whole-end", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_VISIBLE_START] = g_param_spec_double ("visible-start", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_VISIBLE_END] = g_param_spec_double ("visible-end", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_HAS_SELECTION] = g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, ro);
  properties[PROP_SELECTION_START] = g_param_spec_double ("selection-start", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_SELECTION_END] = g_param_spec_double ("selection-end", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_SELECTED_FIRST_GC] = g_param_spec_uint ("selected-first-gc", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_SELECTED_LAST_GC] = g_param_spec_uint ("selected-last-gc", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_SELECTED_WINDOW] = g_param_spec_int ("selected-window", NULL, NULL, -1, G_MAXINT, -1, rw);
  properties[PROP_HOVER_GC] = g_param_spec_uint ("hover-gc", NULL, NULL, 0, G_MAXUINT, 0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* One signal after any range change, so views redraw once. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tm_session_init (TmSession *self)
{
  self->selected_window = -1;
  self->whole_end = 1;
  self->visible_end = 1;
  self->overhead_threshold = 0.10;
}

TmSession *
tm_session_new (void)
{
  return g_object_new (TM_TYPE_SESSION, NULL);
}

void
tm_session_set_document (TmSession *self, TmDocument *document)
{
  TmTimelineModel *model;

  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (document == NULL || TM_IS_DOCUMENT (document));

  g_set_object (&self->document, document);
  g_clear_pointer (&self->partial, tm_timeline_model_unref);
  self->trace = document ? tm_document_get_trace (document) : NULL;
  self->model = model = document ? tm_document_get_timeline (document) : NULL;

  self->whole_start = 0;
  self->whole_end = model ? MAX ((double) model->duration_ns, MIN_SPAN_NS) : 1;
  /* A GC log knows nothing before its first event (an excerpt, or a log
   * started late): the time axis starts there, not at 0. */
  if (self->trace != NULL && model != NULL && g_strcmp0 (self->trace->format, "gc-log") == 0)
    {
      double first = tm_timeline_model_first_event (model);
      if (first > 0 && self->whole_end - first >= MIN_SPAN_NS)
        self->whole_start = first;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WHOLE_START]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WHOLE_END]);
  tm_session_clear_selection (self);
  tm_session_reset_zoom (self);
}

void
tm_session_set_partial_timeline (TmSession *self, TmTimelineModel *partial)
{
  gboolean whole;

  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (partial != NULL);

  if (self->document != NULL)
    return;
  whole = self->partial == NULL ||
          (self->visible_start <= self->whole_start && self->visible_end >= self->whole_end);
  tm_timeline_model_ref (partial);
  g_clear_pointer (&self->partial, tm_timeline_model_unref);
  self->model = self->partial = partial;
  self->whole_start = 0;
  self->whole_end = MAX ((double) partial->duration_ns, MIN_SPAN_NS);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WHOLE_END]);
  if (whole)
    tm_session_reset_zoom (self);
  else
    tm_session_set_visible (self, self->visible_start, self->visible_end);
  /* the charts redraw for the new data even when the range stays */
  emit_changed (self);
}

TmDocument *
tm_session_get_document (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);
  return self->document;
}

TmTrace *
tm_session_get_trace (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);
  return self->trace;
}

TmTimelineModel *
tm_session_get_model (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);
  return self->model;
}

double tm_session_get_whole_start (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->whole_start; }
double tm_session_get_whole_end (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->whole_end; }
double tm_session_get_visible_start (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->visible_start; }
double tm_session_get_visible_end (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->visible_end; }
gboolean tm_session_get_has_selection (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), FALSE); return self->has_selection; }
double tm_session_get_selection_start (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->selection_start; }
double tm_session_get_selection_end (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->selection_end; }
guint tm_session_get_selected_first_gc (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->first_gc; }
guint tm_session_get_selected_last_gc (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->last_gc; }
int tm_session_get_selected_window (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), -1); return self->selected_window; }
guint tm_session_get_hover_gc (TmSession *self) { g_return_val_if_fail (TM_IS_SESSION (self), 0); return self->hover_gc; }

void
tm_session_set_visible (TmSession *self, double start, double end)
{
  double span, whole = 0;

  g_return_if_fail (TM_IS_SESSION (self));

  if (!isfinite (start) || !isfinite (end))
    return;
  if (end < start)
    {
      double t = start;
      start = end;
      end = t;
    }
  whole = self->whole_end - self->whole_start;
  span = CLAMP (end - start, MIN (MIN_SPAN_NS, whole), whole);
  /* Keep the range inside the trace, sliding rather than shrinking it. */
  if (start < self->whole_start)
    start = self->whole_start;
  if (start + span > self->whole_end)
    start = self->whole_end - span;
  end = start + span;

  if (start == self->visible_start && end == self->visible_end)
    return;
  self->visible_start = start;
  self->visible_end = end;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_START]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END]);
  emit_changed (self);
}

void
tm_session_zoom (TmSession *self, double center, double factor)
{
  double a, b;

  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  a = center - (center - self->visible_start) * factor;
  b = center + (self->visible_end - center) * factor;
  tm_session_set_visible (self, a, b);
}

void
tm_session_pan (TmSession *self, double delta)
{
  g_return_if_fail (TM_IS_SESSION (self));
  tm_session_set_visible (self, self->visible_start + delta, self->visible_end + delta);
}

void
tm_session_reset_zoom (TmSession *self)
{
  g_return_if_fail (TM_IS_SESSION (self));
  tm_session_set_visible (self, self->whole_start, self->whole_end);
}

static void
set_selection (TmSession *self, gboolean has, double start, double end, guint first_gc, guint last_gc)
{
  self->has_selection = has;
  self->selection_start = start;
  self->selection_end = end;
  self->first_gc = first_gc;
  self->last_gc = last_gc;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_START]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_END]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FIRST_GC]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_LAST_GC]);
  emit_changed (self);
}

void
tm_session_select_time (TmSession *self, double start, double end)
{
  guint first = 0, last = 0;

  g_return_if_fail (TM_IS_SESSION (self));

  if (end < start)
    {
      double t = start;
      start = end;
      end = t;
    }
  start = MAX (start, self->whole_start);
  end = MIN (end, self->whole_end);
  if (self->model)
    tm_timeline_model_gc_range (self->model, start, end, &first, &last);
  if (first > last)
    first = last = 0;
  /* A hand-made selection is no longer the window chosen before. */
  if (self->selected_window != -1)
    {
      self->selected_window = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_WINDOW]);
    }
  set_selection (self, TRUE, start, end, first, last);
}

void
tm_session_select_gcs (TmSession *self, guint first_gc, guint last_gc)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (self->model != NULL);

  if (first_gc < 1 || last_gc > self->model->n_gcs || first_gc > last_gc)
    return;
  set_selection (self, TRUE, self->model->start_ns[first_gc - 1], self->model->end_ns[last_gc - 1],
                 first_gc, last_gc);
}

void
tm_session_clear_selection (TmSession *self)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->selected_window != -1)
    {
      self->selected_window = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_WINDOW]);
    }
  set_selection (self, FALSE, 0, 0, 0, 0);
}

void
tm_session_zoom_to_selection (TmSession *self)
{
  double pad;

  g_return_if_fail (TM_IS_SESSION (self));

  if (!self->has_selection)
    return;
  /* A margin of 5% on each side keeps the edges of the range visible. */
  pad = (self->selection_end - self->selection_start) * 0.05;
  tm_session_set_visible (self, self->selection_start - pad, self->selection_end + pad);
}

void
tm_session_set_selected_window (TmSession *self, int index)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->selected_window == index)
    return;
  self->selected_window = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_WINDOW]);
  emit_changed (self);
}

void
tm_session_set_hover_gc (TmSession *self, guint gc)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->hover_gc == gc)
    return;
  self->hover_gc = gc;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_GC]);
  emit_changed (self);
}

void
tm_session_set_windows (TmSession *self, GPtrArray *windows)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (windows)
    g_ptr_array_ref (windows);
  g_clear_pointer (&self->windows, g_ptr_array_unref);
  g_clear_pointer (&self->bands, g_free);
  self->windows = windows;
  self->bands = tm_chart_bands_from_windows (windows, &self->n_bands);
  if (self->selected_window >= (int) self->n_bands)
    self->selected_window = -1;
  emit_changed (self);
}

GPtrArray *
tm_session_get_windows (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);
  return self->windows;
}

const TmWindow *
tm_session_get_window (TmSession *self, int index)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  if (self->windows == NULL || index < 0 || index >= (int) self->windows->len)
    return NULL;
  return g_ptr_array_index (self->windows, index);
}

const TmChartBand *
tm_session_get_bands (TmSession *self, guint *n_bands)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);
  *n_bands = self->n_bands;
  return self->bands;
}

void
tm_session_select_window (TmSession *self, int index)
{
  const TmWindow *w;

  g_return_if_fail (TM_IS_SESSION (self));

  if ((w = tm_session_get_window (self, index)) == NULL || self->model == NULL)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  tm_session_select_gcs (self, w->first_gc, w->last_gc);
  tm_session_set_selected_window (self, index);
  g_object_thaw_notify (G_OBJECT (self));
}

double
tm_session_get_overhead_threshold (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), 0);
  return self->overhead_threshold;
}

void
tm_session_set_overhead_threshold (TmSession *self, double fraction)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->overhead_threshold == fraction)
    return;
  self->overhead_threshold = fraction;
  emit_changed (self);
}

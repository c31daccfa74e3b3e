/* SPDX-License-Identifier: GPL-3.0-or-later
 * The agent's format extensions, written and read back: OutOfMemoryError
 * events, failed and post-mortem graphs, the class hierarchy of TYPE. */
#include "tidemark.h"
#include "tm-trace-format.h"

#include <string.h>

/* Types: 1 Object, 2 AbstractMap, 3 HashMap, 4 LinkedHashMap, 5 Lru$1
 * (anonymous LinkedHashMap subclass), 6 Map (interface), 7 a type whose
 * superclass (8) comes later in the stream, 9 one naming an undefined
 * superclass 99.
 * GCs: 1 with a graph (2 objects reachable, 30 bytes); 2 a graph begun and
 * abandoned; 3 a failed walk with no GRAPH_BEGIN; an OOM after GC 3; 4 the
 * graph at the OOM; 5 a post-mortem graph (only object 1 reachable). */
static void
write_gc (TmTraceWriter *w, guint64 n, guint64 start, guint64 end, guint kind, const char *collector)
{
  TmSpaceUsageRecord u[] = { { 1, 100, 50, 512 } };

  tm_trace_writer_gc_start (w, n, start, kind, collector, "");
  tm_trace_writer_gc_end (w, n, end, end - start, 1, u);
}

/* Begins the graph of GC n: object 1 a root, referencing `to` if not 0. */
static void
write_graph_start (TmTraceWriter *w, guint64 n, guint64 to)
{
  TmRootRecord roots[] = { { 1, TM_ROOT_KIND_STATIC, 0 } };

  tm_trace_writer_graph_begin (w, n);
  tm_trace_writer_roots (w, 1, roots);
  if (to != 0)
    tm_trace_writer_refs (w, 1, 1, &to);
}

static GBytes *
write_trace (gboolean compress, gboolean undefined_super)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (compress);
  TmTraceHeader h = { 1, 1, "TestVM", "17", "java Lru", 8, 0, TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 map_iface[] = { 6 };

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_OLD, "Old");
  tm_trace_writer_type_full (w, 1, "java.lang.Object", 0, 0, 0, NULL);
  tm_trace_writer_type_full (w, 2, "java.util.AbstractMap", 0, 1, 1, map_iface);
  tm_trace_writer_type_full (w, 3, "java.util.HashMap", 0, 2, 1, map_iface);
  tm_trace_writer_type_full (w, 4, "java.util.LinkedHashMap", 0, 3, 1, map_iface);
  tm_trace_writer_type_full (w, 5, "Lru$1", 0, 4, 0, NULL);
  tm_trace_writer_type (w, 6, "java.util.Map", 0);
  tm_trace_writer_type_full (w, 7, "a.Child", 0, 8, 0, NULL);
  tm_trace_writer_thread (w, 1, "main");
  tm_trace_writer_thread (w, 2, "worker");
  for (guint i = 1; i <= 3; i++)
    tm_trace_writer_alloc (w, i, i == 1 ? 5 : 1, 0, 1, 10 * i, 0, 0);

  write_gc (w, 1, 1000, 2000, TM_GC_KIND_MINOR, "G1 Young");
  write_graph_start (w, 1, 2);
  tm_trace_writer_graph_end (w, 1, 1);

  write_gc (w, 2, 3000, 3100, TM_GC_KIND_CONCURRENT, "G1 Remark");
  write_graph_start (w, 2, 2);
  tm_trace_writer_graph_failed (w, 2, "FollowReferences: error 99");

  write_gc (w, 3, 4000, 4100, TM_GC_KIND_MINOR, "G1 Young");
  tm_trace_writer_graph_failed (w, 3, "");

  tm_trace_writer_type (w, 8, "a.Parent", 0);
  if (undefined_super)
    tm_trace_writer_type_full (w, 9, "a.Orphan", 0, 99, 0, NULL);
  write_gc (w, 4, 5000, 6000, TM_GC_KIND_MAJOR, "G1 Full");
  tm_trace_writer_oom (w, 6500, 3, 2, TM_OOM_JAVA_HEAP, "Java heap space");
  tm_trace_writer_graph_context (w, 4, TM_GRAPH_AT_OOM);
  write_graph_start (w, 4, 3);
  tm_trace_writer_graph_end (w, 4, 1);

  write_gc (w, 5, 7000, 7500, TM_GC_KIND_MAJOR, "G1 Full");
  write_graph_start (w, 5, 0);
  tm_trace_writer_graph_end (w, 5, 0);
  tm_trace_writer_graph_context (w, 5, TM_GRAPH_POST_MORTEM);
  tm_trace_writer_end (w, 3, 0, 5, 8000);
  g_assert_true (tm_trace_writer_close (w, NULL));
  {
    GBytes *b = tm_trace_writer_steal_bytes (w);
    tm_trace_writer_free (w);
    return b;
  }
}

static void
check_model (gconstpointer data)
{
  gboolean compress = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) bytes = write_trace (compress, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "oom.tmtrace", NULL, &error);
  const TmOomEvent *ev;

  g_assert_no_error (error);
  g_assert_true (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 0);

  /* graphs: ok, abandoned, failed, at OOM, post-mortem */
  g_assert_true (tm_trace_gc (t, 1)->has_graph);
  g_assert_false (tm_trace_gc (t, 1)->graph_failed);
  g_assert_cmpuint (tm_trace_gc (t, 1)->reachable_bytes, ==, 30);
  g_assert_cmpint (tm_trace_gc (t, 1)->graph_context, ==, TM_GRAPH_AT_GC);
  g_assert_false (tm_trace_gc (t, 2)->has_graph);
  g_assert_true (tm_trace_gc (t, 2)->graph_failed);
  g_assert_cmpstr (tm_trace_gc (t, 2)->graph_failure, ==, "FollowReferences: error 99");
  g_assert_false (tm_trace_gc (t, 3)->has_graph);
  g_assert_true (tm_trace_gc (t, 3)->graph_failed);
  g_assert_cmpstr (tm_trace_gc (t, 3)->graph_failure, ==, "unknown reason");
  g_assert_true (tm_trace_gc (t, 4)->has_graph);
  g_assert_cmpint (tm_trace_gc (t, 4)->graph_context, ==, TM_GRAPH_AT_OOM);
  g_assert_cmpuint (tm_trace_gc (t, 4)->reachable_bytes, ==, 40);
  g_assert_true (tm_trace_gc (t, 5)->has_graph);
  g_assert_cmpint (tm_trace_gc (t, 5)->graph_context, ==, TM_GRAPH_POST_MORTEM);
  g_assert_cmpuint (tm_trace_gc (t, 5)->reachable_bytes, ==, 10);
  g_assert_cmpuint (t->n_graphs, ==, 3);

  g_assert_cmpuint (tm_trace_n_oom_events (t), ==, 1);
  ev = tm_trace_oom_event (t, 0);
  g_assert_cmpuint (ev->time_ns, ==, 6500);
  g_assert_cmpuint (ev->gc_before, ==, 3);
  g_assert_cmpint (ev->kind, ==, TM_OOM_JAVA_HEAP);
  g_assert_cmpstr (ev->message, ==, "Java heap space");
  g_assert_cmpstr (tm_trace_thread (t, ev->thread)->name, ==, "worker");

  /* hierarchy: indices equal ids here (types defined in id order) */
  g_assert_cmpuint (t->types->len, ==, 9);
  g_assert_cmpuint (tm_trace_type (t, 5)->super, ==, 4);
  g_assert_cmpuint (tm_trace_type (t, 4)->super, ==, 3);
  g_assert_cmpuint (tm_trace_type (t, 1)->super, ==, TM_UNKNOWN);
  g_assert_cmpuint (tm_trace_type (t, 3)->n_interfaces, ==, 1);
  g_assert_cmpuint (tm_trace_type (t, 3)->interfaces[0], ==, 6);
  g_assert_cmpstr (tm_trace_type (t, tm_trace_type (t, 7)->super)->name, ==, "a.Parent");
  g_assert_true (tm_trace_type_is_a (t, 5, 4));
  g_assert_true (tm_trace_type_is_a (t, 5, 2));
  g_assert_true (tm_trace_type_is_a (t, 5, 1));
  g_assert_true (tm_trace_type_is_a (t, 5, 6));   /* Map, through HashMap */
  g_assert_true (tm_trace_type_is_a (t, 5, 5));
  g_assert_false (tm_trace_type_is_a (t, 3, 4));
  g_assert_false (tm_trace_type_is_a (t, 6, 1));
  g_assert_false (tm_trace_type_is_a (t, 1, TM_UNKNOWN));
}

static void
test_undefined_super (void)
{
  g_autoptr(GBytes) bytes = write_trace (TRUE, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "orphan.tmtrace", NULL, &error);
  const TmWarning *w;

  g_assert_no_error (error);
  g_assert_false (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 1);
  w = &g_array_index (t->warnings, TmWarning, 0);
  g_assert_nonnull (strstr (w->message, "orphan.tmtrace: "));
  g_assert_nonnull (strstr (w->message, "type 99"));
  g_assert_cmpuint (tm_trace_type (t, 9)->super, ==, TM_UNKNOWN);
  /* the rest still reads */
  g_assert_cmpuint (tm_trace_type (t, 5)->super, ==, 4);
  g_assert_cmpuint (tm_trace_n_oom_events (t), ==, 1);
}

static TmTrace *
load_raw (TmTraceWriter *w)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TmTrace *t;

  g_assert_true (tm_trace_writer_close (w, NULL));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  t = tm_trace_load_bytes (bytes, "bad.tmtrace", NULL, &error);
  g_assert_no_error (error);
  return t;
}

static TmTraceWriter *
start_raw (void)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 1, "TestVM", "17", "", 8, 0, TM_TRACE_FLAG_GRAPHS };
  TmSpaceUsageRecord u[] = { { 1, 1, 1, 1 } };

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_OLD, "Old");
  tm_trace_writer_thread (w, 1, "main");
  tm_trace_writer_gc_start (w, 1, 10, TM_GC_KIND_MINOR, "Copy", "");
  tm_trace_writer_gc_end (w, 1, 20, 10, 1, u);
  return w;
}

/* Rule breaks are skipped with a warning; a cut payload stops reading
 * there; trailing bytes after the known fields are ignored. */
static void
test_damage (void)
{
  TmTraceWriter *w;
  g_autoptr(TmTrace) t1 = NULL, t2 = NULL, t3 = NULL;
  /* OOM: time 5, gc_before 1, thread 1, kind 1, message "x", then 2 extra bytes */
  const guint8 oom_extra[] = { 5, 1, 1, 1, 1, 'x', 7, 7 };
  const guint8 oom_cut[] = { 5, 1, 1, 1, 4, 'x' };
  /* TYPE 3 "T" flags 0 super 0, 1 interface (2), then an unknown field */
  const guint8 type_extra[] = { 3, 1, 'T', 0, 0, 1, 2, 42 };

  w = start_raw ();
  tm_trace_writer_type (w, 2, "I", 0);
  tm_trace_writer_raw_record (w, TM_TAG_TYPE, type_extra, sizeof type_extra);
  tm_trace_writer_raw_record (w, TM_TAG_OOM, oom_extra, sizeof oom_extra);
  tm_trace_writer_graph_failed (w, 7, "no such GC");        /* skipped */
  tm_trace_writer_graph_context (w, 9, TM_GRAPH_AT_OOM);    /* skipped */
  tm_trace_writer_oom (w, 6, 1, 5, TM_OOM_THREADS, "");     /* undefined thread: skipped */
  tm_trace_writer_oom (w, 4, 9, 0, 77, "");                 /* unknown kind -> other, gc count clamped */
  tm_trace_writer_end (w, 0, 0, 1, 30);
  t1 = load_raw (w);
  g_assert_cmpuint (t1->warnings->len, ==, 3);
  g_assert_true (strstr (g_array_index (t1->warnings, TmWarning, 0).message, "GRAPH_FAILED") != NULL);
  g_assert_cmpuint (t1->gcs->len, ==, 1);
  g_assert_false (tm_trace_gc (t1, 1)->graph_failed);
  g_assert_cmpuint (tm_trace_n_oom_events (t1), ==, 2);
  /* time order */
  g_assert_cmpuint (tm_trace_oom_event (t1, 0)->time_ns, ==, 4);
  g_assert_cmpint (tm_trace_oom_event (t1, 0)->kind, ==, TM_OOM_OTHER);
  g_assert_cmpuint (tm_trace_oom_event (t1, 0)->gc_before, ==, 1);
  g_assert_cmpuint (tm_trace_oom_event (t1, 0)->thread, ==, TM_UNKNOWN);
  g_assert_cmpstr (tm_trace_oom_event (t1, 1)->message, ==, "x");
  g_assert_cmpuint (tm_trace_type (t1, 2)->n_interfaces, ==, 1);
  g_assert_cmpuint (tm_trace_type (t1, 2)->interfaces[0], ==, 1);

  w = start_raw ();
  tm_trace_writer_raw_record (w, TM_TAG_OOM, oom_cut, sizeof oom_cut);
  tm_trace_writer_end (w, 0, 0, 1, 30);
  t2 = load_raw (w);
  g_assert_false (t2->complete);
  g_assert_cmpuint (tm_trace_n_oom_events (t2), ==, 0);
  g_assert_true (strstr (g_array_index (t2->warnings, TmWarning, 0).message, "OOM message") != NULL);
  g_assert_true (strstr (g_array_index (t2->warnings, TmWarning, 0).message, "bad.tmtrace: ") != NULL);

  /* A failure after a complete graph is a rule break: the graph stays. */
  w = start_raw ();
  tm_trace_writer_alloc (w, 1, 0, 0, 1, 8, 0, 0);
  tm_trace_writer_graph_begin (w, 1);
  tm_trace_writer_roots (w, 0, NULL);
  tm_trace_writer_graph_end (w, 1, 0);
  tm_trace_writer_graph_failed (w, 1, "late");
  t3 = load_raw (w);
  g_assert_true (tm_trace_gc (t3, 1)->has_graph);
  g_assert_false (tm_trace_gc (t3, 1)->graph_failed);
  g_assert_cmpuint (t3->warnings->len, ==, 2);   /* the rule break, END's missing alloc count */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/trace-ext/model/raw", GINT_TO_POINTER (FALSE), check_model);
  g_test_add_data_func ("/trace-ext/model/zstd", GINT_TO_POINTER (TRUE), check_model);
  g_test_add_func ("/trace-ext/undefined-super", test_undefined_super);
  g_test_add_func ("/trace-ext/damage", test_damage);
  return g_test_run ();
}

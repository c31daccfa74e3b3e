/* SPDX-License-Identifier: GPL-3.0-or-later
 * Writer -> reader round trips on small traces whose every number is known. */
#include "tidemark.h"
#include "tm-trace-format.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

typedef struct {
  gboolean compress;
  int      id_mode;     /* 0 dense 1..n, 1 sparse ascending, 2 unordered */
  gboolean deaths;      /* record deaths (else the graph decides) */
} Variant;

static guint64
oid (const Variant *v, guint n)
{
  static const guint64 unordered[] = { 0, 500, 20, 7000, 3, 41, 99999999999ull, 12 };
  switch (v->id_mode)
    {
    case 1: return 1000 + n * 17;
    case 2: return unordered[n];
    default: return n;
    }
}

/* Objects 1..6 of sizes 10..60; GC 1 kills 2 and 5 and has a graph
 * 1 -> 3 -> 4 -> 1 (cycle) with 1 a static root; 6 is live but
 * unreachable; object 7 comes after GC 1; 6 is freed at "now" (gc 0)
 * before GC 2. */
static GBytes *
write_known (const Variant *v)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (v->compress);
  TmTraceHeader h = { 1, 42, "TestVM", "1.0", "java Test", 8, 0, TM_TRACE_FLAG_GRAPHS };
  TmSpaceUsageRecord u1[] = { { 1, 100, 0, 512 }, { 2, 50, 80, 1024 }, { 3, 7, 7, 9 } };
  TmSpaceUsageRecord u2[] = { { 1, 70, 0, 512 }, { 2, 80, 90, 1024 } };
  TmRootRecord roots[] = { { 0, TM_ROOT_KIND_STATIC, 0 } };
  guint64 frames[] = { 1, 2 };
  guint64 dead1[2];
  guint64 t3[1], t4[1], t1[1];
  guint8 unknown_payload[] = { 1, 2, 3 };
  GBytes *bytes;

  if (v->deaths)
    h.flags |= TM_TRACE_FLAG_DEATHS;
  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_YOUNG, "Eden");
  tm_trace_writer_space (w, 2, TM_SPACE_KIND_OLD, "Old");
  tm_trace_writer_space (w, 3, TM_SPACE_KIND_NON_HEAP, "Metaspace");
  tm_trace_writer_type (w, 1, "java.lang.String", 0);
  tm_trace_writer_type (w, 2, "java.lang.Object[]", TM_TYPE_FLAG_REF_ARRAY);
  tm_trace_writer_frame (w, 1, "a.B.c(int)", "B.java", 10);
  tm_trace_writer_frame (w, 2, "a.B.main(java.lang.String[])", "", -1);
  tm_trace_writer_site (w, 1, 2, frames);
  tm_trace_writer_thread (w, 1, "main");
  tm_trace_writer_meta (w, "k", "v");
  tm_trace_writer_raw_record (w, 0x55, unknown_payload, sizeof unknown_payload);  /* skipped */
  for (guint i = 1; i <= 6; i++)
    tm_trace_writer_alloc (w, oid (v, i), i % 2 ? 1 : 2, i <= 3 ? 1 : 0, 1, i * 10, 0, i % 2 ? 0 : 4);
  tm_trace_writer_gc_start (w, 1, 1000, TM_GC_KIND_MINOR, "Young", "Allocation Failure");
  dead1[0] = oid (v, 5);
  dead1[1] = oid (v, 2);
  if (v->deaths)
    tm_trace_writer_deaths (w, 1, dead1, 2);
  tm_trace_writer_gc_end (w, 1, 1500, 500, 3, u1);
  roots[0].object_id = oid (v, 1);
  tm_trace_writer_graph_begin (w, 1);
  tm_trace_writer_roots (w, 1, roots);
  t3[0] = oid (v, 3);
  t4[0] = oid (v, 4);
  t1[0] = oid (v, 1);
  tm_trace_writer_refs (w, oid (v, 1), 1, t3);
  tm_trace_writer_refs (w, oid (v, 3), 1, t4);
  tm_trace_writer_refs (w, oid (v, 4), 1, t1);
  tm_trace_writer_graph_end (w, 1, 3);
  tm_trace_writer_alloc (w, oid (v, 7), 1, 1, 1, 70, 0, 0);
  tm_trace_writer_tick (w, 2000);
  if (v->deaths)
    {
      guint64 six = oid (v, 6);
      tm_trace_writer_deaths (w, 0, &six, 1);
    }
  tm_trace_writer_gc_start (w, 2, 3000, TM_GC_KIND_MAJOR, "Old", "System.gc()");
  tm_trace_writer_gc_end (w, 2, 3100, 100, 2, u2);
  tm_trace_writer_end (w, 7, v->deaths ? 3 : 0, 2, 3100);
  g_assert_true (tm_trace_writer_close (w, NULL));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return bytes;
}

/* Row of object i (1..7); short-lived objects have none. */
static guint64
row_of (const TmTrace *t, const Variant *v, guint i)
{
  guint64 index = G_MAXUINT64;

  g_assert_true (tm_trace_object_index_for_id (t, oid (v, i), &index));
  return index;
}

static void
check_known (gconstpointer data)
{
  const Variant *v = data;
  g_autoptr(GBytes) bytes = write_known (v);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "known.tmtrace", NULL, &error);
  const TmGc *g1, *g2;
  guint64 index;

  g_assert_no_error (error);
  g_assert_nonnull (t);
  for (guint i = 0; i < t->warnings->len; i++)
    g_printerr ("warning: %s\n", g_array_index (t->warnings, TmWarning, i).message);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_true (t->complete);
  g_assert_cmpstr (t->vm_name, ==, "TestVM");
  g_assert_cmpstr (t->command_line, ==, "java Test");
  g_assert_cmpuint (t->start_unix_ns, ==, 42);
  g_assert_cmpstr (g_hash_table_lookup (t->meta, "k"), ==, "v");
  g_assert_cmpuint (t->total_allocs, ==, 7);
  /* 2 and 5 die in their first GC (and 6 without deaths): no rows,
   * unless ids come in no order (rows stay where a hash table finds them) */
  g_assert_cmpuint (t->n_objects, ==, v->id_mode == 2 ? 7 : (v->deaths ? 5 : 4));
  g_assert_cmpuint (t->total_alloc_bytes, ==, 280);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
  g_assert_cmpuint (t->duration_ns, ==, 3100);

  g1 = tm_trace_gc (t, 1);
  g_assert_cmpuint (g1->start_ns, ==, 1000);
  g_assert_cmpuint (g1->end_ns, ==, 1500);
  g_assert_cmpuint (g1->pause_ns, ==, 500);
  g_assert_cmpint (g1->kind, ==, TM_GC_KIND_MINOR);
  g_assert_cmpstr (g1->cause, ==, "Allocation Failure");
  g_assert_cmpuint (g1->used_before, ==, 150);   /* metaspace not summed */
  g_assert_cmpuint (g1->used_after, ==, 80);
  g_assert_cmpuint (g1->usage_count, ==, 3);
  g_assert_true (g1->has_graph);
  g_assert_cmpuint (g1->reachable_bytes, ==, 10 + 30 + 40);
  g_assert_cmpuint (g1->reachable_objects, ==, 3);

  g2 = tm_trace_gc (t, 2);
  g_assert_false (g2->has_graph);
  g_assert_cmpint (g2->kind, ==, TM_GC_KIND_MAJOR);
  g_assert_cmpuint (g2->used_before, ==, 150);
  g_assert_cmpuint (g2->allocs_before, ==, t->n_objects);
  g_assert_cmpuint (g2->allocations_before, ==, 7);
  g_assert_cmpuint (t->peak_used_bytes, ==, 150);

  if (v->deaths)
    {
      /* 2 and 5 die in GC 1; 6 is freed before GC 2 */
      g_assert_cmpuint (g1->live_objects, ==, 4);
      g_assert_cmpuint (g1->live_bytes, ==, 10 + 30 + 40 + 60);
      g_assert_cmpuint (g2->live_objects, ==, 4);
      g_assert_cmpuint (g2->live_bytes, ==, 10 + 30 + 40 + 70);
      g_assert_cmpuint (t->total_deaths, ==, 3);
    }
  else
    {
      /* without deaths, the graph decides: 2, 5 and 6 die in GC 1 */
      g_assert_cmpuint (g1->live_objects, ==, 3);
      g_assert_cmpuint (g2->live_objects, ==, 4);
      g_assert_cmpuint (t->total_deaths, ==, 3);
    }

  /* ids map back */
  for (guint i = 1, row = 0; i <= 7; i++)
    {
      gboolean short_lived = v->id_mode != 2 && (i == 2 || i == 5 || (i == 6 && !v->deaths));

      g_assert_cmpint (tm_trace_object_index_for_id (t, oid (v, i), &index), ==, !short_lived);
      if (short_lived)
        continue;
      g_assert_cmpuint (index, ==, row++);
      g_assert_cmpuint (tm_trace_object_id (t, index), ==, oid (v, i));
      g_assert_cmpuint (tm_trace_object_seq (t, index), ==, i - 1);
    }
  g_assert_false (tm_trace_object_index_for_id (t, 424242, &index));
  g_assert_cmpuint (tm_trace_object_size (t, row_of (t, v, 4)), ==, 40);
  g_assert_cmpstr (tm_trace_type (t, t->obj_type[0])->name, ==, "java.lang.String");
  g_assert_cmpstr (tm_trace_thread (t, t->obj_thread[0])->name, ==, "main");
  {
    g_autofree char *label = tm_trace_site_label (t, t->obj_site[0]);
    g_assert_cmpstr (label, ==, "a.B.c(int):10");
    g_autofree char *unknown = tm_trace_site_label (t, t->obj_site[row_of (t, v, 4)]);
    g_assert_cmpstr (unknown, ==, "(unknown site)");
  }
  g_assert_cmpuint (tm_trace_object_birth_gc (t, 0), ==, 0);
  g_assert_cmpuint (tm_trace_object_birth_gc (t, row_of (t, v, 7)), ==, 1);
  g_assert_true (tm_trace_object_alive_after (t, 0, 1));
  g_assert_true (tm_trace_object_alive_after (t, row_of (t, v, 3), 1));
  g_assert_false (tm_trace_object_alive_after (t, row_of (t, v, 7), 1));  /* born after GC 1 started */
  g_assert_true (tm_trace_object_alive_after (t, row_of (t, v, 7), 2));
  if (v->deaths)
    g_assert_false (tm_trace_object_alive_after (t, row_of (t, v, 6), 2));   /* freed before GC 2 */

  /* the graph of GC 1, read back from its stored position */
  {
    g_autoptr(TmHeapGraph) g = tm_heap_graph_read (t, 1, NULL, &error);
    guint64 marked;
    g_autofree guint64 *bits = NULL;
    guint32 n1, n4;

    g_assert_no_error (error);
    g_assert_cmpuint (g->n_nodes, ==, v->deaths ? 4 : 3);
    g_assert_cmpuint (g->n_edges, ==, 3);
    g_assert_cmpuint (g->n_roots, ==, 1);
    g_assert_cmpuint (g->root_kind[0], ==, TM_ROOT_KIND_STATIC);
    bits = tm_heap_graph_mark (g, &marked);
    g_assert_cmpuint (marked, ==, 3);
    g_assert_true (tm_heap_graph_node_for_object (g, 0, &n1));
    g_assert_true (tm_heap_graph_node_for_object (g, (guint32) row_of (t, v, 4), &n4));
    g_assert_cmpuint (g->edges[tm_heap_graph_edge_begin (g, n4)], ==, n1);

    g_assert_null (tm_heap_graph_read (t, 2, NULL, &error));
    g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
    g_assert_nonnull (strstr (error->message, "nearest GC with a graph: 1"));
  }
}

/* A frame per GC_END: cutting after a GC keeps that GC. */
static void
test_frames_and_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tm-roundtrip-XXXXXX.tmtrace", NULL);
  int fd = g_mkstemp (path);
  Variant v = { TRUE, 0, TRUE };
  g_autoptr(GBytes) bytes = write_known (&v);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  close (fd);
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->complete);
  g_assert_cmpstr (t->format, ==, "tmtrace");
  {
    g_autoptr(TmHeapGraph) g = tm_heap_graph_read (t, 1, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g->n_edges, ==, 3);
  }
  g_unlink (path);
}

/* Big sizes, redefinitions and trailing payload bytes. */
static void
test_extensions (void)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "", "", "", 8, 0, TM_TRACE_FLAG_DEATHS };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(GError) error = NULL;
  /* a TYPE record with two extra trailing bytes: readers ignore them */
  guint8 type_ext[] = { 2, 3, 'a', '.', 'B', 0, 0xAA, 0xBB };

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, 1, "x.Old", 0);
  tm_trace_writer_type (w, 1, "x.New", 0);   /* redefinition wins */
  tm_trace_writer_raw_record (w, 0x03, type_ext, sizeof type_ext);
  tm_trace_writer_alloc (w, 1, 1, 0, 0, G_GUINT64_CONSTANT (6) << 30, 0, 0);  /* 6 GiB */
  tm_trace_writer_alloc (w, 2, 2, 0, 0, 16, 0, 0);
  tm_trace_writer_end (w, 2, 0, 0, 0);
  tm_trace_writer_close (w, NULL);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);

  t = tm_trace_load_bytes (bytes, "ext", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->complete);
  g_assert_cmpuint (tm_trace_object_size (t, 0), ==, G_GUINT64_CONSTANT (6) << 30);
  g_assert_cmpstr (tm_trace_type (t, t->obj_type[0])->name, ==, "x.New");
  g_assert_cmpstr (tm_trace_type (t, t->obj_type[1])->name, ==, "a.B");
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
}

int
main (int argc, char **argv)
{
  static const Variant variants[] = {
    { TRUE, 0, TRUE }, { FALSE, 0, TRUE }, { TRUE, 1, TRUE }, { TRUE, 2, TRUE },
    { TRUE, 0, FALSE }, { FALSE, 2, FALSE },
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      g_autofree char *name = g_strdup_printf ("/trace/known/%s-%s-%s",
                                               variants[i].compress ? "zstd" : "raw",
                                               (const char *[]) { "dense", "sparse", "unordered" }[variants[i].id_mode],
                                               variants[i].deaths ? "deaths" : "graph-deaths");
      g_test_add_data_func (name, &variants[i], check_known);
    }
  g_test_add_func ("/trace/file", test_frames_and_file);
  g_test_add_func ("/trace/extensions", test_extensions);
  return g_test_run ();
}

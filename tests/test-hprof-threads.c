/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The HPROF import parses on one thread and applies objects, references,
 * roots and notes on another (tm-hprof-stream.c);
 * hprof_parse_set_one_thread() makes it apply them at once, as the graph
 * read does.  Both must build
 * the same model: compared object by object, warning by warning, graph
 * by graph, on a written dump with what takes every path of the applying
 * side (events longer than a chunk, duplicates, the null id, instances
 * without a layout, a class dumped twice, an object listed before its
 * class object, targets that do not fit 4 bytes, a damaged segment), on
 * every prefix of it, and under a memory limit small enough to stop it.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "tidemark.h"
#include "hprof-test-writer.h"
#include "tm-hprof-private.h"

static char *tmpdir;

enum { C_OBJECT = 0x100, C_WIDE = 0x108, C_HOLDER = 0x110, C_ARRAY = 0x118, C_MISSING = 0x120,
       O_BASE = 0x10000 };

#define WIDE_FIELDS 20000u    /* an instance with more targets than a chunk holds */
#define STATICS     18000u    /* as many static references */
#define ARRAY_LEN   40000u
#define N_PLAIN     3000u

/* `far`: with 8-byte ids, a few targets 64 GiB away (the targets then
 * take 8 bytes each, from there on) */
static GBytes *
mixed_dump (gboolean far)
{
  HprofW w;
  g_autofree HwField *wide = g_new0 (HwField, WIDE_FIELDS);
  g_autofree HwField *statics = g_new0 (HwField, STATICS);
  g_autofree guint64 *elems = g_new0 (guint64, ARRAY_LEN);
  HwField holder[] = { { 31, 2, 0 }, { 32, 10, 0 } };
  const guint64 far_addr = G_GUINT64_CONSTANT (64) << 30;

  hw_begin (&w, 8, TRUE, 1700000000000);
  hw_utf8 (&w, 11, "java/lang/Object");
  hw_utf8 (&w, 12, "com/example/Wide");
  hw_utf8 (&w, 13, "com/example/Holder");
  hw_utf8 (&w, 14, "[Ljava/lang/Object;");
  hw_utf8 (&w, 15, "com/example/Missing");
  hw_utf8 (&w, 31, "next");
  hw_utf8 (&w, 32, "value");
  hw_utf8 (&w, 33, "f");
  hw_load_class (&w, 1, C_OBJECT, 11);
  hw_load_class (&w, 2, C_WIDE, 12);
  hw_load_class (&w, 3, C_HOLDER, 13);
  hw_load_class (&w, 4, C_ARRAY, 14);
  hw_load_class (&w, 5, C_MISSING, 15);
  for (guint i = 0; i < WIDE_FIELDS; i++)
    wide[i] = (HwField) { 33, 2, 0 };
  for (guint i = 0; i < STATICS; i++)
    statics[i] = (HwField) { 33, 2, i % 7 == 0 ? 0 : O_BASE + 16 * (i % N_PLAIN) };

  hw_heap_begin (&w, 1000);
  /* an instance of Holder before any class dump: no layout yet */
  hw_instance (&w, O_BASE - 0x100, C_HOLDER, 12);
  hw_id (&w, O_BASE);
  hw_u4 (&w, 7);
  hw_class_dump (&w, C_OBJECT, 0, 0, 0, NULL, 0, NULL, 0);
  hw_class_dump (&w, C_WIDE, C_OBJECT, 0x4242, 8 * WIDE_FIELDS, statics, STATICS, wide, WIDE_FIELDS);
  hw_class_dump (&w, C_HOLDER, C_OBJECT, 0, 12, NULL, 0, holder, 2);
  hw_class_dump (&w, C_HOLDER, C_OBJECT, 0, 12, NULL, 0, holder, 2);   /* twice */
  hw_class_dump (&w, C_ARRAY, C_OBJECT, 0, 0, NULL, 0, NULL, 0);
  hw_u1 (&w, 0x05); hw_id (&w, C_OBJECT);                              /* sticky class */
  hw_u1 (&w, 0x08); hw_id (&w, O_BASE); hw_u4 (&w, 3); hw_u4 (&w, 0);  /* thread object */
  hw_u1 (&w, 0x03); hw_id (&w, O_BASE + 16); hw_u4 (&w, 3); hw_u4 (&w, 1);
  hw_u1 (&w, 0x01); hw_id (&w, O_BASE + 0x400000); hw_id (&w, 1);     /* a global nothing is at */
  hw_u1 (&w, 0x01); hw_id (&w, O_BASE + 0x300000); hw_id (&w, 2);     /* the array */
  hw_heap_end (&w);

  hw_heap_begin (&w, 1000);
  for (guint i = 0; i < N_PLAIN; i++)
    {
      guint64 next = i % 5 == 4 ? 0 : O_BASE + 16 * ((i * 7 + 3) % N_PLAIN);
      if (far && i % 500 == 250)
        next = far_addr + 16 * i;     /* dangling, and 8 bytes wide */
      hw_instance (&w, O_BASE + 16 * i, C_HOLDER, 12);
      hw_id (&w, next);
      hw_u4 (&w, i);
      if (i == 1000)
        {
          /* listed twice, the null id, a size that is not the class's */
          hw_instance (&w, O_BASE + 16 * 10, C_HOLDER, 12);
          hw_id (&w, O_BASE);
          hw_u4 (&w, 0);
          hw_instance (&w, 0, C_HOLDER, 12);
          hw_id (&w, O_BASE);
          hw_u4 (&w, 0);
          hw_instance (&w, O_BASE + 16 * N_PLAIN + 0x100000, C_HOLDER, 4);
          hw_u4 (&w, 0);
          hw_instance (&w, O_BASE + 16 * N_PLAIN + 0x100100, C_MISSING, 4);
          hw_u4 (&w, 0);
        }
      if (i == 2000)
        {
          hw_heap_end (&w);
          hw_heap_begin (&w, 1000);
        }
    }
  /* wide instances: the first one is refused (listed twice) */
  for (guint k = 0; k < 3; k++)
    {
      hw_instance (&w, k == 0 ? O_BASE + 16 * 20 : O_BASE + 0x200000 + 0x40000 * k, C_WIDE, 8 * WIDE_FIELDS);
      for (guint i = 0; i < WIDE_FIELDS; i++)
        hw_id (&w, i % 3 == 0 ? 0 : O_BASE + 16 * ((i + k) % N_PLAIN));
    }
  for (guint i = 0; i < ARRAY_LEN; i++)
    elems[i] = i % 11 == 0 ? 0 : O_BASE + 16 * (i % N_PLAIN);
  hw_obj_array (&w, O_BASE + 0x300000, C_ARRAY, elems, ARRAY_LEN);
  /* listed twice: the objects only it names are garbage */
  for (guint i = 0; i < ARRAY_LEN; i += 1000)
    elems[i] = O_BASE + 0x390000 + 16 * (i / 1000);
  hw_obj_array (&w, O_BASE + 16 * 30, C_ARRAY, elems, ARRAY_LEN);
  for (guint i = 0; i < ARRAY_LEN / 1000; i++)
    {
      hw_instance (&w, O_BASE + 0x390000 + 16 * i, C_HOLDER, 12);
      hw_id (&w, 0);
      hw_u4 (&w, i);
    }
  hw_prim_array (&w, O_BASE + 0x380000, 8, 100);
  /* a lower run of objects, then one above everything */
  for (guint i = 0; i < 50; i++)
    {
      hw_instance (&w, 0x800 + 16 * i, C_HOLDER, 12);
      hw_id (&w, O_BASE + 16 * i);
      hw_u4 (&w, i);
    }
  hw_prim_array (&w, O_BASE + 0x10000000, 10, 3);
  hw_heap_end (&w);

  /* a segment damaged halfway: what comes before its damage counts */
  hw_heap_begin (&w, 1000);
  hw_prim_array (&w, O_BASE + 0x20000000, 10, 3);
  hw_u1 (&w, 0x77);
  hw_u4 (&w, 0xdeadbeef);
  hw_heap_end (&w);
  hw_finish (&w);
  return g_byte_array_free_to_bytes (w.out);
}

static TmTrace *
load_with (const char *path, gboolean one_thread, guint64 limit, GError **error)
{
  TmLoadOptions options = { 0 };
  TmTrace *t;

  options.memory_limit = limit;
  hprof_parse_set_one_thread (one_thread);
  t = tm_trace_load_full (path, &options, NULL, NULL, NULL, error);
  hprof_parse_set_one_thread (FALSE);
  return t;
}

/* The two models are the same: objects, types, sizes, deaths, the GC's
 * figures, the warnings, where reading stopped, the graph read back. */
static void
assert_same (TmTrace *a, TmTrace *b)
{
  g_assert_cmpuint (a->n_objects, ==, b->n_objects);
  g_assert_cmpint (a->complete, ==, b->complete);
  g_assert_cmpuint (a->stop_offset, ==, b->stop_offset);
  g_assert_cmpint (a->memory_limited, ==, b->memory_limited);
  for (guint64 i = 0; i < a->n_objects; i++)
    {
      g_assert_cmpstr (tm_trace_type (a, a->obj_type[i])->name, ==, tm_trace_type (b, b->obj_type[i])->name);
      g_assert_cmpuint (tm_trace_object_size (a, i), ==, tm_trace_object_size (b, i));
      g_assert_cmpuint (a->obj_death ? a->obj_death[i] : 0, ==, b->obj_death ? b->obj_death[i] : 0);
    }
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    {
      const TmWarning *wa = &g_array_index (a->warnings, TmWarning, i), *wb = &g_array_index (b->warnings, TmWarning, i);
      g_assert_cmpstr (wa->message, ==, wb->message);
      g_assert_cmpuint (wa->offset, ==, wb->offset);
    }
  g_assert_cmpuint (tm_trace_n_gcs (a), ==, tm_trace_n_gcs (b));
  for (guint gc = 1; gc <= tm_trace_n_gcs (a); gc++)
    {
      const TmGc *ga = tm_trace_gc (a, gc), *gb = tm_trace_gc (b, gc);
      g_assert_cmpint (ga->has_graph, ==, gb->has_graph);
      g_assert_cmpuint (ga->reachable_objects, ==, gb->reachable_objects);
      g_assert_cmpuint (ga->reachable_bytes, ==, gb->reachable_bytes);
      if (ga->has_graph)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(TmHeapGraph) x = tm_heap_graph_read (a, gc, NULL, &error);
          g_autoptr(TmHeapGraph) y = NULL;
          g_assert_no_error (error);
          y = tm_heap_graph_read (b, gc, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (x->n_nodes, ==, y->n_nodes);
          g_assert_cmpuint (x->n_edges, ==, y->n_edges);
          g_assert_cmpuint (x->n_roots, ==, y->n_roots);
          g_assert_cmpmem (x->node_object, x->n_nodes * sizeof (guint32), y->node_object, y->n_nodes * sizeof (guint32));
          g_assert_cmpmem (x->edges, x->n_edges * sizeof (guint32), y->edges, y->n_edges * sizeof (guint32));
          g_assert_cmpmem (x->root_node, x->n_roots * sizeof (guint32), y->root_node, y->n_roots * sizeof (guint32));
          g_assert_cmpmem (x->root_kind, x->n_roots, y->root_kind, y->n_roots);
          for (guint32 v = 0; v <= x->n_nodes; v++)
            g_assert_cmpuint (tm_heap_graph_edge_begin (x, v), ==, tm_heap_graph_edge_begin (y, v));
        }
    }
}

static char *
write_file (const char *name, GBytes *bytes)
{
  return hw_file_in (tmpdir, name, bytes);
}

static void
test_same (gconstpointer data)
{
  gboolean far = GPOINTER_TO_UINT (data);
  g_autoptr(GBytes) bytes = mixed_dump (far);
  g_autofree char *path = write_file ("mixed.hprof", bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) a = load_with (path, FALSE, 0, &error);
  g_autoptr(TmTrace) b = NULL;
  guint refused = 0, garbage = 0;

  g_assert_no_error (error);
  b = load_with (path, TRUE, 0, &error);
  g_assert_no_error (error);
  assert_same (a, b);

  /* what the dump holds by construction: every path was taken */
  for (guint i = 0; i < a->warnings->len; i++)
    refused += strstr (g_array_index (a->warnings, TmWarning, i).message, "listed twice") != NULL;
  g_assert_cmpuint (refused, ==, 3);
  g_assert_false (a->complete);
  /* 5 classes, 1 early Holder, N_PLAIN Holders, 2 odd instances, 2 wide,
   * 1 array, 40 garbage Holders, 1 + 50 + 1 + 1 more */
  g_assert_cmpuint (a->n_objects, ==, 4 + 1 + N_PLAIN + 2 + 2 + 1 + 40 + 1 + 50 + 1 + 1);
  for (guint64 i = 0; i < a->n_objects; i++)
    garbage += a->obj_death != NULL && a->obj_death[i] != TM_ALIVE;
  g_assert_cmpuint (garbage, >=, 40);
}

/* Every prefix (in steps) stops at the same place with the same model. */
static void
test_same_cut (void)
{
  g_autoptr(GBytes) bytes = mixed_dump (TRUE);
  gsize size = g_bytes_get_size (bytes), step = size / 97 + 1;

  for (gsize len = 40; len < size; len += step)
    {
      g_autoptr(GBytes) cut = g_bytes_new_from_bytes (bytes, 0, len);
      g_autofree char *path = write_file ("cut.hprof", cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) a = load_with (path, FALSE, 0, &error);
      g_autoptr(TmTrace) b = NULL;

      g_assert_no_error (error);
      b = load_with (path, TRUE, 0, &error);
      g_assert_no_error (error);
      assert_same (a, b);
    }
}

/* A budget that stops reading: at the same byte, with the same model. */
static void
test_same_budget (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  HprofW w;
  HwField holder[] = { { 31, 2, 0 }, { 32, 10, 0 } };
  const guint n = 400000;
  gboolean stopped = FALSE;

  hw_begin (&w, 8, TRUE, 1700000000000);
  hw_utf8 (&w, 13, "com/example/Holder");
  hw_utf8 (&w, 31, "next");
  hw_utf8 (&w, 32, "value");
  hw_load_class (&w, 3, C_HOLDER, 13);
  hw_heap_begin (&w, 1000);
  hw_class_dump (&w, C_HOLDER, 0, 0, 12, NULL, 0, holder, 2);
  for (guint i = 0; i < n; i++)
    {
      hw_instance (&w, O_BASE + 16 * i, C_HOLDER, 12);
      hw_id (&w, O_BASE + 16 * ((i + 1) % n));
      hw_u4 (&w, i);
      if (i % 50000 == 49999)
        {
          hw_heap_end (&w);
          hw_heap_begin (&w, 1000);
        }
    }
  hw_heap_end (&w);
  hw_finish (&w);
  bytes = g_byte_array_free_to_bytes (w.out);
  path = write_file ("budget.hprof", bytes);

  /* small limits stop it; larger ones let the parser skip checks, then ask again */
  for (guint64 limit = 1 << 20; limit <= 256 << 20; limit *= 2)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) a = load_with (path, FALSE, limit, &error);
      g_autoptr(TmTrace) b = NULL;

      g_assert_no_error (error);
      b = load_with (path, TRUE, limit, &error);
      g_assert_no_error (error);
      assert_same (a, b);
      stopped |= a->memory_limited;
    }
  g_assert_true (stopped);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("tm-hprof-threads-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_data_func ("/hprof/threads/same-model", GUINT_TO_POINTER (FALSE), test_same);
  g_test_add_data_func ("/hprof/threads/same-model-wide-targets", GUINT_TO_POINTER (TRUE), test_same);
  g_test_add_func ("/hprof/threads/same-model-every-cut", test_same_cut);
  g_test_add_func ("/hprof/threads/same-model-budget", test_same_budget);
  status = g_test_run ();
  hw_remove_dir (tmpdir);
  g_free (tmpdir);
  return status;
}
